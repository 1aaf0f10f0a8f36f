/**
 * A large import runs in a worker thread with its own SQLite connection (docs/publishing.md §6 "Not
 * holding up other requests"), in-process: it does exactly what an import on the request's thread
 * does, leaves the server answering meanwhile, stays all or nothing, and imports run one at a time
 * per server with a bounded queue.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { IMPORT_QUEUE_MAX, IMPORTS_PER_CALLER_MAX, IMPORTS_PER_PROJECT_MAX } from "../../src/authoring/import-runner.ts";
import { join } from "node:path";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { askWhileLocked, closeWriteLockProbe } from "../helpers/write-lock.ts";

let t: TestApp;
let admin: DashboardClient;
beforeAll(async () => {
  t = await testApp({ subscribeAll: true }); // the outbox is read: events written only for a subscriber
  admin = await t.login();
});
afterAll(async () => {
  closeWriteLockProbe(join(t.dataDir, "phrasebook.db"));
  await t.close();
});

/** A JSON file of `n` keys `<prefix>.<i>`. */
function bigFile(n: number, prefix = "screen", value = (i: number) => `The value of entry number ${i}, long enough to make the file large`): string {
  return JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}.${i}`, value(i)])));
}

function count(sql: string, ...params: (string | number)[]): number {
  return t.query<{ n: number }>(sql, ...params)[0]!.n;
}

async function tokenFor(pid: string, scopes = ["write"]): Promise<DashboardClient> {
  const made = await admin.post(`/projects/${pid}/tokens`, { name: "CI", scopes });
  const client = t.client();
  client.bearer = made.body.token;
  return client;
}

describe("import in a worker thread (docs/publishing.md §6)", () => {
  test("a file is imported in a worker: keys, values, history and events as on the request's thread", async () => {
    const pid = await admin.project("Worker", "en", ["de"]);
    const ci = await tokenFor(pid);
    const content = bigFile(4000);
    const project = t.query<{ id: number }>("SELECT id FROM projects WHERE public_id = ?", pid)[0]!.id;
    const eventsBefore = count("SELECT count(*) AS n FROM outbox_events WHERE project_id = ?", project);

    const r = await ci.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ created_keys: 4000, updated_translations: 4000, updated_keys: 0, unchanged: 0, deleted_keys: 0, problems: 0, changes_truncated: true });
    expect(r.body.changes.slice(0, 2)).toEqual([
      { key: "screen.0", change: "created" },
      { key: "screen.1", change: "created" },
    ]);
    // The server's own connection sees the worker's commit at once.
    const listed = await admin.get(`/projects/${pid}/keys?search=screen.3999`);
    expect(listed.body.items.map((k: any) => [k.key, k.translations.en.value])).toEqual([["screen.3999", "The value of entry number 3999, long enough to make the file large"]]);
    expect(count("SELECT count(*) AS n FROM translation_history h JOIN translation_keys k ON k.id = h.key_id WHERE k.project_id = ? AND h.by_kind = 'token' AND h.via = 'import' AND h.by_name = 'CI'", project)).toBe(4000);
    const events = t.query<{ event: string; payload: string }>("SELECT event, payload FROM outbox_events WHERE project_id = ? ORDER BY id", project).slice(eventsBefore);
    expect(events).toHaveLength(8000);
    expect(events.slice(0, 2).map((e) => JSON.parse(e.payload))).toEqual([
      { event: "key_created", event_version: 1, occurred_at: "2026-01-01T00:00:00.000Z", project_id: pid, data: { key: "screen.0", context: null } },
      { event: "translation_created", event_version: 1, occurred_at: "2026-01-01T00:00:00.000Z", project_id: pid, data: { key: "screen.0", language_code: "en", value: "The value of entry number 0, long enough to make the file large", status: "translated" } },
    ]);

    // The same file again: nothing changes.
    const again = await ci.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content });
    expect(again.body).toMatchObject({ created_keys: 0, updated_translations: 0, unchanged: 4000, changes: [] });
    expect(count("SELECT count(*) AS n FROM outbox_events WHERE project_id = ?", project)).toBe(eventsBefore + 8000);
  });

  test("product §6: a dry run in a worker reports and writes nothing; a bad entry in a worker changes nothing and names it", async () => {
    const pid = await admin.project("Worker dry", "en");
    const ci = await tokenFor(pid);
    const before = count("SELECT count(*) AS n FROM outbox_events");
    const dry = await ci.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: bigFile(3000), dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ created_keys: 3000, updated_translations: 3000 });
    expect(count("SELECT count(*) AS n FROM translation_keys WHERE project_id = (SELECT id FROM projects WHERE public_id = ?)", pid)).toBe(0);
    expect(count("SELECT count(*) AS n FROM outbox_events")).toBe(before);

    const bad = JSON.parse(bigFile(3000));
    bad["screen.2999"] = "x".repeat(100_001);
    const refused = await ci.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: JSON.stringify(bad) });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('entry "screen.2999"');
    const broken = await ci.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: bigFile(3000).slice(0, -1) });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toMatch(/line 1, column \d+: not valid JSON/);
    expect(count("SELECT count(*) AS n FROM translation_keys WHERE project_id = (SELECT id FROM projects WHERE public_id = ?)", pid)).toBe(0);
    expect(count("SELECT count(*) AS n FROM outbox_events")).toBe(before);
  });

  test("product §6: while a large import writes, CDN files and API lists are answered", async () => {
    const pid = await admin.project("Worker busy", "en");
    await admin.key(pid, "hello", { en: "Hello" });
    const draft = await admin.post(`/projects/${pid}/releases`, { name: "R", tag: "v1" });
    const release = (await admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`)).body;
    const cdnUrl: string = release.languages[0].download_urls.json;
    const reader = (await admin.post(`/projects/${pid}/tokens`, { name: "reader" })).body.token;
    const ci = await tokenFor(pid);

    let done = false;
    const importing = ci.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: bigFile(20_000) }).finally(() => (done = true));
    const seen = await askWhileLocked(join(t.dataDir, "phrasebook.db"), () => done, async () => {
      const [file, list] = await Promise.all([t.fetch(cdnUrl), t.fetch("/v1/releases", { headers: { authorization: `Bearer ${reader}` } })]);
      expect([file.status, list.status]).toEqual([200, 200]);
    });
    expect((await importing).status).toBe(200);
    // Answered while the import held the write lock, in the middle of its transaction: it did not
    // hold this thread (ordered, not timed: test/helpers/write-lock.ts).
    expect(seen.whileLocked, `${seen.asked} answers during the import, ${seen.whileLocked} of them inside its transaction`).toBeGreaterThanOrEqual(3);
  });

  test("a project's imports run one at a time: parallel imports of overlapping files all land, each key once, none lost", async () => {
    const pid = await admin.project("Worker parallel", "en", ["de"]);
    // Two imports per token, the most one caller may have running or waiting (IMPORTS_PER_CALLER_MAX),
    // as many as one project's imports may hold (IMPORTS_PER_PROJECT_MAX).
    const cis = await Promise.all(Array.from({ length: IMPORTS_PER_PROJECT_MAX / IMPORTS_PER_CALLER_MAX }, () => tokenFor(pid)));
    // Two large files and two small ones, sharing keys.
    const files = Array.from({ length: IMPORTS_PER_PROJECT_MAX / 2 }, (_, i) => bigFile(3000, "shared", (k) => `big ${i} value ${k} with enough text to take a while`));
    const small = Array.from({ length: IMPORTS_PER_PROJECT_MAX / 2 }, (_, i) => JSON.stringify({ "shared.0": `small ${i}`, [`own.${i}`]: "x" }));
    const replies = await Promise.all([...files, ...small].map((content, i) => cis[i % cis.length]!.post(`/projects/${pid}/import`, { language_code: i % 2 ? "de" : "en", format: "json", content })));
    expect(replies.map((r) => r.status)).toEqual(Array(IMPORTS_PER_PROJECT_MAX).fill(200));
    const keys = count("SELECT count(*) AS n FROM translation_keys WHERE project_id = (SELECT id FROM projects WHERE public_id = ?)", pid);
    expect(keys).toBe(3000 + small.length);
    expect(replies.reduce((n, r) => n + r.body.created_keys, 0)).toBe(3000 + small.length);
    expect(count("SELECT count(*) AS n FROM (SELECT key FROM translation_keys GROUP BY project_id, key HAVING count(*) > 1)")).toBe(0);
  });

  test(`at most ${IMPORT_QUEUE_MAX} imports run or wait at once; more are a 429 with Retry-After`, async () => {
    // Three projects, from callers who each stay within their share (IMPORTS_PER_CALLER_MAX), sent
    // in turn so that no project's share (IMPORTS_PER_PROJECT_MAX) fills first: only the queue's bound refuses.
    const projects = await Promise.all(["Worker queue 1", "Worker queue 2", "Worker queue 3"].map((name) => admin.project(name, "en")));
    const callers = await Promise.all(projects.map(async (pid) => ({ pid, cis: await Promise.all([tokenFor(pid), tokenFor(pid)]) })));
    const sent = IMPORT_QUEUE_MAX + 4;
    const replies = await Promise.all(
      Array.from({ length: sent }, (_, i) => {
        const { pid, cis } = callers[i % callers.length]!;
        return cis[Math.floor(i / callers.length) % cis.length]!.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: bigFile(3000, `q${i}`) });
      }),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBe(IMPORT_QUEUE_MAX);
    const refused = replies.filter((r) => r.status === 429);
    expect(refused).toHaveLength(4);
    for (const r of refused) {
      expect(r.headers.get("retry-after")).toBe("5");
      expect(r.body.error).toContain(`${IMPORT_QUEUE_MAX} imports are already running or waiting`);
    }
    // A refused import wrote nothing; the accepted ones wrote everything.
    expect(count("SELECT count(*) AS n FROM translation_keys WHERE project_id IN (SELECT id FROM projects WHERE name LIKE 'Worker queue %')")).toBe(IMPORT_QUEUE_MAX * 3000);
    const ci = callers[0]!.cis[0]!;
    const pid = callers[0]!.pid;
    // And the queue is free again afterwards.
    expect((await ci.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: '{"after":"x"}' })).status).toBe(200);
  });
});
