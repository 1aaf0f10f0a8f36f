import type { FileFormat, WriteInput } from "./format.ts";
import { flatten, FlatEntries, parseJsonObject } from "./read.ts";
import { addJsonString, textOf, type TextSink } from "./texts.ts";

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
function writeTo({ keys, languages }: WriteInput, out: TextSink): void {
  const lang = languages[0]!;
  // What comes before each value after the first, made once per key set (docs/formats.md "Speed").
  const entry = keys.own("json", () => keys.json.map((k) => `,\n  ${k}: `));
  let first = true;
  for (let i = 0; i < keys.keys.length; i++) {
    const value = lang.values[i];
    if (value === undefined) continue;
    if (first) out.add(`{\n  ${keys.json[i]!}: `);
    else out.add(entry[i]!);
    addJsonString(out, value);
    first = false;
  }
  out.add(first ? "{}\n" : "\n}\n");
}

export const json = {
  name: "json",
  label: "JSON (flat key → string)",
  extensions: ["json"],
  contentType: "application/json; charset=utf-8",
  bundle: true,
  async read(content, work) {
    const out = new FlatEntries();
    flatten(await parseJsonObject(content, "JSON", work), "", 1, out);
    return { languages: [{ entries: out.list() }] };
  },
  write: (input) => textOf((out) => writeTo(input, out)),
  writeTo,
} as const satisfies FileFormat<"json">;
