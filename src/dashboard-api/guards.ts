import { forbidden, HttpError, tooLarge } from "../common/errors.ts";
import { IMPORT_QUEUE_MAX, IMPORTS_BUSY_MESSAGE, IMPORTS_PER_CALLER_BUSY_MESSAGE, IMPORTS_PER_CALLER_MAX } from "../authoring/limits.ts";
import { FairPlaces } from "../common/fair-places.ts";
import { pathOf } from "../common/http.ts";
import { GLOSSARY_CSV_MAX_BYTES } from "../glossary/limits.ts";
import { MEMORY_IMPORT_MAX_BYTES } from "../memory/limits.ts";
import { SCREENSHOT_MAX_BYTES, SCREENSHOT_TYPES } from "../screenshots/limits.ts";

/**
 * What every request to the dashboard API passes before a route sees it (docs/dashboard-api.md
 * "Conventions", docs/deploy.md "Security notes"):
 *
 * - Bodies are JSON only, but for the few routes that take a file (FILE_BODIES: a TMX memory, a
 *   glossary's CSV, a screenshot), which take exactly the content types they declare: anything
 *   else is a 415. A cross-site page can send a form, multipart or text body without asking (an
 *   HTML form, a no-cors fetch), but never `application/json` nor any type a file route takes
 *   (none of them is one a browser sends across sites without a preflight); so a drive-by form
 *   cannot sign anyone in, run the first-run setup or change anything. A file route's body is
 *   judged like an import's: who may send it is settled from the headers and the path before a
 *   byte is read, and it is read only up to its route's limit.
 * - Bodies are read here, by this parser instead of Elysia's, and never past a limit: sign-in
 *   bodies are tiny, every other body is small, and only the import route takes a large one. The
 *   limit is checked against Content-Length before anything is read, and against the bytes as they
 *   arrive when there is none (a chunked body is cut at the limit).
 * - Who may send it is settled before a byte of it is read, from the headers and the path alone
 *   (`admit`): an import body only from a caller that may import into that very project (scope
 *   `write`, the token's own project), any other body past the sign-in size only from an
 *   authenticated caller. A `read` token or another project's token makes the server read nothing.
 * - Large import bodies are read and parsed at most IMPORT_BODIES_AT_ONCE at a time; more are a
 *   429 before they are read, so parallel uploads cannot grow the server's memory without bound.
 * - JSON that nests deeper than BODY_MAX_DEPTH is a 400 before it is parsed: no route takes more
 *   than a few levels, and deep values are what overflowed the stack in validation.
 * - A cookie-authenticated change (and signing in, and the setup) from another site is a 403: its
 *   `Origin`, when there is one, must be this server's (refuseCrossSite).
 */

/** Where the dashboard API is served (docs/product.md §2). */
export const DASHBOARD_API_PREFIX = "/dashboard/api";

/** Signing in and the first-run setup: an email, a name and a password. */
export const SIGN_IN_BODY_MAX_BYTES = 16 * 1024;
/**
 * Every other route but import. The largest body is a translation value of 100,000 characters
 * (docs/decisions.md "Translations"), at most 600 KB written as JSON.
 */
export const BODY_MAX_BYTES = 1024 * 1024;
/** The import route, once the caller is authenticated: its file travels as a JSON string. */
export const IMPORT_BODY_MAX_BYTES = 16 * 1024 * 1024;
/** No route's body nests deeper than 3 levels; this leaves room and stops stack-deep input. */
export const BODY_MAX_DEPTH = 32;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}

/**
 * What a route's body may be: its size limit; whether it is a sign-in's (read from anyone); the
 * right the caller must hold in the path's project before a byte is read (an import's, a file
 * route's), or null; and for a file route the content types it takes (null: JSON).
 */
export type Limit = { max: number; signIn: boolean; import: boolean; access: "import" | "keys" | null; types: readonly string[] | null };

/**
 * The routes whose body is a file, not JSON (docs/dashboard-api.md "Conventions"): the content
 * types each takes, its size limit, and the right checked before its body is read.
 */
export const FILE_BODIES: { path: RegExp; types: readonly string[]; max: number; access: "import" | "keys" }[] = [
  { path: /^\/projects\/[^/]+\/tm\/import$/, types: ["application/xml", "text/xml", "application/x-tmx+xml"], max: MEMORY_IMPORT_MAX_BYTES, access: "import" },
  { path: /^\/projects\/[^/]+\/glossary\.csv$/, types: ["text/csv"], max: GLOSSARY_CSV_MAX_BYTES, access: "keys" },
  { path: /^\/projects\/[^/]+\/screenshots$/, types: SCREENSHOT_TYPES, max: SCREENSHOT_MAX_BYTES, access: "keys" },
];

