import { writeSync } from "node:fs";
import { CliError } from "../../common/errors.ts";
import { DOWNLOAD_MAX_BYTES, IMPORT_TIMEOUT_MS, JSON_ANSWER_MAX_BYTES, REDIRECTS_MAX, REQUEST_TIMEOUT_MS, STALL_TIMEOUT_MS } from "./limits.ts";

/**
 * The client's side of HTTP (docs/product.md §6): the dashboard API with the token as a bearer,
 * the public API, and CDN files. Every failure is one line and exit 2: the server could not be
 * reached, or it refused (with its status and its `error`), or what answered is no Phrasebook.
 * Every answer is bounded in size and time (./limits.ts), and downloads go only to the server's
 * origin or the configured CDN's (docs/automation.md "What the client trusts").
 */
export interface Connection {
  /** The public origin, without a trailing slash (`https://i18n.example.com`). */
  server: string;
  token: string;
  /** The CDN's origin when it has a host of its own (`--cdn-url`, docs/automation.md). */
  cdn?: string;
}

export { IMPORT_TIMEOUT_MS };

export interface RequestOptions {
  /** The request body, already JSON; streamed when `onUpload` is given. */
  json?: string;
  /** A file as the body (a screenshot), sent as `type`. */
  file?: { bytes: Uint8Array<ArrayBuffer>; type: string };
  timeoutMs?: number;
  /** Called with the bytes sent so far, as the body is read by the connection. */
  onUpload?: (sent: number, total: number) => void;
}

function describeNetworkError(err: unknown): string {
  const e = err as { code?: string; name?: string; message?: string };
  if (e?.name === "TimeoutError") return "no answer in time";
  const code = e?.code && e.code !== "undefined" ? e.code : undefined;
  return [code, e?.message].filter(Boolean).join(": ") || String(err);
}

function streamOf(bytes: Uint8Array, onUpload: (sent: number, total: number) => void): ReadableStream<Uint8Array> {
  const CHUNK = 256 * 1024;
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.byteLength) {
        controller.close();
        return;
      }
      const end = Math.min(at + CHUNK, bytes.byteLength);
      controller.enqueue(bytes.subarray(at, end));
      at = end;
      onUpload(at, bytes.byteLength);
    },
  });
}

const mb = (bytes: number) => `${bytes / 1024 / 1024} MB`;
/** A URL as it may appear in an error line: short, and never more than a line. */
const shownUrl = (url: string) => JSON.stringify(url.slice(0, 200));

/**
 * Reads an answer's body chunk by chunk, handing each to `sink`, and stops with one line when it
 * passes `max` bytes or sends nothing for STALL_TIMEOUT_MS (docs/automation.md "What the client
 * trusts"): a server cannot make the client hold or wait for more than the bound.
 */
async function readBounded(what: string, url: string, res: Response, max: number, sink: (chunk: Uint8Array) => void): Promise<number> {
  const declared = res.headers.get("content-length");
  if (declared !== null && Number(declared) > max) {
    await res.body?.cancel().catch(() => {});
    throw new CliError(`${what}: the answer from ${shownUrl(url)} is larger than ${mb(max)} (${declared} bytes)`, 2);
  }
  if (!res.body) return 0;
  const reader = res.body.getReader();
  let total = 0;
  try {
    for (;;) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new CliError(`${what}: the answer from ${shownUrl(url)} stalled (nothing for ${STALL_TIMEOUT_MS / 1000} s)`, 2)), STALL_TIMEOUT_MS);
      });
      let step: Awaited<ReturnType<typeof reader.read>>;
      try {
        step = await Promise.race([reader.read(), stalled]);
      } catch (err) {
        if (err instanceof CliError) throw err;
        throw new CliError(`${what}: the answer from ${shownUrl(url)} broke off (${describeNetworkError(err)})`, 2);
      } finally {
        clearTimeout(timer);
      }
      if (step.done) break;
      total += step.value.byteLength;
      if (total > max) throw new CliError(`${what}: the answer from ${shownUrl(url)} is larger than ${mb(max)}`, 2);
      sink(step.value);
    }
  } catch (err) {
    await reader.cancel().catch(() => {});
    throw err;
  }
  // A connection that ends early may still look like a whole answer to fetch: the length decides.
  if (declared !== null && res.headers.get("content-encoding") === null && Number(declared) !== total) {
    throw new CliError(`${what}: the download of ${shownUrl(url)} broke off (${total} of ${declared} bytes)`, 2);
  }
  return total;
}

export class PhrasebookClient {
  /** The origins the client fetches from: the server's, and the CDN's when it has its own. */
  private readonly origins: Set<string>;

  /**
   * `needs`: the scope the command needs (docs/automation.md "A token for CI"), named when the
   * server refuses the token for lacking one: the route the command tried first may be allowed by
   * another scope (a read token running `publish` is refused on the project list, which `write`
   * would allow), and the person should hear what the command needs.
   */
  constructor(
    readonly connection: Connection,
    private readonly needs?: string,
  ) {
    this.origins = new Set([new URL(connection.server).origin, ...(connection.cdn ? [new URL(connection.cdn).origin] : [])]);
  }

