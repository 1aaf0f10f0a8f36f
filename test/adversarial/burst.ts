/**
 * Requests that arrive truly at the same moment, for the races of the adversarial suite. Each
 * request gets its own TCP connection; every request is written but for its last byte, and only
 * when all of them are, the last bytes go out in one loop (the "last-byte sync" of race testing).
 * The server then finds them all complete in the same turn of its event loop, on separate
 * connections, which is as parallel as requests to one process get.
 */
import { openRawSocket } from "../helpers/raw-socket.ts";

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed as JSON, or undefined. */
  json: any;
}

export interface BurstRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

function encode(port: number, r: BurstRequest): Uint8Array {
  const body = r.body === undefined ? new Uint8Array(0) : new TextEncoder().encode(r.body);
  const lines = [`${r.method} ${r.path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, "Connection: close"];
  for (const [name, value] of Object.entries(r.headers ?? {})) lines.push(`${name}: ${value}`);
  if (r.body !== undefined) lines.push(`Content-Length: ${body.byteLength}`);
  const head = new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n");
  const all = new Uint8Array(head.byteLength + body.byteLength);
  all.set(head);
  all.set(body, head.byteLength);
  return all;
}

function dechunk(raw: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf("\r\n", at);
    if (lineEnd < 0) return out;
    const size = parseInt(raw.slice(at, lineEnd), 16);
    if (!size) return out;
    out += raw.slice(lineEnd + 2, lineEnd + 2 + size);
    at = lineEnd + 2 + size + 2;
  }
}

function parse(bytes: Uint8Array): RawReply {
  const text = Buffer.from(bytes).toString("utf8");
  const split = text.indexOf("\r\n\r\n");
  const head = split < 0 ? text : text.slice(0, split);
  let body = split < 0 ? "" : text.slice(split + 4);
  const [statusLine, ...headerLines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  if (headers["transfer-encoding"] === "chunked") body = dechunk(body);
  let json: any;
  try {
    json = body ? JSON.parse(body) : undefined;
  } catch {
    json = undefined;
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "")?.[1] ?? 0), headers, body, json };
}

/** Sends every request at once (see above) and returns the replies in the order given. */
export async function burst(port: number, requests: BurstRequest[], timeoutMs = 60_000): Promise<RawReply[]> {
  const connections = await Promise.all(
    requests.map(async (request) => {
      const { socket, closed: done, received } = await openRawSocket(port);
      socket.setNoDelay(true);
      const bytes = encode(port, request);
      let sent = 0;
      while (sent < bytes.byteLength - 1) {
        const n = socket.write(bytes.subarray(sent, bytes.byteLength - 1));
        sent += n;
        if (n === 0) await Bun.sleep(1);
      }
      return { socket, last: bytes.subarray(bytes.byteLength - 1), received, done };
    }),
  );
  await Bun.sleep(20); // let the server read every partial request
  for (const c of connections) c.socket.write(c.last);
  const timeout = Bun.sleep(timeoutMs).then(() => {
    throw new Error(`no reply to a burst of ${requests.length} within ${timeoutMs} ms`);
  });
  await Promise.race([Promise.all(connections.map((c) => c.done)), timeout]);
  timeout.catch(() => {});
  return connections.map((c) => {
    c.socket.end();
    return parse(c.received());
  });
}

/** A JSON request for `burst`. */
export function jsonRequest(method: string, path: string, body: unknown, headers: Record<string, string> = {}): BurstRequest {
  return { method, path, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** How many replies had each status: `{ 200: 1, 401: 4, 429: 55 }`. */
export function statusCounts(replies: RawReply[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const r of replies) counts[r.status] = (counts[r.status] ?? 0) + 1;
  return counts;
}
