import { parseDocument } from "yaml";
import { badRequest } from "../common/errors.ts";

/**
 * Reading existing translation files for `POST /projects/:pid/import` (docs/product.md §4). Each
 * parser returns flat (key, value) pairs in file order or throws a 400 that says what is wrong and
 * where.
 * Nested objects are flattened with "." (`{"a": {"b": "x"}}` is the key `a.b`), the convention of
 * i18next and Rails files; every value must be a string.
 */
export type ImportFormat = "json" | "yaml" | "arb";

export interface ImportEntry {
  key: string;
  value: string;
  description?: string; // ARB `@name.description`
}

export interface ParsedImport {
  entries: ImportEntry[];
  locale?: string; // ARB `@@locale`
}

const invalid = (why: string) => badRequest(`invalid field "content": ${why}`);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

function flatten(value: Record<string, unknown>, prefix: string, out: Map<string, string>): void {
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "string") {
      if (out.has(key)) throw invalid(`key "${key}" appears twice once nested objects are joined with "."`);
      out.set(key, v);
    } else if (isPlainObject(v)) {
      flatten(v, key, out);
    } else {
      throw invalid(`the value of "${key}" must be a string, not ${describe(v)}`);
    }
  }
}

function toEntries(map: Map<string, string>): ImportEntry[] {
  return [...map].map(([key, value]) => ({ key, value }));
}

function parseJsonObject(content: string, what: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch (err) {
    throw invalid(`not valid ${what}: ${(err as Error).message}`);
  }
  if (!isPlainObject(data)) throw invalid(`${what} must hold an object at the top, not ${describe(data)}`);
  return data;
}

export function parseJson(content: string): ParsedImport {
  const out = new Map<string, string>();
  flatten(parseJsonObject(content, "JSON"), "", out);
  return { entries: toEntries(out) };
}

export function parseYaml(content: string): ParsedImport {
  // The failsafe schema reads every scalar as the text written, so `yes`, `1.0` or `null` stay
  // those strings in YAML 1.1 and 1.2 alike, instead of turning into booleans, numbers or nothing.
  const doc = parseDocument(content, { schema: "failsafe", uniqueKeys: true, prettyErrors: true });
  if (doc.errors.length > 0) throw invalid(`not valid YAML: ${doc.errors[0]!.message.split("\n")[0]}`);
  const data: unknown = doc.toJS({ maxAliasCount: 100 });
  if (data === null || data === undefined || data === "") return { entries: [] };
  if (!isPlainObject(data)) throw invalid(`YAML must hold a mapping at the top, not ${describe(data)}`);
  const out = new Map<string, string>();
  flatten(data, "", out);
  return { entries: toEntries(out) };
}

/**
 * ARB: `@@name` entries are file attributes (`@@locale` is checked by the caller), `@name` is the
 * metadata of message `name` (its `description` becomes the key's context), the rest are messages.
 */
export function parseArb(content: string): ParsedImport {
  const data = parseJsonObject(content, "ARB (a JSON document)");
  const entries: ImportEntry[] = [];
  let locale: string | undefined;
  for (const [k, v] of Object.entries(data)) {
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
    const meta = data[`@${k}`];
    const description = isPlainObject(meta) && typeof meta.description === "string" ? meta.description : undefined;
    entries.push(description === undefined ? { key: k, value: v } : { key: k, value: v, description });
  }
  return { entries, locale };
}

export function parseImport(format: ImportFormat, content: string): ParsedImport {
  switch (format) {
    case "json":
      return parseJson(content);
    case "yaml":
      return parseYaml(content);
    case "arb":
      return parseArb(content);
  }
}
