import type { FileFormat, WriteInput } from "./format.ts";
import { flatten, FlatEntries, parseJsonObject } from "./read.ts";

/**
 * JSON (docs/formats.md "JSON"; docs/interface.md §2.6, docs/product.md §3): a bundle format.
 *
 * Written as a flat object mapping each key, exactly as authored, to its string, sorted by key,
 * one entry per line. Written by hand rather than with JSON.stringify(object), because an object
 * puts integer-like keys ("10", "2") first and would break the sort order; the keys and values
 * come already quoted (texts.ts), so a publish quotes each once for every format.
 *
 * Read as an object of strings; nested objects are flattened with "." and a key produced twice is
 * an error.
 */
function write({ keys, languages }: WriteInput): string {
  const lang = languages[0]!;
  const lines: string[] = [];
  for (let i = 0; i < keys.keys.length; i++) {
    const valueJson = lang.json[i];
    if (valueJson !== undefined) lines.push(`  ${keys.json[i]!}: ${valueJson}`);
  }
  return lines.length === 0 ? "{}\n" : `{\n${lines.join(",\n")}\n}\n`;
}

export const json = {
  name: "json",
  label: "JSON (flat key → string)",
  extensions: ["json"],
  contentType: "application/json; charset=utf-8",
  bundle: true,
  async read(content) {
    const out = new FlatEntries();
    flatten(await parseJsonObject(content, "JSON"), "", 1, out);
    return { languages: [{ entries: out.list() }] };
  },
  write,
} as const satisfies FileFormat<"json">;
