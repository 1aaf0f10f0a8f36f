import type { FileFormat, WriteInput } from "./format.ts";
import { needsJsonEscapes, textOf, type TextSink } from "./texts.ts";

/**
 * YAML (docs/formats.md "YAML"; docs/interface.md §2.6, docs/product.md §3): a bundle format.
 *
 * Written as a flat mapping that must read back to exactly the same strings in YAML 1.1 and 1.2
 * parsers. A scalar is written plain only when it is unmistakably a string in both versions: it
 * starts with an ASCII letter, holds only letters, spaces and `_ . , -` (no digits: some 1.1
 * parsers read `e9` as a number), does not end in a space, and is not one of the words YAML 1.1
 * reads as a boolean or null (`y`, `no`, `On`, `NULL`, ...). Everything else is double-quoted with
 * escapes both versions share (`\"`, `\\`, `\uXXXX`).
 *
 * Read as a mapping of strings with the failsafe schema; nested mappings are flattened with ".".
 * The reader and its parser (yaml-read.ts) are loaded when a YAML file is first read: nothing else
 * needs them (docs/architecture.md "Loading only what is used").
 */
const PLAIN_SAFE = /^[A-Za-z](?:[A-Za-z_.,\- ]*[A-Za-z_.,\-])?$/;
const YAML11_WORDS = new Set(["y", "n", "yes", "no", "true", "false", "on", "off", "null"]);

function isPlainSafe(s: string): boolean {
  return PLAIN_SAFE.test(s) && !YAML11_WORDS.has(s.toLowerCase());
}

/**
 * Double-quoted form: JSON's string syntax is valid YAML in both versions (`\"`, `\\`, `\n`, `\b`,
 * `\uXXXX`, lone surrogates as `\uD800`), and JSON.stringify is native and fast. On top of what
 * JSON escapes, YAML 1.1 must not see raw C1 controls or U+0085, U+2028, U+2029 (it folds them as
 * line breaks), the byte order mark, or the non-characters U+FFFE and U+FFFF.
 */
const YAML_EXTRA = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const YAML_EXTRA_ESCAPES = new RegExp(YAML_EXTRA.source, "g");

/** The double-quoted YAML form of a string whose JSON form (JSON.stringify) is already known. */
function quoteYamlFromJson(json: string): string {
  return YAML_EXTRA.test(json)
    ? json.replace(YAML_EXTRA_ESCAPES, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`)
    : json;
}

/** A key or value as written: plain when safe, else double-quoted from its JSON form. */
function yamlScalar(s: string, json: string): string {
  return isPlainSafe(s) ? s : quoteYamlFromJson(json);
}

/** A value as written, without a quoted copy made when it needs no escape (docs/formats.md "Speed"). */
function addYamlScalar(out: TextSink, s: string): void {
  if (isPlainSafe(s)) out.add(s);
  else if (needsJsonEscapes(s) || YAML_EXTRA.test(s)) out.add(quoteYamlFromJson(JSON.stringify(s)));
  else {
    out.add('"');
    out.add(s);
    out.add('"');
  }
}

function writeTo({ keys, languages }: WriteInput, out: TextSink): void {
  const lang = languages[0]!;
  // The keys' YAML forms, each after the previous line's end, made once per key set for every
  // language (docs/formats.md "Speed").
  const entry = keys.own("yaml", () => keys.keys.map((key, i) => `\n${yamlScalar(key, keys.json[i]!)}: `));
  let first = true;
  for (let i = 0; i < keys.keys.length; i++) {
    const value = lang.values[i];
    if (value === undefined) continue;
    out.add(first ? entry[i]!.slice(1) : entry[i]!);
    addYamlScalar(out, value);
    first = false;
  }
  out.add(first ? "{}\n" : "\n");
}

export const yaml = {
  name: "yaml",
  label: "YAML (flat key → string)",
  extensions: ["yaml", "yml"],
  // RFC 9512 registers application/yaml (docs/product.md §3).
  contentType: "application/yaml; charset=utf-8",
  bundle: true,
  read: async (content, work) => ({ languages: [(await import("./yaml-read.ts")).readYaml(content, work)] }),
  write: (input) => textOf((out) => writeTo(input, out)),
  writeTo,
} as const satisfies FileFormat<"yaml">;