  /** `what` starts each error line: "push lib/l10n/app_en.arb", "GET /projects". */
  async dashboard<T>(what: string, method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return this.json<T>(what, `${this.connection.server}/dashboard/api${path}`, method, options);
  }

  async publicApi<T>(what: string, path: string): Promise<T> {
    return this.json<T>(what, `${this.connection.server}/v1${path}`, "GET", {});
  }

  /**
   * A URL the server named, if the client may fetch it: http(s) on the server's origin or the
   * configured CDN's (docs/automation.md "What the client trusts"); never `file:`, never another
   * host, whatever a server answers.
   */
  allowedUrl(what: string, raw: unknown): URL {
    let url: URL | undefined;
    try {
      url = new URL(String(raw));
    } catch {
      // judged below
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password) {
      throw new CliError(`${what}: the server named ${shownUrl(String(raw))} to download, which is no http(s) URL; nothing was written`, 2);
    }
    if (!this.origins.has(url.origin)) {
      throw new CliError(
        `${what}: the server named ${shownUrl(url.href)} to download, which is not on ${[...this.origins].join(" or ")}; for a CDN on a host of its own, give its origin as --cdn-url (or PHRASEBOOK_CDN_URL, or cdn_url: in phrasebook.yaml)`,
        2,
      );
    }
    return url;
  }

  private async send(what: string, url: string, method: string, headers: Record<string, string>, options: RequestOptions): Promise<Response> {
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      const bytes = new TextEncoder().encode(options.json);
      headers["content-type"] = "application/json";
      headers["content-length"] = String(bytes.byteLength);
      body = options.onUpload ? streamOf(bytes, options.onUpload) : bytes;
    } else if (options.file !== undefined) {
      headers["content-type"] = options.file.type;
      headers["content-length"] = String(options.file.bytes.byteLength);
      body = options.file.bytes;
    }
    try {
      const init: RequestInit & { duplex?: "half" } = { method, headers, body, redirect: "manual", signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS) };
      // Node's fetch needs to be told that a streamed body is sent before the answer comes.
      if (body instanceof ReadableStream) init.duplex = "half";
      return await fetch(url, init);
    } catch (err) {
      throw new CliError(`${what}: cannot reach ${new URL(url).origin} (${describeNetworkError(err)})`, 2);
    }
  }

  private async json<T>(what: string, url: string, method: string, options: RequestOptions): Promise<T> {
    const res = await this.send(what, url, method, { authorization: `Bearer ${this.connection.token}`, accept: "application/json" }, options);
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel().catch(() => {});
      const location = res.headers.get("location") ?? "";
      throw new CliError(`${what}: ${res.status} the server redirects to ${location.slice(0, 200)}; use that address as --server`, 2);
    }
    const type = res.headers.get("content-type") ?? "";
    const chunks: Uint8Array[] = [];
    await readBounded(what, url, res, JSON_ANSWER_MAX_BYTES, (c) => chunks.push(c));
    let parsed: unknown;
    if (type.includes("json")) {
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        // judged below
      }
    }
    if (parsed === undefined || typeof parsed !== "object" || parsed === null) {
      throw new CliError(`${what}: ${res.status} from ${new URL(url).origin}, which does not look like a Phrasebook server (${type.split(";")[0] || "no content type"}); is --server its public address?`, 2);
    }
    if (!res.ok) {
      let error = typeof (parsed as { error?: unknown }).error === "string" ? (parsed as { error: string }).error : "error";
      if (res.status === 403 && this.needs && error.startsWith("token lacks scope")) error = `token lacks scope ${this.needs}`;
      throw new HttpRefusal(`${what}: ${res.status} ${error.slice(0, 500)}${hint(res.status, error)}`, res.status, parsed as Record<string, unknown>);
    }
    return parsed as T;
  }

  /**
   * A CDN object held in memory (a manifest, a signature, a key file, a file to check: docs/delivery.md),
   * no token, on an allowed origin, at most `max` bytes; null when the CDN answers 404. Redirects
   * are not followed: a CDN path is answered where it is.
   */
  async fetchBytes(what: string, rawUrl: string, max: number = DOWNLOAD_MAX_BYTES): Promise<Uint8Array | null> {
    const url = this.allowedUrl(what, rawUrl);
    const res = await this.send(what, url.href, "GET", {}, {});
    if (res.status === 404) {
      await res.body?.cancel().catch(() => {});
      return null;
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new CliError(`${what}: ${res.status} from ${shownUrl(url.href)}`, 2);
    }
    const chunks: Uint8Array[] = [];
    const total = await readBounded(what, url.href, res, max, (c) => chunks.push(c));
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }

  /**
   * A CDN file (no token: download URLs need none, docs/interface.md §4.5), streamed into the file
   * descriptor `fd` as it comes (never held whole), following at most REDIRECTS_MAX redirects,
   * each to an allowed origin. Answers the bytes written, whether they are proven whole (a
   * Phrasebook server's ETag is the start of the file's SHA-256, docs/cdn.md "Headers", hashed here
   * as the bytes come, which costs far less than reading a large file back to parse it), and their
   * shape: whether they are UTF-8, and their first and last bytes that are not white space. A tag
   * proves only that the bytes are those the server meant; the shape is what the caller checks
   * them against (docs/automation.md "What the client trusts").
   */
  async download(what: string, rawUrl: unknown, fd: number): Promise<{ bytes: number; provenWhole: boolean; shape: TextShape }> {
    let url = this.allowedUrl(what, rawUrl);
    for (let redirects = 0; ; redirects++) {
      const res = await this.send(what, url.href, "GET", {}, {});
      if (res.status >= 300 && res.status < 400 && res.headers.get("location") !== null) {
        await res.body?.cancel().catch(() => {});
        if (redirects >= REDIRECTS_MAX) throw new CliError(`${what}: ${shownUrl(url.href)} redirects more than ${REDIRECTS_MAX} times`, 2);
        url = this.allowedUrl(what, new URL(res.headers.get("location")!, url).href);
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw new CliError(`${what}: ${res.status} from ${shownUrl(url.href)}`, 2);
      }
      const tag = CONTENT_TAG.exec(res.headers.get("etag") ?? "")?.[1];
      // node:crypto and node:buffer only here: the commands that download nothing do not load them
      // (docs/architecture.md "Start-up").
      const hash = tag === undefined ? undefined : (await import("node:crypto")).createHash("sha256");
      const shape = new TextShapeReader((await import("node:buffer")).isUtf8);
      const bytes = await readBounded(what, url.href, res, DOWNLOAD_MAX_BYTES, (chunk) => {
        hash?.update(chunk);
        shape.read(chunk);
        for (let at = 0; at < chunk.byteLength; ) at += writeSync(fd, chunk, at);
      });
      return { bytes, provenWhole: hash !== undefined && hash.digest("base64url").startsWith(tag!), shape: shape.end() };
    }
  }
}

