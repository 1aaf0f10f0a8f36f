import { compareCodePoints } from "../common/text.ts";
import { ARB_TRANSLATABLE } from "./arb-metadata.ts";
import { arbNames } from "./arb-names.ts";
import type { LanguageTexts } from "./format.ts";
import { isPlainObject } from "./read.ts";
import { formatNamed, type FormatName } from "./registry.ts";
import { keyTexts, languageTexts } from "./texts.ts";

/**
 * A file of any format built from a published release's own files (docs/formats.md "Export"):
 * the JSON of each language (keys as authored, values) and the base language's ARB (the keys'
 * contexts, its `description`s under the names derived from the keys, and the keys marked not to
 * be translated, its `"x-translatable": false`). The dashboard's export
 * reads them from the data directory, `phrasebook pull` from the CDN, and both build the same
 * bytes with the format's `write`.
 */
export interface ReleaseFiles {
  base: string;
  /** Each language's JSON, parsed: key to value. The base language's is among them. */
  json: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** The base language's ARB, parsed. */
  baseArb: Readonly<Record<string, unknown>>;
}

export interface ExportBuilder {
  /** Writes a file of `format` holding `codes` (one language, or several for XLIFF 1.2 and `.xcstrings`). */
  write(format: FormatName, codes: readonly string[], options?: { xliffVersion?: "1.2" | "2.0" }): string;
}

export function exportBuilder(files: ReleaseFiles): ExportBuilder {
  const keys = [...new Set([...files.json.values()].flatMap((v) => Object.keys(v)))].sort(compareCodePoints);
  const names = arbNames(keys);
  const contexts = new Map<string, string | null>();
  const notTranslatable = new Set<string>();
  for (const key of keys) {
    const meta = files.baseArb[`@${names.get(key)}`];
    contexts.set(key, isPlainObject(meta) && typeof meta.description === "string" ? meta.description : null);
    if (isPlainObject(meta) && meta[ARB_TRANSLATABLE] === false) notTranslatable.add(key);
  }
  const texts = keyTexts({ keys, contexts, notTranslatable });
  const byCode = new Map<string, LanguageTexts>();
  const language = (code: string) => {
    let t = byCode.get(code);
    if (!t) {
      const v = files.json.get(code) ?? {};
      byCode.set(code, (t = languageTexts({ code, values: keys.map((k) => (typeof v[k] === "string" ? (v[k] as string) : undefined)) })));
    }
    return t;
  };
  return {
    write(format, codes, options) {
      return formatNamed(format).write({ keys: texts, languages: codes.map(language), source: language(files.base), options, argumentsOf: () => [] });
    },
  };
}
