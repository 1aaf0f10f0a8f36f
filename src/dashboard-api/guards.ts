import { forbidden, HttpError, tooLarge } from "../common/errors.ts";
import { IMPORT_QUEUE_MAX, IMPORTS_BUSY_MESSAGE, IMPORTS_PER_CALLER_BUSY_MESSAGE, IMPORTS_PER_CALLER_MAX } from "../authoring/limits.ts";
import { FairPlaces } from "../common/fair-places.ts";
import { pathOf, readAtMost } from "../common/http.ts";

/**
 * What every request to the dashboard API passes before a route sees it (docs/dashboard-api.md
 * "Conventions", docs/deploy.md "Security notes", docs/architecture.md "Bodies"). One rule for every
 * kind of body, here and in access.ts, for every POST, PUT, PATCH and DELETE:
 *
 * 1. **Its content type is one its route takes**, else 415 before a byte is read. Every route takes
 *    JSON (`application/json`); a route that takes another kind of body (an image, an XML file)
 *    declares its content types (`RawBodyRoute`) and takes only those. No route may declare a type
 *    an HTML form or a no-cors fetch can send from another site without asking (`text/plain`, a
 *    form, multipart): those stay 415 everywhere. So a drive-by form cannot sign anyone in, run the
 *    first-run setup or change anything, whatever else holds.
 * 2. **Who sends it is settled from the headers and the path alone** (`admit`, access.ts) before the
 *    body is read, for every body but a small JSON one: with a session cookie, an `Origin` of this
 *    server (or none) and the session's `X-CSRF-Token` (else 403), whatever the content type; with
 *    `Authorization: Bearer`, a valid token and no CSRF header (no browser adds a token by itself);
 *    and for an import or a declared body, the right to send that route a body in that project. A
 *    body other than JSON is always read after this; a small JSON body may be read first (it is
 *    cheap) and the same checks refuse the request before any route runs.
 * 3. **It is read here, never past its limit**: sign-in bodies are tiny, every other JSON body is
 *    small, only the import takes a large one, a declared body its own `maxBytes`. The limit is
 *    checked against Content-Length before anything is read, and against the bytes as they arrive
 *    when there is none (a chunked body is cut at the limit).
 * 4. Large import bodies are read and parsed at most IMPORT_BODIES_AT_ONCE at a time; more are a 429
 *    before they are read, so parallel uploads cannot grow the server's memory without bound.
 * 5. JSON that nests deeper than BODY_MAX_DEPTH is a 400 before it is parsed: no route takes more
 *    than a few levels, and deep values are what overflowed the stack in validation.
 *
 * Signing in and the setup have no session, so no CSRF token: what keeps another site's page from
 * using them is rule 1 (JSON only) and their `Origin` (refuseCrossSite).
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

/**
 * The window of the write budget (access.ts): PHRASEBOOK_WRITE_RATE_LIMIT changes per person or
 * token in it, whose bodies (an import's aside) may hold WRITE_BYTES_PER_WRITE a change on average,
 * and at least one largest body (docs/deploy.md "Security notes"). A translator's 907 saves of
 * 100,000-character values in 10 s grew the database by 180 MB; at the default of 300 a minute,
 * saves may bring at most 9.4 MB a minute.
 */
export const WRITE_WINDOW_SECONDS = 60;
export const WRITE_BYTES_PER_WRITE = 32 * 1024;

/** The bytes of bodies one caller's writes may hold in a window, for `writes` writes. */
export function writeBytesBudget(writes: number): number {
  return Math.max(writes * WRITE_BYTES_PER_WRITE, BODY_MAX_BYTES);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function megabytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}

/** What the parser found for a request: its body limit, and whether it is a sign-in's, an import's or a declared kind's. */
export type Limit = { max: number; signIn: boolean; import: boolean; raw?: RawBodyMatch };

/**
 * A route that takes a body other than JSON (docs/architecture.md "Adding a binary upload"): the
 * method and path as the route declares them (`/projects/:pid/screenshots`), the content types it
 * takes (media types without parameters), its size limit, and the access a caller needs to send it
 * (checked before the body is read: `A` is access.ts's `Access`).
 */
export interface RawBodyRoute<A extends string = string> {
  method: "POST" | "PUT" | "PATCH";
  path: string;
  types: readonly string[];
  maxBytes: number;
  access: A;
}

