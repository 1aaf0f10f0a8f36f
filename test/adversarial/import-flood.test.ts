/**
 * Imports run on a worker thread one at a time, with IMPORT_QUEUE_MAX (8) places for imports
 * running or waiting, and as many for large import bodies being received. One member (or one
 * token) looping imports once filled every place, and every other member's import was a 429 until
 * the loop stopped. One caller now holds at most IMPORTS_PER_CALLER_MAX places of each; past that
 * it is that caller who is answered 429, while the others still get in (docs/publishing.md §6
 * "Limits").
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { IMPORT_QUEUE_MAX, IMPORTS_PER_CALLER_MAX, IMPORTS_PER_PROJECT_MAX } from "../../src/authoring/import-runner.ts";
import { ORIGIN, testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;
let pid: string;
let flooder: DashboardClient;
let other: DashboardClient;

async function member(name: string): Promise<DashboardClient> {
  const email = `${name}@example.test`;
  const made = await admin.post("/users", { email, name, password: `${name}-password`, role: "member" });
  expect(made.status).toBe(201);
  expect((await admin.put(`/projects/${pid}/members/${made.body.id}`, { role: "developer" })).status).toBe(200);
  return t.login(email, `${name}-password`);
}

async function token(name: string): Promise<DashboardClient> {
  const client = t.client();
  client.bearer = (await admin.post(`/projects/${pid}/tokens`, { name, scopes: ["write"] })).body.token;
  return client;
}

/** A JSON file of `n` keys `<prefix>.<i>`: a few hundred ms of work on the worker. */
function bigFile(n: number, prefix: string): string {
  return JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}.${i}`, `The value of entry number ${i}, long enough to take some time`])));
}

function keyCount(prefix: string): number {
  return t.query<{ n: number }>("SELECT count(*) AS n FROM translation_keys WHERE key LIKE ?", `${prefix}.%`)[0]!.n;
}

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Flood", "en");
  flooder = await member("flooder");
  other = await member("other");
});
afterAll(() => t.close());

describe("publishing.md §6 Limits: one caller cannot fill the import queue", () => {
  test(`a member sending ${IMPORT_QUEUE_MAX + 2} imports at once gets ${IMPORTS_PER_CALLER_MAX} in; another member's import arriving meanwhile is taken`, async () => {
    let firstRefusal!: () => void;
    const refused = new Promise<void>((resolve) => (firstRefusal = resolve));
    const flood = Promise.all(
      Array.from({ length: IMPORT_QUEUE_MAX + 2 }, async (_, i) => {
        const r = await flooder.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: bigFile(3000, `flood${i}`) });
        if (r.status === 429) firstRefusal();
        return r;
      }),
    );
    // Once the flood has been refused, its imports hold every place they are going to hold.
    await refused;
    const mine = await other.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: bigFile(100, "other") });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.created_keys).toBe(100);

    const replies = await flood;
    const taken = replies.filter((r) => r.status === 200);
    const turnedAway = replies.filter((r) => r.status === 429);
    expect(taken).toHaveLength(IMPORTS_PER_CALLER_MAX);
    expect(turnedAway).toHaveLength(IMPORT_QUEUE_MAX + 2 - IMPORTS_PER_CALLER_MAX);
    for (const r of turnedAway) {
      expect(r.headers.get("retry-after")).toBe("5");
      expect(r.body.error).toBe(`you already have ${IMPORTS_PER_CALLER_MAX} imports running or waiting; wait for one to finish`);
    }
    // What was refused wrote nothing.
    expect(replies.reduce((n, r, i) => n + (r.status === 200 ? 0 : keyCount(`flood${i}`)), 0)).toBe(0);
    // The flooder's places are free again.
    expect((await flooder.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: '{"after.flood":"x"}' })).status).toBe(200);
  });

  test("a token's flood leaves room for another token and for a member", async () => {
    const loop = await token("Looping CI");
    const calm = await token("Calm CI");
    const flood = Promise.all(Array.from({ length: IMPORT_QUEUE_MAX + 2 }, (_, i) => loop.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: bigFile(3000, `tok${i}`) })));
    const others = await Promise.all([
      calm.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: bigFile(50, "calm") }),
      other.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: bigFile(50, "other2") }),
    ]);
    expect(others.map((r) => r.status)).toEqual([200, 200]);
    const statuses = (await flood).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(IMPORTS_PER_CALLER_MAX);
  });

  test(`one project's imports hold at most ${IMPORTS_PER_PROJECT_MAX} places; another project's import is taken meanwhile`, async () => {
    const crowd = [flooder, other, await member("third")];
    const elsewhere = await admin.project("Elsewhere", "en");
    let firstRefusal!: () => void;
    const refused = new Promise<void>((resolve) => (firstRefusal = resolve));
    const sent = Promise.all(
      crowd.flatMap((client, c) =>
        Array.from({ length: IMPORTS_PER_CALLER_MAX }, async (_, i) => {
          const r = await client.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: bigFile(3000, `crowd${c}_${i}`) });
          if (r.status === 429) firstRefusal();
          return r;
        }),
      ),
    );
    await refused;
    const mine = await admin.post(`/projects/${elsewhere}/import`, { language_code: "en", format: "json", content: bigFile(10, "elsewhere") });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const replies = await sent;
    expect(replies.filter((r) => r.status === 200)).toHaveLength(IMPORTS_PER_PROJECT_MAX);
    const turnedAway = replies.filter((r) => r.status === 429);
    expect(turnedAway).toHaveLength(crowd.length * IMPORTS_PER_CALLER_MAX - IMPORTS_PER_PROJECT_MAX);
    for (const r of turnedAway) expect(r.body.error).toBe(`${IMPORTS_PER_PROJECT_MAX} imports of this project are already running or waiting; try again shortly`);
  });

  test(`slow import bodies: one member holding ${IMPORT_QUEUE_MAX} bodies open keeps no one else's large import out`, async () => {
    // Bodies of unknown length (chunked) count as large; these never end until the test ends them.
    const streams: ReadableStreamDefaultController<Uint8Array>[] = [];
    const slow = Array.from({ length: IMPORT_QUEUE_MAX }, () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          streams.push(controller);
          controller.enqueue(new TextEncoder().encode('{"language_code":"en","format":"json","content":"'));
        },
      });
      return t.fetch(`/dashboard/api/projects/${pid}/import`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: flooder.cookie, "x-csrf-token": flooder.csrf, origin: ORIGIN },
        body,
        // @ts-expect-error: Bun's Request takes a streamed body as fetch does
        duplex: "half",
      });
    });
    // The slow bodies past the flooder's share are refused before they are read.
    const early = await Promise.race([Promise.all(slow.slice(IMPORTS_PER_CALLER_MAX)), Bun.sleep(5000).then(() => null)]);
    expect(early, "the bodies past the share were not refused").not.toBeNull();
    for (const r of early!) {
      expect(r.status).toBe(429);
      expect((await r.json()).error).toContain(`you already have ${IMPORTS_PER_CALLER_MAX} imports`);
    }
    // A large body (over 1 MB) from another member is read and imported meanwhile.
    const large = JSON.stringify(Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`large.${i}`, "x".repeat(90_000)])));
    expect(large.length).toBeGreaterThan(1024 * 1024);
    const mine = await other.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: large });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    for (const c of streams) c.close(); // the unfinished bodies end as invalid JSON
    for (const r of await Promise.all(slow.slice(0, IMPORTS_PER_CALLER_MAX))) expect(r.status).toBe(400);
  });
});
