import { CliError } from "../../common/errors.ts";

/**
 * The client's side of HTTP (docs/product.md §6): the dashboard API with the token as a bearer,
 * the public API, and CDN files. Every failure is one line and exit 2: the server could not be
 * reached, or it refused (with its status and its `error`), or what answered is no Phrasebook.
 */
export interface Connection {
  /** The public origin, without a trailing slash (`https://i18n.example.com`). */
  server: string;
  token: string;
}

/** How long a request may take; an import of a large file takes longest. */
const TIMEOUT_MS = 60_000;
export const IMPORT_TIMEOUT_MS = 10 * 60_000;
/** A downloaded file larger than this is refused (a release file is at most a few MB). */
const DOWNLOAD_MAX_BYTES = 64 * 1024 * 1024;

export interface RequestOptions {
  /** The request body, already JSON; streamed when `onUpload` is given. */
  json?: string;
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

export class PhrasebookClient {
  constructor(readonly connection: Connection) {}

  /** `what` starts each error line: "push lib/l10n/app_en.arb", "GET /projects". */
  async dashboard<T>(what: string, method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return this.json<T>(what, `${this.connection.server}/dashboard/api${path}`, method, options);
  }

  async publicApi<T>(what: string, path: string): Promise<T> {
    return this.json<T>(what, `${this.connection.server}/v1${path}`, "GET", {});
  }

  private async send(what: string, url: string, method: string, headers: Record<string, string>, options: RequestOptions): Promise<Response> {
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      const bytes = new TextEncoder().encode(options.json);
      headers["content-type"] = "application/json";
      headers["content-length"] = String(bytes.byteLength);
      body = options.onUpload ? streamOf(bytes, options.onUpload) : bytes;
    }
    try {
      return await fetch(url, { method, headers, body, redirect: "manual", signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS) });
    } catch (err) {
      throw new CliError(`${what}: cannot reach ${new URL(url).origin} (${describeNetworkError(err)})`, 2);
    }
  }

  private async json<T>(what: string, url: string, method: string, options: RequestOptions): Promise<T> {
    const res = await this.send(what, url, method, { authorization: `Bearer ${this.connection.token}`, accept: "application/json" }, options);
    if (res.status >= 300 && res.status < 400) {
      const location = res.headers.get("location") ?? "";
      throw new CliError(`${what}: ${res.status} the server redirects to ${location.slice(0, 200)}; use that address as --server`, 2);
    }
    const type = res.headers.get("content-type") ?? "";
    const text = await res.text().catch(() => "");
    let parsed: unknown;
    if (type.includes("json")) {
      try {
        parsed = JSON.parse(text);
      } catch {
        // judged below
      }
    }
    if (parsed === undefined || typeof parsed !== "object" || parsed === null) {
      throw new CliError(`${what}: ${res.status} from ${new URL(url).origin}, which does not look like a Phrasebook server (${type.split(";")[0] || "no content type"}); is --server its public address?`, 2);
    }
    if (!res.ok) {
      const error = typeof (parsed as { error?: unknown }).error === "string" ? (parsed as { error: string }).error : "error";
      throw new CliError(`${what}: ${res.status} ${error}${hint(res.status, error)}`, 2);
    }
    return parsed as T;
  }

  /** A CDN file (no token: download URLs need none, docs/interface.md §4.5). */
  async download(what: string, url: string): Promise<Uint8Array> {
    const res = await this.send(what, url, "GET", {}, {});
    if (!res.ok) throw new CliError(`${what}: ${res.status} from ${url}`, 2);
    const declared = Number(res.headers.get("content-length") ?? "0");
    if (declared > DOWNLOAD_MAX_BYTES) throw new CliError(`${what}: ${url} is larger than ${DOWNLOAD_MAX_BYTES / 1024 / 1024} MB`, 2);
    const bytes = new Uint8Array(await res.arrayBuffer().catch((err) => {
      throw new CliError(`${what}: the download of ${url} broke off (${describeNetworkError(err)})`, 2);
    }));
    if (bytes.byteLength > DOWNLOAD_MAX_BYTES) throw new CliError(`${what}: ${url} is larger than ${DOWNLOAD_MAX_BYTES / 1024 / 1024} MB`, 2);
    // A connection that ends early may still look like a whole answer to fetch: the length decides.
    const length = res.headers.get("content-length");
    if (length !== null && res.headers.get("content-encoding") === null && Number(length) !== bytes.byteLength) {
      throw new CliError(`${what}: the download of ${url} broke off (${bytes.byteLength} of ${length} bytes)`, 2);
    }
    return bytes;
  }
}

/** A short pointer for the refusals a CI setup meets first. */
function hint(status: number, error: string): string {
  if (status === 401) return " (is PHRASEBOOK_TOKEN a live token of this server?)";
  if (status === 403 && error.startsWith("token lacks scope")) return " (give the token that scope: a new token in the dashboard, API tokens)";
  return "";
}