/** A declared route matched by a request, with the path's parameters (`pid`). */
export interface RawBodyMatch<A extends string = string> {
  route: RawBodyRoute<A>;
  params: Record<string, string>;
}

/** A body other than JSON, as its route receives it. */
export interface RawBody {
  type: string;
  bytes: Uint8Array;
}

/**
 * Content types a page on another site can send without a CORS preflight (the Fetch standard's
 * "CORS-safelisted request-header" `Content-Type` values): no route may take them (rule 1).
 */
export const CROSS_SITE_SENDABLE_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data", "text/plain"] as const;

/** The media type of a Content-Type value: lower case, without its parameters. */
export function mediaType(contentType: string): string {
  return contentType.split(";")[0]!.trim().toLowerCase();
}

/** Matches requests against the declared routes; refuses, when built, a declaration that breaks rule 1. */
export function rawBodyMatcher<A extends string>(routes: readonly RawBodyRoute<A>[]): (method: string, path: string) => RawBodyMatch<A> | null {
  const compiled = routes.map((route) => {
    for (const type of route.types) {
      if (type !== mediaType(type) || type === "application/json" || (CROSS_SITE_SENDABLE_TYPES as readonly string[]).includes(type)) {
        throw new Error(`${route.method} ${route.path} cannot declare the body type ${JSON.stringify(type)}: JSON is every route's, and a form's types are never taken (dashboard-api/guards.ts rule 1)`);
      }
    }
    const names: string[] = [];
    const source = route.path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\/:([A-Za-z]\w*)/g, (_, name: string) => (names.push(name), "/([^/]+)"));
    return { route, names, pattern: new RegExp(`^${source}$`) };
  });
  return (method, path) => {
    for (const c of compiled) {
      if (c.route.method !== method) continue;
      const m = c.pattern.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      c.names.forEach((name, i) => {
        try {
          params[name] = decodeURIComponent(m[i + 1]!);
        } catch {
          params[name] = m[i + 1]!;
        }
      });
      return { route: c.route, params };
    }
    return null;
  };
}

/**
 * Import bodies above BODY_MAX_BYTES (or of unknown length) being read or parsed at once, per
 * server; more are a 429 with Retry-After before they are read. As many as the import queue
 * behind takes (IMPORT_QUEUE_MAX): bodies beyond it would only wait there, holding their memory.
 * One caller holds at most IMPORTS_PER_CALLER_MAX of them, as in the queue, so a few slow bodies
 * from one token cannot keep every other caller's import out (docs/publishing.md §6 "Limits").
 */
export const IMPORT_BODIES_AT_ONCE = IMPORT_QUEUE_MAX;

/** The body limit of a path under the dashboard API: the import's, or every other route's. */
export function bodyLimitFor(pathname: string, prefix: string): Limit {
  const path = pathname.startsWith(prefix) ? pathname.slice(prefix.length) : pathname;
  // An app build's base files are sent like an import's (docs/delivery.md "App builds").
  if (/^\/projects\/[^/]+\/(?:import|builds)$/.test(path)) return { max: IMPORT_BODY_MAX_BYTES, signIn: false, import: true };
  return { max: BODY_MAX_BYTES, signIn: false, import: false };
}

/** A sign-in's limit: the routes of a parser made with `signIn: true` (signing in, the setup). */
const SIGN_IN_LIMIT: Limit = { max: SIGN_IN_BODY_MAX_BYTES, signIn: true, import: false };

function declaredLength(request: Request): number | null {
  const header = request.headers.get("content-length");
  if (header === null) return null;
  const n = Number(header);
  return Number.isSafeInteger(n) && n >= 0 ? n : null;
}

const tooLargeFor = (max: number) => tooLarge(`request body is larger than ${megabytes(max)}, the limit of this route`);


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
   * The parser of the routes that need no caller (signing in, the first-run setup): every body is
   * a sign-in's, JSON only, small, and read without asking who sends it.
   */
  signIn?: boolean;
  /** The routes that take a body other than JSON (rule 1); none unless given. */
  rawBodies?: readonly RawBodyRoute[];
  /**
   * Throws the 401/403/404 of a caller who may not send this route a body, judged from the
   * request's headers and path alone (the dashboard API's authentication, its CSRF check, and for
   * the import route and a declared body the access in the project the path names); called before
   * the body is read. For an import it returns who sends it (a user's or token's key), whose share
   * of the places large bodies are counted against.
   */
  admit(request: Request, limit: Limit): string | void;
  /**
   * Parses a large import body on another thread (parseJsonBody there): JSON.parse of a 10 MB file
   * escaped into a string takes about 100 ms, which this thread must not be held for
   * (docs/publishing.md §6 "Not holding up other requests").
   */
  parseLarge?(bytes: Uint8Array): Promise<unknown>;
  /** Told the size of every body read but an import's (the write budget counts them, access.ts). */
  measured?(request: Request, bytes: number): void;
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

