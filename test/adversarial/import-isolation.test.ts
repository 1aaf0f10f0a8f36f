/**
 * Imports once ran one at a time for the whole server, with no time limit, and went on after their
 * caller left: a slow import of one project (a hostile file took 28 s) made another project's
 * 9-byte import wait 26 s, still 24.5 s when the attacker hung up after 1.5 s. Now a project's
 * imports wait only behind that project's, each runs on a thread of its own that is ended at
 * PHRASEBOOK_IMPORT_TIMEOUT or when its request ends, and an ended import leaves nothing written:
 * its transaction, if it had begun one, rolls back (docs/publishing.md §6 "All or nothing, one at a
 * time", "Time limit and cancelling").
 *
 * The slow import is slow by its size, the largest file the limits take (100,000 entries in about
 * 10 MB), never by a timer of ours; what the tests hold is order and state: which answer came
 * while which import was still under way, what the database holds, who holds its write lock.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ORIGIN, testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { DashboardClient as Client } from "../helpers/dashboard-client.ts";
import { startServer, type TestServer } from "../helpers/server.ts";
import { capturingStdout } from "../helpers/stdout.ts";
import { eventually } from "../helpers/wait.ts";
import { closeWriteLockProbe, writeLockHeld } from "../helpers/write-lock.ts";

/** 100,000 YAML entries under `prefix`, about 10 MB: seconds of reading before any write. */
function slowYaml(prefix: string): string {
  const pad = "x".repeat(60);
  return Array.from({ length: 100_000 }, (_, i) => `${prefix}_${i}: "value ${i} ${pad}"`).join("\n") + "\n";
}

/** 100,000 JSON entries under `prefix`: read at once, then seconds inside its write transaction. */
function slowJson(prefix: string): string {
  return JSON.stringify(Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`${prefix}.${i}`, `The value of entry ${i}, with {count} things`])));
}

/** Starts an import as `client` with its own abort signal; the answer's status and body when it comes. */
function startImport(t: { fetch(path: string, init?: RequestInit): Promise<Response> }, client: DashboardClient, pid: string, body: unknown, signal?: AbortSignal) {
  return t
    .fetch(`/dashboard/api/projects/${pid}/import`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: client.cookie, "x-csrf-token": client.csrf, origin: ORIGIN },
      body: JSON.stringify(body),
      signal,
    })
    .then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, any> }));
}

/** Whether `output` (a log) holds a line with this message. */
function logged(output: string, msg: string): boolean {
  return output.includes(`"msg":"${msg}"`);
}

function keysUnder(query: (sql: string, ...p: string[]) => { n: number }[], prefix: string): number {
  return query("SELECT count(*) AS n FROM translation_keys WHERE key LIKE ?", `${prefix}%`)[0]!.n;
}

describe("publishing.md §6: a slow import keeps no other project's import waiting, and stops when its caller leaves", () => {
  let t: TestApp;
  let admin: DashboardClient;
  let slowProject: string;
  let otherProject: string;
  const dbPath = () => join(t.dataDir, "phrasebook.db");

  beforeAll(async () => {
    t = await testApp();
    admin = await t.login();
    slowProject = await admin.project("Slow", "en");
    otherProject = await admin.project("Other", "en");
  });
  afterAll(async () => {
    closeWriteLockProbe(dbPath());
    await t.close();
  });

  test("another project's small import is answered while the slow one is still reading its file", async () => {
    const stop = new AbortController();
    let slowAnswered = false;
    const { result: small } = await capturingStdout(async (soFar) => {
      const slow = startImport(t, admin, slowProject, { language_code: "en", format: "yaml", content: slowYaml("slow") }, stop.signal).finally(() => (slowAnswered = true));
      // Its large body is parsed first: the import is under way once the log says it started.
      await eventually(() => logged(soFar(), "import started in a worker"), { timeoutMs: 60_000, what: "the slow import under way" });
      const answer = await admin.post(`/projects/${otherProject}/import`, { language_code: "en", format: "json", content: '{"a":"b"}' });
      // Answered while the slow import was still under way: once, it waited for all of it.
      expect(slowAnswered).toBe(false);
      stop.abort();
      await slow;
      return answer;
    });
    expect(small.status, JSON.stringify(small.body)).toBe(200);
    expect(small.body.created_keys).toBe(1);
  }, 120_000);

  test("an import whose request ends inside its write transaction stops: nothing written, the lock let go, the project's next import runs", async () => {
    const stop = new AbortController();
    const { result, lines } = await capturingStdout(async () => {
      const slow = startImport(t, admin, slowProject, { language_code: "en", format: "json", content: slowJson("gone") }, stop.signal);
      // In the middle of its one transaction: its worker holds the write lock.
      await eventually(() => writeLockHeld(dbPath()), { timeoutMs: 60_000, intervalMs: 5, what: "the import's write transaction" });
      stop.abort();
      const answer = await slow;
      // The project's next import runs only once the one before it is over (they run one at a time).
      const next = await admin.post(`/projects/${slowProject}/import`, { language_code: "en", format: "json", content: '{"after.gone":"x"}' });
      return { answer, next };
    });
    expect(result.answer.status).toBe(499);
    expect(result.next.status, JSON.stringify(result.next.body)).toBe(200);
    expect(lines.some((l) => l.msg === "import stopped: its request ended")).toBe(true);
    expect(writeLockHeld(dbPath())).toBe(false);
    // Nothing of it was written: no key, no value, no history entry.
    expect(keysUnder(t.query, "gone.")).toBe(0);
    expect(t.query<{ n: number }>("SELECT count(*) AS n FROM translation_history WHERE value LIKE 'The value of entry %'")[0]!.n).toBe(0);
  }, 120_000);

  test("an import still waiting behind its project's slow one leaves the queue when its request ends, and never runs", async () => {
    const stopSlow = new AbortController();
    const stopWaiting = new AbortController();
    const slow = startImport(t, admin, slowProject, { language_code: "en", format: "yaml", content: slowYaml("first") }, stopSlow.signal);
    const waiting = startImport(t, admin, slowProject, { language_code: "en", format: "json", content: '{"never.run":"x"}' }, stopWaiting.signal);
    stopWaiting.abort();
    expect((await waiting).status).toBe(499);
    stopSlow.abort();
    expect((await slow).status).toBe(499);
    const next = await admin.post(`/projects/${slowProject}/import`, { language_code: "en", format: "json", content: '{"after.waiting":"x"}' });
    expect(next.status).toBe(200);
    expect(keysUnder(t.query, "never.run")).toBe(0);
    expect(keysUnder(t.query, "first_")).toBe(0);
  }, 120_000);
});

