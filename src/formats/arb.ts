import type { MessageArgument } from "../messages/read.ts";
import { arbNames } from "./arb-names.ts";
import type { Entry, FileFormat, FileLanguage, WriteInput } from "./format.ts";
import { arbPlaceholdersJson } from "./icu.ts";
import { describe, invalid, isPlainObject, IMPORT_LIMITS, parseJsonObject, tooManyEntries } from "./read.ts";

/**
 * ARB, Flutter's Application Resource Bundle (docs/formats.md "ARB"; docs/interface.md §2.6,
 * docs/product.md §3, docs/publishing.md §3): a bundle format.
 *
 * Written as `@@locale` first, then each message under its name (arb-names.ts: the same names in
 * every language of a release) with, when there is any, its `@name` metadata: the key's context as
 * `description` and the message's arguments as `placeholders` (icu.ts).
 *
 * Read: `@@name` entries are file attributes (`@@locale` names the language), `@name` is the
 * metadata of message `name` (its `description` becomes the key's context), the rest are messages.
 * The entries carry the message names; the import maps a name back to the key that derives it.
 */

/** `@@locale` with underscores: older gen-l10n versions split locales only on `_` (docs/product.md §3). */
export function arbLocale(code: string): string {
  return code.replace(/-/g, "_");
}

const NO_ARGUMENTS: readonly MessageArgument[] = [];

function write({ keys, languages, argumentsOf, work }: WriteInput): string {
  const lang = languages[0]!;
  // The quoted names, made once per key set for every language (docs/formats.md "Speed").
  const names = keys.own("arb", () => {
    const byKey = arbNames(keys.keys);
    return keys.keys.map((key) => JSON.stringify(byKey.get(key)!));
  });
  // `@@locale` comes first (docs/interface.md §2.6 rule 5).
  const lines = [`  "@@locale": ${JSON.stringify(arbLocale(lang.code))}`];
  for (let i = 0; i < keys.keys.length; i++) {
    const valueJson = lang.json[i];
    if (valueJson === undefined) continue;
    const nameJson = names[i]!;
    lines.push(`  ${nameJson}: ${valueJson}`);
    const description = keys.contextOf[i];
    const args = lang.arguments ? (lang.arguments[i] ?? NO_ARGUMENTS) : argumentsOf(lang.values[i]!);
    if (work) work.steps += 1 + args.length;
    if (!description && args.length === 0) continue;
    // Written by hand (it is on the publish hot path) from the already-quoted name.
    const parts: string[] = [];
    if (description) parts.push(`"description":${JSON.stringify(description)}`);
    if (args.length > 0) parts.push(`"placeholders":${arbPlaceholdersJson(args)}`);
    lines.push(`  "@${nameJson.slice(1)}: {${parts.join(",")}}`);
  }
  return `{\n${lines.join(",\n")}\n}\n`;
}

async function read(content: string): Promise<FileLanguage> {
  const data = await parseJsonObject(content, "ARB (a JSON document)");
  const entries: Entry[] = [];
  let locale: string | undefined;
  for (const k in data) {
    if (!Object.hasOwn(data, k)) continue;
    const v = data[k];
    if (k.startsWith("@@")) {
      if (k === "@@locale") {
        if (typeof v !== "string") throw invalid(`"@@locale" must be a string`);
        locale = v;
      }
      continue;
    }
    if (k.startsWith("@")) {
      if (!isPlainObject(v)) throw invalid(`the metadata "${k}" must be an object, not ${describe(v)}`);
      if (v.description !== undefined && typeof v.description !== "string") throw invalid(`"${k}.description" must be a string`);
      continue;
    }
    if (typeof v !== "string") throw invalid(`the message "${k}" must be a string, not ${describe(v)}`);
    if (entries.length >= IMPORT_LIMITS.entries) throw tooManyEntries();
    const meta = data[`@${k}`];
    const description = isPlainObject(meta) && typeof meta.description === "string" ? meta.description : undefined;
    entries.push(description === undefined ? { key: k, value: v } : { key: k, value: v, description });
  }
  return locale === undefined ? { entries } : { entries, locale };
}

export const arb = {
  name: "arb",
  label: "ARB (Flutter)",
  extensions: ["arb"],
  // An ARB file is a JSON document (docs/product.md §3).
  contentType: "application/json; charset=utf-8",
  bundle: true,
  read: async (content) => ({ languages: [await read(content)] }),
  write,
} as const satisfies FileFormat<"arb">;
