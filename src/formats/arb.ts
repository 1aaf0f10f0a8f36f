import type { WorkCounter } from "../common/work.ts";
import type { MessageArgument } from "../messages/read.ts";
import { arbNames } from "./arb-names.ts";
import { ARB_TRANSLATABLE, checkArbMetadata } from "./arb-metadata.ts";
import type { Entry, FileContent, FileFormat, FileLanguage, WriteInput } from "./format.ts";
import { arbPlaceholdersJson } from "./icu.ts";
import { describe, invalid, isPlainObject, parseJsonObject } from "./read.ts";
import { addJsonString, textOf, type TextSink } from "./texts.ts";

/**
 * ARB, Flutter's Application Resource Bundle (docs/formats.md "ARB"; docs/interface.md §2.6,
 * docs/product.md §3, docs/publishing.md §3): a bundle format.
 *
 * Written as `@@locale` first, then each message under its name (arb-names.ts: the same names in
 * every language of a release) with, when there is any, its `@name` metadata: the key's context as
 * `description`, the message's arguments as `placeholders` (icu.ts), and `"x-translatable": false`
 * for a key marked not to be translated (docs/formats.md "Not translatable").
 *
 * Read: `@@name` entries are file attributes (`@@locale` names the language), `@name` is the
 * metadata of message `name` (its `description` becomes the key's context, `"x-translatable": false`
 * marks it not to be translated), the rest are messages.
 * The entries carry the message names; the import maps a name back to the key that derives it.
 */

/** `@@locale` with underscores: older gen-l10n versions split locales only on `_` (docs/product.md §3). */
export function arbLocale(code: string): string {
  return code.replace(/-/g, "_");
}

const NO_ARGUMENTS: readonly MessageArgument[] = [];

/**
 * A stored `@key` entry as written: its attributes in their order, `description` the key's context
 * now (edited in the dashboard or not; put first when the stored entry had none), and
 * `x-translatable` the key's flag now (false where it is set, last when the stored entry had none;
 * gone where it is not), null when nothing is left (docs/formats.md "ARB metadata", "Not
 * translatable").
 */
function storedEntryJson(stored: string, context: string | null, translatable: boolean): string | null {
  const meta = JSON.parse(stored) as Record<string, unknown>;
  const out: Record<string, unknown> = context !== null && !("description" in meta) ? { description: context } : {};
  for (const k in meta) {
    if (k === "description") {
      if (context !== null) out.description = context;
    } else if (k !== ARB_TRANSLATABLE) out[k] = meta[k];
    else if (!translatable) out[k] = false;
  }
  if (!translatable) out[ARB_TRANSLATABLE] = false;
  return Object.keys(out).length === 0 ? null : JSON.stringify(out);
}

interface ArbKeyForms {
  /** What comes before each key's value: the line break and the quoted message name. */
  entry: string[];
  /** What comes before each key's `@` entry. */
  meta: string[];
  /** Each key's `@` entry from stored metadata (null: nothing to write), or undefined: inferred per language. */
  stored: (string | null | undefined)[];
  /** The kept `@@` attributes as lines, after `@@locale`. */
  fileLines: string[];
}