/**
 * Import bodies above BODY_MAX_BYTES (or of unknown length) being read or parsed at once, per
 * server; more are a 429 with Retry-After before they are read. As many as the import queue
 * behind takes (IMPORT_QUEUE_MAX): bodies beyond it would only wait there, holding their memory.
 * One caller holds at most IMPORTS_PER_CALLER_MAX of them, as in the queue, so a few slow bodies
 * from one token cannot keep every other caller's import out (docs/publishing.md §6 "Limits").
 */
export const IMPORT_BODIES_AT_ONCE = IMPORT_QUEUE_MAX;

/** The body limit of a path under the dashboard API. */
export function bodyLimitFor(pathname: string, prefix: string): Limit {
  const path = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : pathname;
  if (path === "/login" || path === "/setup") return { max: SIGN_IN_BODY_MAX_BYTES, signIn: true, import: false, access: null, types: null };
  if (/^\/projects\/[^/]+\/import$/.test(path)) return { max: IMPORT_BODY_MAX_BYTES, signIn: false, import: true, access: "import", types: null };
  const file = FILE_BODIES.find((f) => f.path.test(path));
  if (file) return { max: file.max, signIn: false, import: false, access: file.access, types: file.types };
  return { max: BODY_MAX_BYTES, signIn: false, import: false, access: null, types: null };
}

