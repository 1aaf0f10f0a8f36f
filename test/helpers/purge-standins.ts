/**
 * Loopback stand-ins for the purge APIs of docs/deploy.md "Object storage and CDN purge", written
 * from each vendor's documented API (the only parts of the mirror that cannot run here):
 *
 * - Cloudflare's `POST /client/v4/zones/{zone_id}/purge_cache` with `Authorization: Bearer` and
 *   `{"files": [...]}`, answering `{"success": true, "errors": [], "messages": [], "result": {"id"}}`,
 *   403 with error 10000 for another token, 404 with error 7003 for another zone;
 * - Fastly's `POST /service/{service_id}/purge/{surrogate_key}` with `Fastly-Key`, answering
 *   `{"status": "ok", "id"}`, 401 without the key;
 * - the operator's http purge: `POST` of `{"urls": [...]}` signed as a webhook (docs/interface.md
 *   §6.3), checked here as a receiver would check it.
 *
 * Each records the calls it accepted, refuses what its API refuses, and fails on purpose when told
 * to: the next calls answer 5xx, or answer late.
 */
import { createHmac } from "node:crypto";

export interface PurgeCall {
  /** The URLs named (Cloudflare, http) or the surrogate key (Fastly). */
  urls?: string[];
  key?: string;
  headers: Record<string, string>;
  body: string;
}

export interface PurgeStandIn {
  /** What to set PHRASEBOOK_PURGE_API (or PHRASEBOOK_PURGE_URL) to. */
  api: string;
  /** Calls answered with success, in order. */
  calls: PurgeCall[];
  /** Every request that arrived, accepted or not. */
  received: number;
  /** The next `n` calls answer `status` (a 5xx) instead. */
  failNext(n: number, status?: number, body?: string): void;
  /** The next call is answered after `ms`. */
  slowNext(ms: number): void;
  /** Runs before a call is accepted (what a test checks at the moment of the purge). */
  onCall?: (call: PurgeCall) => void | Promise<void>;
  stop(): Promise<void>;
}

interface Behaviour {
  failures: { status: number; body: string }[];
  delays: number[];
}

function serve(handle: (request: Request, body: string) => Promise<{ status: number; json: unknown; call?: PurgeCall }>): PurgeStandIn {
  const behaviour: Behaviour = { failures: [], delays: [] };
  const standIn: PurgeStandIn = {
    api: "",
    calls: [],
    received: 0,
    failNext(n, status = 503, body = "") {
      for (let i = 0; i < n; i++) behaviour.failures.push({ status, body });
    },
    slowNext(ms) {
      behaviour.delays.push(ms);
    },
    async stop() {
      await server.stop(true);
    },
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 60,
    async fetch(request) {
      standIn.received++;
      const body = await request.text();
      const delay = behaviour.delays.shift();
      if (delay) await Bun.sleep(delay);
      // A caller that gave up waiting never sees the answer: nothing was purged for it.
      if (request.signal.aborted) return new Response(null, { status: 499 });
      const failure = behaviour.failures.shift();
      if (failure) return new Response(failure.body, { status: failure.status });
      const answer = await handle(request, body);
      if (answer.call) {
        await standIn.onCall?.(answer.call);
        standIn.calls.push(answer.call);
      }
      return Response.json(answer.json, { status: answer.status });
    },
  });
  standIn.api = `http://127.0.0.1:${server.port}`;
  return standIn;
}

const headersOf = (request: Request) => Object.fromEntries(request.headers);

export function cloudflareStandIn(zone: string, token: string): PurgeStandIn {
  const error = (code: number, message: string) => ({ success: false, errors: [{ code, message }], messages: [], result: null });
  const standIn = serve(async (request, body) => {
    const path = new URL(request.url).pathname;
    const m = /^\/client\/v4\/zones\/([^/]+)\/purge_cache$/.exec(path);
    if (request.method !== "POST" || !m) return { status: 404, json: error(7000, "No route for that URI") };
    if (m[1] !== zone) return { status: 404, json: error(7003, `Could not route to ${path}, perhaps your object identifier is invalid?`) };
    if (request.headers.get("authorization") !== `Bearer ${token}`) return { status: 403, json: error(10000, "Authentication error") };
    let files: unknown;
    try {
      files = (JSON.parse(body) as { files?: unknown }).files;
    } catch {
      return { status: 400, json: error(1012, "Request must contain one of \"purge_everything\", \"files\", \"tags\", \"hosts\" or \"prefixes\"") };
    }
    if (!Array.isArray(files) || files.length === 0 || !files.every((f) => typeof f === "string")) return { status: 400, json: error(1012, "files must be a list of URLs") };
    // The smallest plan's limit the contract keeps to.
    if (files.length > 30) return { status: 400, json: error(1015, "too many files in one request (at most 30)") };
    return { status: 200, json: { success: true, errors: [], messages: [], result: { id: crypto.randomUUID().replace(/-/g, "") } }, call: { urls: files as string[], headers: headersOf(request), body } };
  });
  standIn.api = `${standIn.api}/client/v4`;
  return standIn;
}

export function fastlyStandIn(service: string, token: string): PurgeStandIn {
  return serve(async (request, body) => {
    const m = /^\/service\/([^/]+)\/purge\/([^/]+)$/.exec(new URL(request.url).pathname);
    if (request.method !== "POST" || !m || m[1] !== service) return { status: 404, json: { msg: "Record not found", detail: "Cannot find service" } };
    if (request.headers.get("fastly-key") !== token) return { status: 401, json: { msg: "Provided credentials are missing or invalid" } };
    return { status: 200, json: { status: "ok", id: crypto.randomUUID() }, call: { key: decodeURIComponent(m[2]!), headers: headersOf(request), body } };
  });
}

/** A receiver of the http purge that checks it as docs/interface.md §6.3 tells a receiver to. */
export function httpPurgeStandIn(secret: string): PurgeStandIn {
  const standIn = serve(async (request, body) => {
    if (request.method !== "POST" || new URL(request.url).pathname !== "/purge") return { status: 404, json: { error: "not found" } };
    const timestamp = request.headers.get("x-service-timestamp") ?? "";
    const signature = request.headers.get("x-service-signature") ?? "";
    if (signature !== `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`) return { status: 401, json: { error: "bad signature" } };
    const urls = (JSON.parse(body) as { urls: string[] }).urls;
    return { status: 200, json: {}, call: { urls, headers: headersOf(request), body } };
  });
  standIn.api = `${standIn.api}/purge`;
  return standIn;
}
