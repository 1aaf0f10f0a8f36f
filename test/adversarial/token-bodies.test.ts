/**
 * Any valid token, a `read` token built into an app or another project's `write` token, once made
 * the server read and parse a 16 MB import body before its scope and project were checked: 24 such
 * uploads in parallel took the server from 78 MB to 2.3 GB. Who may send a body is now judged from
 * the headers and the path alone, before a byte of it is read (docs/dashboard-api.md
 * "Conventions", docs/deploy.md "Security notes"): a caller that may not import into that project
 * is refused with nothing read, a body over the limit is refused from Content-Length, a chunked one
 * is cut at the limit, and large import bodies are taken a few at a time.
 *
 * In-process, each body is a stream that counts what the server pulled from it; against the
 * compiled server, the attack as it was run (24 parallel 16 MB uploads) and the server's peak
 * memory, read from /proc.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { IMPORTS_PER_CALLER_MAX } from "../../src/authoring/limits.ts";
import { IMPORT_BODIES_AT_ONCE, IMPORT_BODY_MAX_BYTES } from "../../src/dashboard-api/guards.ts";
import { ORIGIN, testApp, type TestApp } from "../helpers/app.ts";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startServer } from "../helpers/server.ts";

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A body of `bytes` made as it is pulled, counting how much the server pulled; `hold` stops it midway. */
function countedStream(bytes: number, hold?: Promise<void>) {
  const counter = { read: 0 };
  const piece = new TextEncoder().encode(" ".repeat(CHUNK));
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (counter.read >= bytes) return controller.close();
      if (hold && counter.read >= 2 * MB) await hold;
      counter.read += piece.byteLength;
      controller.enqueue(piece);
    },
  });
  return { stream, counter };
}

async function send(t: TestApp, path: string, headers: Record<string, string>, body: BodyInit) {
  const res = await t.app.handle(
    new Request(ORIGIN + "/dashboard/api" + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body, duplex: "half" } as RequestInit),
    () => "127.0.0.1",
  );
  return { status: res.status, json: (await res.json().catch(() => null)) as any };
}

describe("dashboard-api.md Conventions: an import body is read only from a caller that may import into that project", () => {
  let t: TestApp;
  let pid: string;
  let tokens: { read: string; publish: string; otherWrite: string; write: string };
  let writeToken!: (scopes?: string[]) => Promise<string>;
  beforeAll(async () => {
    t = await testApp();
    const admin = await t.login();
    pid = await admin.project("Target", "en");
    const other = await admin.project("Other", "en");
    const token = async (project: string, scopes: string[]) => (await admin.post(`/projects/${project}/tokens`, { name: scopes.join("+"), scopes })).body.token as string;
    tokens = { read: await token(pid, ["read"]), publish: await token(pid, ["publish"]), otherWrite: await token(other, ["write"]), write: await token(pid, ["write"]) };
    writeToken = () => token(pid, ["write"]);
  });
  afterAll(() => t.close());

  for (const [who, expected] of [
    ["a read token of the project", { status: 403, json: { error: "token lacks scope write" } }],
    ["a publish token of the project", { status: 403, json: { error: "token lacks scope write" } }],
    ["another project's write token", { status: 404, json: { error: "project not found" } }],
  ] as const) {
    test(`24 parallel 16 MB bodies from ${who}, chunked and declared, are refused with none of them read`, async () => {
      const bearer = tokens[who.startsWith("a read") ? "read" : who.startsWith("a publish") ? "publish" : "otherWrite"];
      const uploads = Array.from({ length: 24 }, (_, i) => {
        const { stream, counter } = countedStream(IMPORT_BODY_MAX_BYTES);
        const headers: Record<string, string> = { authorization: `Bearer ${bearer}` };
        if (i % 2 === 1) headers["content-length"] = String(IMPORT_BODY_MAX_BYTES); // half declare their size
        return { counter, reply: send(t, `/projects/${pid}/import`, headers, stream) };
      });
      const replies = await Promise.all(uploads.map((u) => u.reply));
      for (const r of replies) expect(r).toEqual(expected);
      for (const u of uploads) expect(u.counter.read).toBeLessThanOrEqual(CHUNK); // the stream's own read-ahead, nothing consumed
    });
  }

  test("a project that does not exist is 404 before the body is read", async () => {
    const { stream, counter } = countedStream(IMPORT_BODY_MAX_BYTES);
    const r = await send(t, "/projects/prj_doesnotexist0000000/import", { authorization: `Bearer ${tokens.write}` }, stream);
    expect(r).toEqual({ status: 404, json: { error: "project not found" } });
    expect(counter.read).toBeLessThanOrEqual(CHUNK);
  });

  test(`the project's write token is read; beyond ${IMPORT_BODIES_AT_ONCE} large bodies at once, the next is 429 before it is read`, async () => {
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    // From several write tokens, each within its share of the places (IMPORTS_PER_CALLER_MAX).
    const writers = await Promise.all(Array.from({ length: IMPORT_BODIES_AT_ONCE / IMPORTS_PER_CALLER_MAX }, () => writeToken()));
    const held = Array.from({ length: IMPORT_BODIES_AT_ONCE }, (_, i) => {
      const { stream, counter } = countedStream(4 * MB, hold);
      return { counter, reply: send(t, `/projects/${pid}/import`, { authorization: `Bearer ${writers[i % writers.length]}` }, stream) };
    });
    // Each of them is being read (its stream pulled up to where it holds) before the next is sent.
    while (held.some((h) => h.counter.read < 2 * MB)) await Bun.sleep(5);
    const extra = countedStream(4 * MB);
    const refused = await send(t, `/projects/${pid}/import`, { authorization: `Bearer ${tokens.write}` }, extra.stream);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBe(`${IMPORT_BODIES_AT_ONCE} imports are already running or waiting; try again shortly`);
    expect(extra.counter.read).toBeLessThanOrEqual(CHUNK);
    release();
    // The held ones were read whole (then refused as the blank JSON they are, a 400, not a 5xx).
    for (const h of held) expect((await h.reply).status).toBe(400);
    for (const h of held) expect(h.counter.read).toBe(4 * MB);
  });
});

/** The server's resident memory now and at its peak, in MB, from /proc/<pid>/status. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)![1]);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

describe("deploy.md Security notes: 24 parallel 16 MB uploads from a read token do not grow the server", () => {
  test("the compiled server's peak memory stays within 200 MB of where it started, and every upload is refused", async () => {
    const server = await startServer({ env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
    try {
      const admin = await DashboardClient.loggedIn(server.url);
      const pid = await admin.project("Target", "en");
      const read = (await admin.post(`/projects/${pid}/tokens`, { name: "app", scopes: ["read"] })).body.token as string;
      const before = memoryOf(server.proc.pid);
      const body = new Uint8Array(IMPORT_BODY_MAX_BYTES).fill(0x20);
      const statuses = await Promise.all(
        Array.from({ length: 24 }, async () => {
          try {
            const res = await fetch(`${server.url}/dashboard/api/projects/${pid}/import`, {
              method: "POST",
              headers: { authorization: `Bearer ${read}`, "content-type": "application/json" },
              body,
            });
            await res.arrayBuffer();
            return res.status;
          } catch {
            return "cut off"; // the server answered and closed before the upload was sent: also a refusal
          }
        }),
      );
      for (const s of statuses) expect([403, "cut off"]).toContain(s);
      expect(statuses).toContain(403);
      const after = memoryOf(server.proc.pid);
      expect(after.peak - before.rss, JSON.stringify({ before, after })).toBeLessThan(200);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
