import { HttpError } from "../common/errors.ts";
import { clipped, loneSurrogateAt, nameForbidden, xmlForbiddenAt } from "../common/text.ts";
import type { WorkCounter } from "../common/work.ts";
import type { Entry } from "./format.ts";
import { IMPORT_FILE_MAX_BYTES } from "./limits.ts";

/**
 * What the formats' `read` functions share (docs/formats.md "Reading"): the bounds of a file, the
 * error that says what is wrong and where, the walk that flattens nested objects with "."
 * (`{"a": {"b": "x"}}` is the key `a.b`, the convention of i18next and Rails files), and reading a
 * JSON document with the position of its first error.
 *
 * Every input is bounded before the work it could make expensive (docs/publishing.md §6 "Limits"):
 * its size before parsing, and while walking it the number of entries, the nesting depth and, in
 * YAML, the aliases and what they expand to.
 */

/** The bounds of one imported file (docs/publishing.md §6 "Limits"). */
export const IMPORT_LIMITS = {
  /** UTF-8 bytes of the file (limits.ts). */
  bytes: IMPORT_FILE_MAX_BYTES,
  /** Messages in one file. */
  entries: 100_000,
  /** Levels of nested objects (a flat file has 1). */
  depth: 32,
  /** Alias nodes (`*name`) in one YAML file, and anchors (`&name`) likewise. */
  yamlAliases: 100,
} as const;

/**
 * What is wrong with the file, and where when that is known (1-based line and column). Over HTTP it
 * is a 400 naming the field "content" (413 for a file over a size limit); the command line prints
 * `file:line:column: reason`.
 */
/** The longest reason an error quotes of the file's text. */
const REASON_MAX_LENGTH = 500;

export class ContentError extends HttpError {
  constructor(
    readonly reason: string,
    readonly line?: number,
    readonly column?: number,
    status = 400,
  ) {
    // A reason quotes keys and values of the file: bounded, so a 10 MB key is never echoed back whole.
    super(status, `invalid field "content": ${line !== undefined ? `line ${line}${column !== undefined ? `, column ${column}` : ""}: ` : ""}${clipped(reason, REASON_MAX_LENGTH)}`);
    this.name = "ContentError";
  }
}

export const invalid = (why: string, line?: number, column?: number) => new ContentError(why, line, column);
export const tooLarge = (why: string) => new ContentError(why, undefined, undefined, 413);

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** What a value is, for an error: "empty", "a list", "an object", "a number". */
export function describe(v: unknown): string {
  if (v === null || v === undefined) return "empty";
  if (Array.isArray(v)) return "a list";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

const formatCount = (n: number) => n.toLocaleString("en-US");

/** The 413 of a file with more entries than one file may hold. */
export function tooManyEntries(): ContentError {
  return tooLarge(`more than ${formatCount(IMPORT_LIMITS.entries)} entries (the limit of one file)`);
}

/** Collects flat entries, refusing a key produced twice (the registry bounds their number: registry.ts `readFileAs`). */
export class FlatEntries {
  private readonly map = new Map<string, string>();

  add(key: string, value: string): void {
    if (this.map.has(key)) throw invalid(`key "${key}" appears twice once nested objects are joined with "."`);
    this.map.set(key, value);
  }

  list(): Entry[] {
    return [...this.map].map(([key, value]) => ({ key, value }));
  }
}

export function tooDeep(key: string): ContentError {
  return invalid(`"${key}" is nested deeper than ${IMPORT_LIMITS.depth} levels`);
}

/** Adds the strings of a (parsed JSON) object to `out`, nested objects joined with ".". */
export function flatten(value: Record<string, unknown>, prefix: string, depth: number, out: FlatEntries): void {
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
 * Where a JSON document first nests deeper than any translation file does (`IMPORT_LIMITS.depth`
 * objects and lists), or -1: one pass, strings passed over with their escapes.
 */
export function jsonTooDeepAt(content: string, work?: WorkCounter): number {
  if (work) work.steps += content.length;
  let depth = 0;
  for (let i = 0; i < content.length; i++) {
    const c = content.charCodeAt(i);
    if (c === 34 /* " */) {
      for (i++; i < content.length && content.charCodeAt(i) !== 34; i++) if (content.charCodeAt(i) === 92 /* \ */) i++;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > IMPORT_LIMITS.depth) return i;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return -1;
}

/**
 * Where a document that JSON.parse refused goes wrong. JSON.parse says what but not where, so only
 * then is it read again by a scanner that reports positions, loaded only then. That scanner
 * recurses per level: a document nested deeper than any translation file (40,000 `[`) is refused
 * for that first, where it goes too deep, and never reaches it.
 */
async function jsonSyntaxError(content: string, what: string, fallback: string, work?: WorkCounter): Promise<ContentError> {
  const deep = jsonTooDeepAt(content, work);
  if (deep >= 0) return invalidAt(content, deep, `not valid ${what}: objects and lists are nested deeper than ${IMPORT_LIMITS.depth} levels`);
  if (work) work.steps += content.length;
  // The ES module build: bundled for Node (the Node client, docs/automation.md), the package's UMD
  // main requires its own files at run time, which a one-file bundle does not have.
  const { printParseErrorCode, visit: visitJson } = await import("jsonc-parser/lib/esm/main.js");
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

/** A JSON document that must hold an object at the top; `what` names the format in errors. */
export async function parseJsonObject(content: string, what: string, work?: WorkCounter): Promise<Record<string, unknown>> {
  let data: unknown;
  if (work) work.steps += content.length;
  try {
    data = JSON.parse(content);
  } catch (err) {
    throw await jsonSyntaxError(content, what, (err as Error).message.replace(/^JSON Parse error: /, ""), work);
  }
  if (!isPlainObject(data)) throw invalid(`${what} must hold an object at the top, not ${describe(data)}`, 1, 1);
  return data;
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

/**
 * Text that is not Unicode: a lone UTF-16 surrogate (a broken UTF-16 file, or a JSON escape such
 * as `\ud800` in the request) has no UTF-8 form, so storing it would change it silently to U+FFFD
 * (docs/formats.md "Bad files"). Refused with its line and column before any format reads the file.
 */
export function checkUnicode(content: string): void {
  const at = loneSurrogateAt(content);
  if (at < 0) return;
  const unit = content.charCodeAt(at).toString(16).toUpperCase();
  throw invalidAt(content, at, `a lone UTF-16 surrogate (U+${unit}) is not a character: the file is not valid Unicode`);
}

/**
 * A character XML 1.0 cannot hold (common/text.ts `xmlForbiddenAt`), anywhere in the file: refused
 * with its line and column, as it could never be written into an Android or XLIFF file
 * (docs/formats.md "XML and bad files").
 */
export function checkXmlCharacters(content: string, work?: WorkCounter): void {
  if (work) work.steps += content.length;
  const at = xmlForbiddenAt(content);
  if (at >= 0) throw invalidAt(content, at, `the file holds ${nameForbidden(content, at)}, which no translation may hold: XML 1.0 forbids it, so no Android or XLIFF file could carry it`);
}

/** The error `why` at the character `index` of `content`, by its 1-based line and column. */
export function invalidAt(content: string, index: number, why: string): ContentError {
  let line = 1;
  let lineStart = 0;
  for (let i = content.indexOf("\n"); i >= 0 && i < index; i = content.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return invalid(why, line, index - lineStart + 1);
}

/** A leading byte order mark, which editors on Windows write and JSON.parse refuses. */
export function withoutBom(content: string): string {
  return content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
}