function declaredLength(request: Request): number | null {
  const header = request.headers.get("content-length");
  if (header === null) return null;
  const n = Number(header);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

const tooLargeFor = (max: number) => tooLarge(`request body is larger than ${megabytes(max)}, the limit of this route`);

/** Reads at most `max` bytes of the body; more is a 413, and the rest is never read. */
async function readAtMost(request: Request, max: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      reader.cancel().catch(() => {});
      throw tooLargeFor(max);
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * True when JSON text nests objects and arrays deeper than `limit`. One pass over the text;
 * strings are skipped with indexOf, so a large import's content costs little.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // skip to the closing quote: one not preceded by an odd run of backslashes
      for (;;) {
        const end = text.indexOf('"', i + 1);
        if (end < 0) return false; // unterminated: JSON.parse will say so
        let slashes = 0;
        for (let j = end - 1; text.charCodeAt(j) === 0x5c; j--) slashes++;
        i = end;
        if (slashes % 2 === 0) break;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

export interface BodyParserOptions {
  prefix: string;
  /**
   * Throws the 401/403/404 of a caller who may not send this route a body, judged from the
   * request's headers and path alone (the dashboard API's authentication, and for the import route
   * its access and project); called before the body is read. For an import it returns who sends
   * it (a user's or token's key), whose share of the places large bodies are counted against.
   */
  admit(request: Request, limit: Limit): string | void;
  /**
   * Parses a large import body on another thread (parseJsonBody there): JSON.parse of a 10 MB file
   * escaped into a string takes about 100 ms, which this thread must not be held for
   * (docs/publishing.md §6 "Not holding up other requests").
   */
  parseLarge?(bytes: Uint8Array): Promise<unknown>;
}

/** Import bodies from this size on are parsed by `parseLarge` when there is one. */
export const PARSE_OFF_THREAD_FROM_BYTES = 1024 * 1024;

/**
 * Where in a parsed body a string (a value or a member name) is not Unicode, or null: a `\ud800`
 * escape decodes to a lone surrogate, which SQLite stores as U+FFFD while the reply and the
 * webhook event still carry the original, so the stored text would silently differ from both.
 */
export function loneSurrogatePath(value: unknown, path = ""): string | null {
  if (typeof value === "string") return value.isWellFormed() ? null : path || "the body";
  if (typeof value !== "object" || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = loneSurrogatePath(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  for (const [name, member] of Object.entries(value)) {
    const at = path ? `${path}.${name}` : name;
    if (!name.isWellFormed()) return `the name of ${JSON.stringify(at.slice(0, 80))}`;
    const found = loneSurrogatePath(member, at);
    if (found) return found;
  }
  return null;
}

/**
 * A body's bytes as JSON: valid UTF-8, nesting within BODY_MAX_DEPTH, valid JSON, no text that is
 * not Unicode; else a 400.
 */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new HttpError(400, "request body is not valid UTF-8");
  }
  if (nestsDeeperThan(text, BODY_MAX_DEPTH)) throw new HttpError(400, `request body nests deeper than ${BODY_MAX_DEPTH} levels`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpError(400, "request body is not valid JSON");
  }
  const at = loneSurrogatePath(parsed);
  if (at) throw new HttpError(400, `request body is not valid Unicode: ${at.length > 100 ? `${at.slice(0, 100)}…` : at} holds a lone UTF-16 surrogate (a \\ud800 to \\udfff escape without its pair)`);
  return parsed;
}

/**
 * The dashboard API's one body parser (Elysia's `onParse`, which runs before any route's own
 * hooks). Returns the parsed body, or undefined for a request without one.
 */
export function jsonBodyParser(options: BodyParserOptions) {
  const largeBodies = new FairPlaces(IMPORT_BODIES_AT_ONCE, IMPORTS_PER_CALLER_MAX);
  return async ({ request, contentType }: { request: Request; contentType: string }): Promise<unknown> => {
    if (SAFE_METHODS.has(request.method)) return undefined;
    const limit = bodyLimitFor(pathOf(request.url), options.prefix);
    const type = contentType.trim().toLowerCase();
    if (limit.types) return readFile(request, limit, type, options);
    if (type !== "" && type !== "application/json") {
      throw new HttpError(415, `request body must be JSON (Content-Type: application/json), not ${type.slice(0, 100)}`);
    }
    const declared = declaredLength(request);
    if (declared !== null && declared > limit.max) throw tooLargeFor(limit.max);
    // Who is sending, and whether they may use the route, before a byte is read: an import always,
    // any other body unless it is declared no larger than a sign-in's (cheap to read either way).
    let sender: string | void = undefined;
    if (!limit.signIn && (limit.access !== null || declared === null || declared > SIGN_IN_BODY_MAX_BYTES)) sender = options.admit(request, limit);
    const large = limit.import && (declared === null || declared > BODY_MAX_BYTES);
    const holder = sender ?? "";
    if (large) {
      const refusal = largeBodies.take(holder);
      if (refusal) throw new HttpError(429, refusal === "full" ? IMPORTS_BUSY_MESSAGE : IMPORTS_PER_CALLER_BUSY_MESSAGE, { "retry-after": "5" });
    }
    try {
      const bytes = await readAtMost(request, limit.max);
      if (bytes.byteLength === 0) return undefined;
      if (type === "") throw new HttpError(415, "request body must be JSON (Content-Type: application/json)");
      if (limit.import && options.parseLarge && bytes.byteLength >= PARSE_OFF_THREAD_FROM_BYTES) return await options.parseLarge(bytes);
      return parseJsonBody(bytes);
    } finally {
      if (large) largeBodies.release(holder);
    }
  };
}

/**
 * A file route's body (FILE_BODIES): the caller admitted first (who may not send it learns nothing
 * of what the route takes); one of the content types the route takes (its parameters, `;
 * charset=utf-8`, aside), else 415; at most the route's limit (413), judged before a byte is read.
 * The bytes as sent; the route reads them.
 */
async function readFile(request: Request, limit: Limit, type: string, options: BodyParserOptions): Promise<Uint8Array> {
  options.admit(request, limit);
  const bare = type.split(";")[0]!.trim();
  if (!limit.types!.includes(bare)) {
    throw new HttpError(415, `request body must be ${limit.types!.join(", ")} (Content-Type), not ${bare.slice(0, 100) || "untyped"}`);
  }
  const declared = declaredLength(request);
  if (declared !== null && declared > limit.max) throw tooLargeFor(limit.max);
  return readAtMost(request, limit.max);
}

/**
 * Refuses a request a browser sent from another site (docs/deploy.md "Security notes"). With a
 * public URL set (PHRASEBOOK_PUBLIC_URL), `Origin` must be that URL's origin and nothing else: the
 * `Host` header is whatever name the browser used, and a DNS-rebinding page (its own name pointed
 * at this server) sends an Origin equal to it. Only with no public URL set, where the server knows
 * no name of its own, does an Origin naming the host the request was sent to pass. A request
 * without `Origin` is not from a browser's cross-site form or fetch (browsers send it with every
 * POST, PUT, PATCH and DELETE), unless `Sec-Fetch-Site` says it is.
 */
export function refuseCrossSite(request: Request, settings: { publicUrl: string; publicUrlSet: boolean }): void {
  const origin = request.headers.get("origin");
  if (origin === null) {
    if (request.headers.get("sec-fetch-site") === "cross-site") throw forbidden("cross-site request refused");
    return;
  }
  if (origin === new URL(settings.publicUrl).origin) return;
  const refused = forbidden(`cross-site request refused: Origin ${origin.slice(0, 200)} is not this server's`);
  if (settings.publicUrlSet) throw refused;
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    // "null" (a sandboxed frame, a redirect across sites) or garbage
  }
  if (host && host === new URL(request.url).host) return;
  throw refused;
}
