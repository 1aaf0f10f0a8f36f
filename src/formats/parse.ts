import { printParseErrorCode, visit as visitJson } from "jsonc-parser";
import { CST, isAlias, isMap, isScalar, isSeq, LineCounter, Parser, parseDocument, type Document, type Node as YamlNode } from "yaml";
import { HttpError } from "../common/errors.ts";

/**
 * Reading translation files for `POST /projects/:pid/import` and for `phrasebook push`, which checks
 * a file before it sends it (docs/product.md §4, §6). Each parser returns flat (key, value) pairs in
 * file order or throws a ContentError that says what is wrong and where.
 * Nested objects are flattened with "." (`{"a": {"b": "x"}}` is the key `a.b`), the convention of
 * i18next and Rails files; every value must be a string.
 *
 * Every input is bounded before the work it could make expensive (docs/publishing.md §6 "Limits"):
 * its size before parsing, and while walking it the number of entries, the nesting depth and, in
 * YAML, the aliases and what they expand to.
 */
export type ImportFormat = "json" | "yaml" | "arb";
export const IMPORT_FORMATS: readonly ImportFormat[] = ["json", "yaml", "arb"];

/** The bounds of one imported file (docs/publishing.md §6 "Limits"). */
export const IMPORT_LIMITS = {
  /** UTF-8 bytes of the file: below the server's 16 MB request limit with room for JSON escaping. */
  bytes: 10 * 1024 * 1024,
  /** Messages in one file. */
  entries: 100_000,
  /** Levels of nested objects (a flat file has 1). */
  depth: 32,
  /** Alias nodes (`*name`) in one YAML file. */
  yamlAliases: 100,
} as const;

export interface ImportEntry {
  key: string;
  value: string;
  description?: string; // ARB `@name.description`
}

export interface ParsedImport {
  entries: ImportEntry[];
  locale?: string; // ARB `@@locale`
}

/**
 * What is wrong with the file, and where when that is known (1-based line and column). Over HTTP it
 * is a 400 naming the field "content" (413 for a file over a size limit); the command line prints
 * `file:line:column: reason`.
 */
export class ContentError extends HttpError {
  constructor(
    readonly reason: string,
    readonly line?: number,
    readonly column?: number,
    status = 400,
  ) {
    super(status, `invalid field "content": ${line !== undefined ? `line ${line}, column ${column}: ` : ""}${reason}`);
    this.name = "ContentError";
  }
}

const invalid = (why: string, line?: number, column?: number) => new ContentError(why, line, column);
const tooLarge = (why: string) => new ContentError(why, undefined, undefined, 413);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null || v === undefined) return "empty";
  if (Array.isArray(v)) return "a list";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

const formatCount = (n: number) => n.toLocaleString("en-US");

/** Collects flat entries, refusing a key produced twice and more entries than the limit. */
class Entries {
  readonly map = new Map<string, string>();

  add(key: string, value: string): void {
    if (this.map.has(key)) throw invalid(`key "${key}" appears twice once nested objects are joined with "."`);
    if (this.map.size >= IMPORT_LIMITS.entries) throw tooLarge(`more than ${formatCount(IMPORT_LIMITS.entries)} entries (the limit of one file)`);
    this.map.set(key, value);
  }

  list(): ImportEntry[] {
    return [...this.map].map(([key, value]) => ({ key, value }));
  }
}

function tooDeep(key: string): ContentError {
  return invalid(`"${key}" is nested deeper than ${IMPORT_LIMITS.depth} levels`);
}

function flatten(value: Record<string, unknown>, prefix: string, depth: number, out: Entries): void {
  for (const k in value) {
    if (!Object.hasOwn(value, k)) continue;
    const v = value[k];
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === "string") out.add(key, v);
    else if (isPlainObject(v)) {
      if (depth >= IMPORT_LIMITS.depth) throw tooDeep(key);
      flatten(v, key, depth + 1, out);
    } else throw invalid(`the value of "${key}" must be a string, not ${describe(v)}`);
  }
}

