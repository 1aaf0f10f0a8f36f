import type { WorkCounter } from "../common/work.ts";
import { readMessage, type MessageArgument, type MessageSyntax } from "../messages/read.ts";
import { arbDocument, arbHeader, arbLines } from "./arb.ts";
import { jsonDocument, jsonLine } from "./json.ts";
import { yamlDocument, yamlLine, yamlScalar } from "./yaml.ts";

/** The three formats every language of a release is compiled into (docs/interface.md §2.6). */
export const BUNDLE_FORMATS = ["json", "yaml", "arb"] as const;
export type BundleFormat = (typeof BUNDLE_FORMATS)[number];

/** The key set of a release: every key in code-point order, with its context. */
export interface BundleKeys {
  keys: string[];
  contexts: Map<string, string | null>;
}

/** One language's values, aligned with `BundleKeys.keys`; undefined where a key has no value. */
export interface BundleLanguage {
  code: string;
  values: (string | undefined)[];
  /**
   * Each value's arguments from the checked parse (publishing reads every value once, for the
   * checks and for these); undefined where a value has none. Without it each value is read here.
   */
  arguments?: (readonly MessageArgument[] | undefined)[];
}

const NO_ARGUMENTS: readonly MessageArgument[] = [];

/** Each key's quoted forms, made once per key set and shared by every language. */
interface KeyForms {
  json: string[];
  yaml: string[];
  arbName: string[];
  context: (string | null)[];
}

const formsByKeySet = new WeakMap<BundleKeys, KeyForms>();

function keyForms(keySet: BundleKeys, names: ReadonlyMap<string, string>): KeyForms {
  let forms = formsByKeySet.get(keySet);
  if (!forms) {
    forms = { json: [], yaml: [], arbName: [], context: [] };
    for (const key of keySet.keys) {
      const json = JSON.stringify(key);
      const name = names.get(key);
      if (name === undefined) throw new Error(`no ARB name for key ${json}`);
      forms.json.push(json);
      forms.yaml.push(yamlScalar(key, json));
      forms.arbName.push(JSON.stringify(name));
      forms.context.push(keySet.contexts.get(key) ?? null);
    }
    formsByKeySet.set(keySet, forms);
  }
  return forms;
}

/**
 * One language's three files with identical content (docs/interface.md §2.6), built in one pass
 * that quotes each value once. Keys without a value in the language are left out (docs/product.md
 * §3). `names` comes from arbNames over the whole key set, so every language uses the same names;
 * `syntax` is the project's message syntax, for values whose arguments `lang` does not carry.
 * A `work` counter, when given, is charged a step per value and per ARB placeholder written, and
 * what reading the values costs (test/formats/bundle.test.ts holds it to the input's length).
 */
export function compileLanguage(
  keySet: BundleKeys,
  names: ReadonlyMap<string, string>,
  lang: BundleLanguage,
  syntax: MessageSyntax = "icu",
  work?: WorkCounter,
): Record<BundleFormat, string> {
  const forms = keyForms(keySet, names);
  const json: string[] = [];
  const yaml: string[] = [];
  const arb = [arbHeader(lang.code)];
  for (let i = 0; i < keySet.keys.length; i++) {
    const value = lang.values[i];
    if (value === undefined) continue;
    const valueJson = JSON.stringify(value);
    json.push(jsonLine(forms.json[i]!, valueJson));
    yaml.push(yamlLine(forms.yaml[i]!, yamlScalar(value, valueJson)));
    const args = lang.arguments ? (lang.arguments[i] ?? NO_ARGUMENTS) : readMessage(value, syntax, work).arguments;
    if (work) work.steps += 1 + args.length;
    arbLines(arb, forms.arbName[i]!, valueJson, forms.context[i], args);
  }
  return { json: jsonDocument(json), yaml: yamlDocument(yaml), arb: arbDocument(arb) };
}