describe("publishing.md §6 Time limit and cancelling: PHRASEBOOK_IMPORT_TIMEOUT ends an import", () => {
  let t: TestApp;
  let admin: DashboardClient;
  let pid: string;

  beforeAll(async () => {
    t = await testApp({ env: { PHRASEBOOK_IMPORT_TIMEOUT: "1" } });
    admin = await t.login();
    pid = await admin.project("Limited", "en");
  });
  afterAll(async () => {
    closeWriteLockProbe(join(t.dataDir, "phrasebook.db"));
    await t.close();
  });

  test("an import past the limit is a 503 naming it; nothing of it is written and the next import runs", async () => {
    const { result, lines } = await capturingStdout(() => admin.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: slowJson("late") }));
    expect(result.status).toBe(503);
    expect(result.body.error).toBe("the import ran longer than 1 s, this server's limit for one import (PHRASEBOOK_IMPORT_TIMEOUT), and was stopped: nothing of it was written");
    expect(lines.some((l) => l.msg === "import stopped at its time limit" && l.limit_seconds === 1)).toBe(true);
    expect(keysUnder(t.query, "late.")).toBe(0);
    await eventually(() => !writeLockHeld(join(t.dataDir, "phrasebook.db")), { what: "the stopped import's lock let go" });
    const next = await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: '{"after.late":"x"}' });
    expect(next.status).toBe(200);
  }, 120_000);
});

describe("publishing.md §6 Time limit and cancelling: the server process, a caller hanging up", () => {
  let server: TestServer;
  let admin: Client;
  let pid: string;

  beforeAll(async () => {
    server = await startServer({ env: { PHRASEBOOK_LOG_REQUESTS: "false" } });
    admin = await Client.loggedIn(server.url);
    pid = await admin.project("Hung up", "en");
  });
  afterAll(async () => {
    await server?.stop();
  });

  test("a caller that hangs up mid-import stops it: the project's next import runs at once and nothing of the first is there", async () => {
    const hangUp = new AbortController();
    const origin = server.url;
    const slow = fetch(`${origin}/dashboard/api/projects/${pid}/import`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: admin.cookie, "x-csrf-token": admin.csrf, origin },
      body: JSON.stringify({ language_code: "en", format: "yaml", content: slowYaml("hung") }),
      signal: hangUp.signal,
    }).catch((err: Error) => err.name);
    // Its body is in and its worker is reading the file once the server says so in its log.
    await eventually(() => logged(server.output(), "import started in a worker"), { timeoutMs: 60_000, what: "the import under way" });
    hangUp.abort();
    expect(await slow).toBe("AbortError");
    const next = await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "json", content: '{"after.hang.up":"x"}' });
    expect(next.status).toBe(200);
    await eventually(() => logged(server.output(), "import stopped: its request ended"), { what: "the log line of the stopped import" });
    expect(server.query<{ n: number }>("SELECT count(*) AS n FROM translation_keys WHERE key LIKE 'hung_%'")[0]!.n).toBe(0);
  }, 120_000);
});