/** What a download looks like, read as it streams: UTF-8 or not, and its first and last non-space bytes (-1: none). */
export interface TextShape {
  utf8: boolean;
  first: number;
  last: number;
}

/**
 * Reads a download's shape chunk by chunk, without holding it: a chunk may end inside a UTF-8
 * sequence, whose first bytes wait for the next chunk.
 */
export class TextShapeReader {
  private utf8 = true;
  private carry: Uint8Array = new Uint8Array(0);
  private first = -1;
  private last = -1;

  constructor(private readonly isUtf8: (bytes: Uint8Array) => boolean) {}

  read(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length && this.first < 0; i++) if (!isSpace(chunk[i]!)) this.first = chunk[i]!;
    for (let i = chunk.length - 1; i >= 0; i--) {
      if (!isSpace(chunk[i]!)) {
        this.last = chunk[i]!;
        break;
      }
    }
    if (!this.utf8) return;
    let rest = chunk;
    if (this.carry.length > 0) {
      // Only the sequence the last chunk began is joined up, not the whole chunk copied.
      const need = sequenceLength(this.carry[0]!) - this.carry.length;
      if (chunk.length < need) {
        this.carry = Buffer.concat([this.carry, chunk]);
        return;
      }
      this.utf8 = this.isUtf8(Buffer.concat([this.carry, chunk.subarray(0, need)]));
      this.carry = new Uint8Array(0);
      if (!this.utf8) return;
      rest = chunk.subarray(need);
    }
    const cut = completeUpTo(rest);
    this.utf8 = this.isUtf8(rest.subarray(0, cut));
    this.carry = rest.slice(cut);
  }

  end(): TextShape {
    return { utf8: this.utf8 && this.carry.length === 0, first: this.first, last: this.last };
  }
}

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** How many bytes the UTF-8 sequence that `lead` begins takes. */
const sequenceLength = (lead: number) => (lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1);

/** The length of `data` up to its last complete UTF-8 sequence (a sequence cut by the chunk's end is left out). */
function completeUpTo(data: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, data.length); back++) {
    const b = data[data.length - back]!;
    if ((b & 0xc0) === 0x80) continue; // a continuation byte: its lead is further back
    return sequenceLength(b) > back ? data.length - back : data.length;
  }
  return data.length;
}

/**
 * A Phrasebook CDN file's ETag: the first 22 characters of the unencoded file's SHA-256 in
 * base64url, with `-gz` or `-br` for a compressed answer. A proxy may weaken or replace it; then
 * nothing is proven and the caller reads the file to check it.
 */
const CONTENT_TAG = /^"([A-Za-z0-9_-]{22})(?:-gz|-br)?"$/;

/** A refusal of the server (exit 2) with the body it came with: a blocked publish lists its problems. */
export class HttpRefusal extends CliError {
  constructor(
    message: string,
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(message, 2);
  }
}

/** A short pointer for the refusals a CI setup meets first. */
function hint(status: number, error: string): string {
  if (status === 401) return " (is PHRASEBOOK_TOKEN a live token of this server?)";
  if (status === 403 && error.startsWith("token lacks scope")) return " (give the token that scope: a new token in the dashboard, API tokens)";
  return "";
}