/** The 415 of a body its route does not take, naming what it takes. */
function unsupported(takes: readonly string[], got: string): HttpError {
  const what = takes.length === 1 && takes[0] === "application/json" ? "JSON (Content-Type: application/json)" : `one of ${takes.join(", ")}`;
  return new HttpError(415, `request body must be ${what}${got ? `, not ${got.slice(0, 100)}` : ""}`);
}

/**
 * The dashboard API's one body parser (Elysia's `onParse`, which runs before any route's own
 * hooks), rules 1 to 5 above. Returns the parsed JSON, a RawBody for a declared route, or undefined
 * for a request without a body.
 */
export function jsonBodyParser(options: BodyParserOptions) {
  const largeBodies = new FairPlaces(IMPORT_BODIES_AT_ONCE, IMPORTS_PER_CALLER_MAX);
  const declared = rawBodyMatcher(options.rawBodies ?? []);
  return async ({ request, contentType }: { request: Request; contentType: string }): Promise<unknown> => {
    if (SAFE_METHODS.has(request.method)) return undefined;
    const pathname = pathOf(request.url);
    const raw = options.signIn ? null : declared(request.method, pathname.startsWith(options.prefix) ? pathname.slice(options.prefix.length) : pathname);
    const type = contentType.trim().toLowerCase();
    const length = declaredLength(request);
    if (raw) return readRawBody(request, raw, mediaType(type), length, options);
    const limit = options.signIn ? SIGN_IN_LIMIT : bodyLimitFor(pathname, options.prefix);
    if (type !== "" && type !== "application/json") throw unsupported(["application/json"], type);
    // Who is sending, and whether they may use the route, before a byte is read: an import always
    // (first: a caller who may not import is told so, whatever the size), any other body unless it
    // is declared no larger than a sign-in's (cheap to read either way).
    let sender: string | void = undefined;
    if (limit.import) sender = options.admit(request, limit);
    if (length !== null && length > limit.max) throw tooLargeFor(limit.max);
    if (!limit.signIn && !limit.import && (length === null || length > SIGN_IN_BODY_MAX_BYTES)) sender = options.admit(request, limit);
    const large = limit.import && (length === null || length > BODY_MAX_BYTES);
    const holder = sender ?? "";
    if (large) {
      const refusal = largeBodies.take(holder);
      if (refusal) throw new HttpError(429, refusal === "full" ? IMPORTS_BUSY_MESSAGE : IMPORTS_PER_CALLER_BUSY_MESSAGE, { "retry-after": "5" });
    }
    try {
      const bytes = await readAtMost(request.body, limit.max, () => tooLargeFor(limit.max));
      if (!limit.import) options.measured?.(request, bytes.byteLength);
      if (bytes.byteLength === 0) return undefined;
      if (type === "") throw unsupported(["application/json"], "");
      if (limit.import && options.parseLarge && bytes.byteLength >= PARSE_OFF_THREAD_FROM_BYTES) return await options.parseLarge(bytes);
      return parseJsonBody(bytes);
    } finally {
      if (large) largeBodies.release(holder);
    }
  };
}

/**
 * A declared route's body (rules 1 to 3): its caller admitted first (as every route authenticates
 * before it validates, a caller who may not send it learns nothing of what it takes: 401 and 403
 * before 415), then its types only, at most its limit.
 */
async function readRawBody(request: Request, raw: RawBodyMatch, type: string, length: number | null, options: BodyParserOptions): Promise<RawBody> {
  const { route } = raw;
  options.admit(request, { max: route.maxBytes, signIn: false, import: false, raw });
  if (!route.types.includes(type)) throw unsupported(route.types, type);
  if (length !== null && length > route.maxBytes) throw tooLargeFor(route.maxBytes);
  const bytes = await readAtMost(request.body, route.maxBytes, () => tooLargeFor(route.maxBytes));
  options.measured?.(request, bytes.byteLength);
  if (bytes.byteLength === 0) throw new HttpError(400, `request body is empty: this route takes ${route.types.join(", ")}`);
  return { type, bytes };
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
