/**
 * An upload the server refuses from its headers alone (an import from a `read` token, which may
 * not import) once got `100 Continue`, then the runtime's own bare 413 for a 16 MB file sent as an
 * import sends it (the file escaped into a JSON body, a few bytes past 16 MB), then the connection
 * closed while the client was still sending: of 12 parallel uploads, one saw EPIPE and no answer
 * at all (docs/deploy.md "Security notes", "Uploads refused from their headers").
 *
 * What the runtime does, held here on raw sockets: Bun answers `100 Continue` by itself, before
 * the app sees the request, whenever it carries `Expect: 100-continue`; nothing in the app can
 * stop it. So the app's refusal must reach the client after it: the runtime refuses only bodies
 * past its own limit, now well past every route's, and below it the app answers from the headers
 * and the runtime reads and discards the rest of the body, keeping the connection, so the client
 * finishes sending and reads the answer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { listen, type Listening } from "../helpers/listen.ts";
import { openRawSocket } from "../helpers/raw-socket.ts";

let t: TestApp;
let server: Listening;
let admin: DashboardClient;
let pid: string;
let readToken: string;

const MB = 1024 * 1024;

/** An import of a `fileBytes` file as the client sends it: the file escaped into a JSON body. */
function importBody(fileBytes: number): Uint8Array {
  const head = new TextEncoder().encode('{"language_code":"en","format":"json","content":"');
  const tail = new TextEncoder().encode('"}');
  const body = new Uint8Array(head.length + fileBytes + tail.length);
  body.set(head);
  body.fill(0x78, head.length, head.length + fileBytes);
  body.set(tail, head.length + fileBytes);
  return body;
}

interface Upload {
  /** The final answer's status line and body, as received; "" when none came. */
  status: string;
  body: string;
  /** Bytes of the body written before the connection closed. */
  sent: number;
}

/**
 * One upload as a client that honours `Expect: 100-continue` sends it: the headers, then (once the
 * server said `100 Continue`, or straight away without Expect) the whole body, then it reads the
 * final answer.
 */
async function upload(path: string, headers: Record<string, string>, body: Uint8Array, expectContinue: string | null): Promise<Upload> {
  const raw = await openRawSocket(server.port);
  const lines = [`POST ${path} HTTP/1.1`, `Host: 127.0.0.1:${server.port}`, `Content-Length: ${body.length}`, "Content-Type: application/json"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (expectContinue) lines.push(`Expect: ${expectContinue}`);
  raw.socket.write(lines.join("\r\n") + "\r\n\r\n");
  if (expectContinue) await raw.receivedText("HTTP/1.1 100 Continue\r\n\r\n");
  const sent = await raw.writeAll(body);
  await raw.receivedText("}");
  raw.socket.end();
  const text = raw.received().toString("latin1").replace("HTTP/1.1 100 Continue\r\n\r\n", "");
  const [head = "", answer = ""] = text.split("\r\n\r\n");
  return { status: head.split("\r\n")[0] ?? "", body: answer, sent };
}

beforeAll(async () => {
  t = await testApp();
  server = listen(t);
  admin = await t.login();
  pid = await admin.project("Uploads", "en");
  readToken = (await admin.post(`/projects/${pid}/tokens`, { name: "App build", scopes: ["read"] })).body.token;
});
afterAll(async () => {
  await server.stop();
  await t.close();
});

describe("deploy.md Security notes: an upload refused from its headers gets its answer", () => {
  for (const [label, expectContinue] of [
    ["with Expect: 100-continue", "100-continue"],
    ["without Expect", null],
  ] as const) {
    test(`12 parallel imports of a 16 MB file from a read token, ${label}: every one gets its 403, after the whole body`, async () => {
      const body = importBody(16 * MB);
      expect(body.length).toBeGreaterThan(16 * MB);
      const uploads = await Promise.all(
        Array.from({ length: 12 }, () => upload(`/dashboard/api/projects/${pid}/import`, { Authorization: `Bearer ${readToken}` }, body, expectContinue)),
      );
      for (const u of uploads) {
        expect(u).toEqual({ status: "HTTP/1.1 403 Forbidden", body: '{"error":"token lacks scope write"}', sent: body.length });
      }
    }, 120_000);
  }

  test("the runtime answers 100 Continue itself, before the app's 403; with `100-Continue` written otherwise it does not", async () => {
    for (const [expectContinue, interim] of [
      ["100-continue", true],
      ["100-Continue", false],
    ] as const) {
      const raw = await openRawSocket(server.port);
      raw.socket.write(
        [`POST /dashboard/api/projects/${pid}/import HTTP/1.1`, `Host: 127.0.0.1:${server.port}`, `Content-Length: ${16 * MB}`, "Content-Type: application/json", `Authorization: Bearer ${readToken}`, `Expect: ${expectContinue}`].join("\r\n") + "\r\n\r\n",
      );
      // The app refuses from the headers alone: its answer comes before a byte of the body is sent.
      expect(await raw.receivedText('{"error":"token lacks scope write"}')).toBe(true);
      expect(raw.received().toString().startsWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 403 Forbidden\r\n")).toBe(interim);
      raw.socket.end();
    }
  });

  test("a body past the import's limit from a caller who may import: the app's own 413 in JSON, after the whole body", async () => {
    const writer = (await admin.post(`/projects/${pid}/tokens`, { name: "CI", scopes: ["write"] })).body.token;
    const uploads = await Promise.all(
      Array.from({ length: 4 }, () => upload(`/dashboard/api/projects/${pid}/import`, { Authorization: `Bearer ${writer}` }, importBody(20 * MB), "100-continue")),
    );
    for (const u of uploads) {
      expect(u.status).toBe("HTTP/1.1 413 Payload Too Large");
      expect(JSON.parse(u.body)).toEqual({ error: "request body is larger than 16 MB, the limit of this route" });
    }
  }, 120_000);
});