function writeTo({ keys, languages, argumentsOf, work }: WriteInput, out: TextSink): void {
  const lang = languages[0]!;
  // The quoted names and stored entries, made once per key set for every language (docs/formats.md "Speed").
  const forms = keys.own<ArbKeyForms>("arb", () => {
    const byKey = arbNames(keys.keys);
    const attributes = keys.arbAttributes ? (JSON.parse(keys.arbAttributes) as Record<string, unknown>) : {};
    const names = keys.keys.map((key) => byKey.get(key)!);
    return {
      entry: names.map((name) => `,\n  ${JSON.stringify(name)}: `),
      meta: names.map((name) => `,\n  ${JSON.stringify(`@${name}`)}: `),
      stored: keys.keys.map((key, i) => {
        const stored = keys.arbMetadata?.get(key);
        return stored === undefined ? undefined : storedEntryJson(stored, keys.contextOf[i]!, keys.translatableOf[i]!);
      }),
      fileLines: Object.keys(attributes).map((k) => `,\n  ${JSON.stringify(k)}: ${JSON.stringify(attributes[k])}`),
    };
  });
  // `@@locale` comes first (docs/interface.md §2.6 rule 5).
  out.add(`{\n  "@@locale": ${JSON.stringify(arbLocale(lang.code))}`);
  for (const line of forms.fileLines) out.add(line);
  for (let i = 0; i < keys.keys.length; i++) {
    const value = lang.values[i];
    if (value === undefined) continue;
    out.add(forms.entry[i]!);
    addJsonString(out, value);
    const stored = forms.stored[i];
    if (stored !== undefined) {
      // The template's entry as pushed: its placeholders' types, formats and examples (docs/formats.md "ARB metadata").
      if (work) work.steps++;
      if (stored !== null) {
        out.add(forms.meta[i]!);
        out.add(stored);
      }
      continue;
    }
    const description = keys.contextOf[i];
    const translatable = keys.translatableOf[i];
    const args = lang.arguments ? (lang.arguments[i] ?? NO_ARGUMENTS) : argumentsOf(lang.values[i]!);
    if (work) work.steps += 1 + args.length;
    if (!description && args.length === 0 && translatable) continue;
    // Written by hand (it is on the publish hot path) from the already-quoted name.
    out.add(forms.meta[i]!);
    let separator = "{";
    if (description) {
      out.add(`${separator}"description":${JSON.stringify(description)}`);
      separator = ",";
    }
    if (args.length > 0) {
      out.add(`${separator}"placeholders":${arbPlaceholdersJson(args)}`);
      separator = ",";
    }
    if (!translatable) out.add(`${separator}"${ARB_TRANSLATABLE}":false`);
    out.add("}");
  }
  out.add("\n}\n");
}

/** File attributes not kept: the language (the import's own) and a time stamp that changes on every save. */
const NOT_KEPT = new Set(["@@locale", "@@last_modified"]);

async function read(content: string, work?: WorkCounter): Promise<FileContent> {
  const data = await parseJsonObject(content, "ARB (a JSON document)", work);
  const entries: Entry[] = [];
  const attributes: Record<string, unknown> = {};
  let locale: string | undefined;
  for (const k in data) {
    if (!Object.hasOwn(data, k)) continue;
    const v = data[k];
    if (k.startsWith("@@")) {
      if (k === "@@locale") {
        if (typeof v !== "string") throw invalid(`"@@locale" must be a string`);
        locale = v;
      }
      if (!NOT_KEPT.has(k)) attributes[k] = v;
      continue;
    }
    if (k.startsWith("@")) {
      if (!isPlainObject(v)) throw invalid(`the metadata "${k}" must be an object, not ${describe(v)}`);
      checkArbMetadata(k.slice(1), v);
      continue;
    }
    if (typeof v !== "string") throw invalid(`the message "${k}" must be a string, not ${describe(v)}`);
    const meta = data[`@${k}`];
    // The whole `@name` entry, kept with the key when this is the base language's file ({} when
    // there is none; docs/formats.md "ARB metadata").
    const kept = isPlainObject(meta) ? meta : {};
    const description = typeof kept.description === "string" ? kept.description : undefined;
    const entry: Entry = description === undefined ? { key: k, value: v, attributes: kept } : { key: k, value: v, description, attributes: kept };
    if (kept[ARB_TRANSLATABLE] === false) entry.translatable = false;
    entries.push(entry);
  }
  const language: FileLanguage = locale === undefined ? { entries } : { entries, locale };
  return { languages: [language], attributes };
}

export const arb = {
  name: "arb",
  label: "ARB (Flutter)",
  extensions: ["arb"],
  // An ARB file is a JSON document (docs/product.md §3).
  contentType: "application/json; charset=utf-8",
  bundle: true,
  marksTranslatable: true,
  read,
  write: (input) => textOf((out) => writeTo(input, out)),
  writeTo,
} as const satisfies FileFormat<"arb">;