/** The 1-based line and column of a character offset. */
function lineAndColumn(text: string, offset: number): [number, number] {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return [line, offset - lineStart + 1];
}

const JSON_ERRORS: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "malformed number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected "," or the end of the object or list',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: "expected the end of the file",
  InvalidCommentToken: "comments are not allowed in JSON",
  UnexpectedEndOfComment: "comments are not allowed in JSON",
  UnexpectedEndOfString: "a string is not closed",
  UnexpectedEndOfNumber: "malformed number",
  InvalidUnicode: "malformed \\u escape",
  InvalidEscapeCharacter: "invalid escape in a string",
  InvalidCharacter: "a control character in a string (escape it)",
};

/**
 * Where a document that JSON.parse refused goes wrong. JSON.parse says what but not where, so only
 * then is it read again by a scanner that reports positions.
 */
function jsonSyntaxError(content: string, what: string, fallback: string): ContentError {
  let first: { code: string; offset: number } | undefined;
  visitJson(
    content,
    {
      onError(error, offset) {
        first ??= { code: printParseErrorCode(error), offset };
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  if (!first) return invalid(`not valid ${what}: ${fallback}`);
  const [line, column] = lineAndColumn(content, first.offset);
  return invalid(`not valid ${what}: ${JSON_ERRORS[first.code] ?? first.code}`, line, column);
}

/** A leading byte order mark, which editors on Windows write and JSON.parse refuses. */
function withoutBom(content: string): string {
  return content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
}

function parseJsonObject(content: string, what: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch (err) {
    throw jsonSyntaxError(content, what, (err as Error).message.replace(/^JSON Parse error: /, ""));
  }
  if (!isPlainObject(data)) throw invalid(`${what} must hold an object at the top, not ${describe(data)}`, 1, 1);
  return data;
}

export function parseJson(content: string): ParsedImport {
  const out = new Entries();
  flatten(parseJsonObject(content, "JSON"), "", 1, out);
  return { entries: out.list() };
}

/** Walks a YAML mapping, resolving aliases within the limits. */
class YamlWalker {
  private aliases = 0;
  readonly out = new Entries();

  constructor(
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {}

  private at(node: YamlNode | null | undefined, why: string): ContentError {
    const start = node?.range?.[0];
    if (start === undefined) return invalid(why);
    const { line, col } = this.lines.linePos(start);
    return invalid(why, line, col);
  }

  private resolve(node: unknown): unknown {
    if (!isAlias(node)) return node;
    if (++this.aliases > IMPORT_LIMITS.yamlAliases) throw this.at(node, `more than ${IMPORT_LIMITS.yamlAliases} aliases (the limit of one file)`);
    return node.resolve(this.doc) ?? null;
  }

  walk(map: unknown, prefix: string, depth: number): void {
    if (!isMap(map)) return;
    const seen = new Set<string>();
    for (const pair of map.items) {
      const keyNode = this.resolve(pair.key);
      if (!isScalar(keyNode) || keyNode.value === null || typeof keyNode.value === "object") {
        throw this.at(pair.key as YamlNode, `every key must be text${prefix ? ` (under "${prefix}")` : ""}`);
      }
      const key = prefix ? `${prefix}.${String(keyNode.value)}` : String(keyNode.value);
      if (seen.has(key)) throw this.at(pair.key as YamlNode, `key "${key}" appears twice`);
      seen.add(key);
      const value = this.resolve(pair.value);
      if (isScalar(value) && typeof value.value === "string") this.out.add(key, value.value);
      else if (isMap(value)) {
        if (depth >= IMPORT_LIMITS.depth) throw this.at(value, tooDeep(key).reason);
        this.walk(value, key, depth + 1);
      } else {
        const what = isSeq(value) ? "a list" : isScalar(value) ? describe(value.value) : describe(value);
        throw this.at((value as YamlNode | null) ?? (pair.key as YamlNode), `the value of "${key}" must be a string, not ${what}`);
      }
    }
  }
}

/**
 * Where a quoted scalar that is never closed opens. The parser reports the end of the file (a
 * quoted scalar may span lines, so only the end proves it open), which says nothing in a long file.
 */
function unclosedQuoteAt(content: string): number | undefined {
  let at: number | undefined;
  for (const token of new Parser().parse(content)) {
    if (token.type !== "document") continue;
    CST.visit(token, (item) => {
      for (const t of [item.key, item.value]) {
        if (!t || (t.type !== "double-quoted-scalar" && t.type !== "single-quoted-scalar")) continue;
        const quote = t.type === "double-quoted-scalar" ? '"' : "'";
        const closed = t.source.length > 1 && t.source.endsWith(quote) && (quote === "'" || !/(^|[^\\])(\\\\)*\\"$/.test(t.source));
        if (!closed) at ??= t.offset;
      }
    });
  }
  return at;
}

export function parseYaml(content: string): ParsedImport {
  // The failsafe schema reads every scalar as the text written, so `yes`, `1.0` or `null` stay
  // those strings in YAML 1.1 and 1.2 alike, instead of turning into booleans, numbers or nothing.
  // Duplicate keys are found by the walk (the library's own check compares every pair with every
  // other: 15 s for 50,000 keys).
  const lines = new LineCounter();
  const doc = parseDocument(content, { schema: "failsafe", uniqueKeys: false, prettyErrors: true, lineCounter: lines });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    let start = error.linePos?.[0];
    const opened = error.code === "MISSING_CHAR" && /quote/.test(error.message) ? unclosedQuoteAt(content) : undefined;
    if (opened !== undefined) start = lines.linePos(opened);
    throw invalid(`not valid YAML: ${error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}`, start?.line, start?.col);
  }
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ""))) return { entries: [] };
  if (!isMap(root)) throw invalid(`YAML must hold a mapping at the top, not ${isSeq(root) ? "a list" : "text"}`, 1, 1);
  const walker = new YamlWalker(doc, lines);
  walker.walk(root, "", 1);
  return { entries: walker.out.list() };
}

/**
 * ARB: `@@name` entries are file attributes (`@@locale` is checked by the caller), `@name` is the
 * metadata of message `name` (its `description` becomes the key's context), the rest are messages.
 */
export function parseArb(content: string): ParsedImport {
  const data = parseJsonObject(content, "ARB (a JSON document)");
  const out: ImportEntry[] = [];
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
    if (out.length >= IMPORT_LIMITS.entries) throw tooLarge(`more than ${formatCount(IMPORT_LIMITS.entries)} entries (the limit of one file)`);
    const meta = data[`@${k}`];
    const description = isPlainObject(meta) && typeof meta.description === "string" ? meta.description : undefined;
    out.push(description === undefined ? { key: k, value: v } : { key: k, value: v, description });
  }
  return { entries: out, locale };
}

/** The size bound, checked before anything reads the file. */
export function checkImportSize(content: string): void {
  // A string's UTF-16 length bounds its UTF-8 size from below by a third: only a long one needs counting.
  if (content.length * 3 <= IMPORT_LIMITS.bytes) return;
  const bytes = Buffer.byteLength(content, "utf8");
  if (bytes > IMPORT_LIMITS.bytes) {
    throw tooLarge(`the file is ${(bytes / 1024 / 1024).toFixed(1)} MB; the limit is ${IMPORT_LIMITS.bytes / 1024 / 1024} MB per file`);
  }
}

export function parseImport(format: ImportFormat, rawContent: string): ParsedImport {
  checkImportSize(rawContent);
  const content = withoutBom(rawContent);
  switch (format) {
    case "json":
      return parseJson(content);
    case "yaml":
      return parseYaml(content);
    case "arb":
      return parseArb(content);
  }
}
