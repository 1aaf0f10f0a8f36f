/**
 * Driver of bench/hostile-writes.bench.sh (docs/deploy.md "Security notes"): the compiled server
 * (PHRASEBOOK_BIN) under attacks each run as an attacker runs them, one JSON line per
 * scenario (BENCH_SCENARIOS, default all):
 *
 * - `imports`: a slow import in one project (100,000 YAML entries, about 10 MB: seconds of reading
 *   before any write) and, half a second later, another project's 9-byte import: how long that
 *   one took; then the same with the slow import's client hanging up after 1.5 s, and the slow
 *   project's next import after the hang-up.
 * - `writes`: a translator saving 100,000-character values, 8 at a time, for 10 s: saves taken
 *   and refused, and how much the database (with its WAL) grew.
 * - `uploads`: 12 parallel imports of a 16 MB file (escaped into JSON, a few bytes past 16 MB)
 *   from a `read` token with `Expect: 100-continue` on raw sockets, 3 rounds: what each got.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { DashboardClient } from "../../test/helpers/dashboard-client.ts";
import { openRawSocket } from "../../test/helpers/raw-socket.ts";
import { startServer, type TestServer } from "../../test/helpers/server.ts";

const SCENARIOS = (process.env.BENCH_SCENARIOS ?? "imports,writes,uploads").split(",");
const MB = 1024 * 1024;
const emit = (row: Record<string, unknown>) => console.log(JSON.stringify(row));
const round = (ms: number) => Math.round(ms);

async function withServer(env: Record<string, string>, run: (server: TestServer, admin: DashboardClient) => Promise<void>) {
  const server = await startServer({ env: { PHRASEBOOK_LOG_REQUESTS: "false", ...env } });
  try {
    await run(server, await DashboardClient.loggedIn(server.url));
  } finally {
    await server.stop();
  }
}

function slowYaml(prefix: string): string {
  const pad = "x".repeat(60);
  return Array.from({ length: 100_000 }, (_, i) => `${prefix}_${i}: "value ${i} ${pad}"`).join("\n") + "\n";
}

async function imports() {
  await withServer({}, async (server, admin) => {
    const slowPid = await admin.project("Slow", "en");
    const otherPid = await admin.project("Other", "en");
    const send = (pid: string, content: string, format: string, signal?: AbortSignal) =>
      fetch(`${server.url}/dashboard/api/projects/${pid}/import`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: admin.cookie, "x-csrf-token": admin.csrf, origin: server.url },
        body: JSON.stringify({ language_code: "en", format, content }),
        signal,
      }).then(async (r) => ({ status: r.status, text: await r.text() }));
    const timed = async <T>(run: () => Promise<T>) => {
      const t0 = performance.now();
      const result = await run();
      return { ms: round(performance.now() - t0), result };
    };
    // 1. The slow import runs to its end; another project's tiny import half a second in.
    const slow = timed(() => send(slowPid, slowYaml("first"), "yaml"));
    await Bun.sleep(500);
    const tiny = await timed(() => send(otherPid, '{"a":"b"}', "json"));
    const slowDone = await slow;
    // 2. The slow import's caller hangs up after 1.5 s.
    const hangUp = new AbortController();
    const abandoned = send(slowPid, slowYaml("second"), "yaml", hangUp.signal).catch((e: Error) => ({ status: 0, text: e.name }));
    await Bun.sleep(500);
    const tinyWhileHungUp = timed(() => send(otherPid, '{"c":"d"}', "json"));
    await Bun.sleep(1000);
    hangUp.abort();
    await abandoned;
    const next = await timed(() => send(slowPid, '{"after":"x"}', "json"));
    const tinyHung = await tinyWhileHungUp;
    const secondWritten = server.query<{ n: number }>("SELECT count(*) AS n FROM translation_keys WHERE key LIKE 'second_%'")[0]!.n;
    emit({
      scenario: "imports",
      slow_import_ms: slowDone.ms,
      slow_status: slowDone.result.status,
      other_project_tiny_import_ms: tiny.ms,
      other_project_tiny_import_with_hang_up_ms: tinyHung.ms,
      slow_project_next_import_after_hang_up_ms: next.ms,
      keys_written_by_the_abandoned_import: secondWritten,
    });
  });
}

function dbMb(dataDir: string): number {
  const size = (f: string) => (existsSync(join(dataDir, f)) ? statSync(join(dataDir, f)).size : 0);
  return +((size("phrasebook.db") + size("phrasebook.db-wal")) / MB).toFixed(1);
}

async function writes() {
  // The write budget at its default (the test helpers set it high for other tests).
  await withServer({ PHRASEBOOK_WRITE_RATE_LIMIT: "" }, async (server, admin) => {
    const pid = await admin.project("Writes", "en", ["de"]);
    const keys: string[] = [];
    for (let i = 0; i < 20; i++) keys.push(await admin.key(pid, `key.${i}`, { en: `Key ${i}` }));
    const user = await admin.post("/users", { email: "tina@example.test", name: "Tina", password: "tina-password", role: "member" });
    await admin.put(`/projects/${pid}/members/${user.body.id}`, { role: "translator", languages: ["de"] });
    const translator = await DashboardClient.loggedIn(server.url, "tina@example.test", "tina-password");
    const before = dbMb(server.dataDir);
    const big = "x".repeat(100_000 - 8);
    const statuses: Record<string, number> = {};
    let n = 0;
    const deadline = performance.now() + 10_000;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (performance.now() < deadline) {
          const i = n++;
          const r = await translator.put(`/projects/${pid}/keys/${keys[i % keys.length]}/translations/de`, { value: big + String(i).padStart(8, "0") });
          statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        }
      }),
    );
    emit({ scenario: "writes", seconds: 10, saves_sent: n, statuses, database_mb_before: before, database_mb_after: dbMb(server.dataDir) });
  });
}

async function uploads() {
  await withServer({}, async (server, admin) => {
    const pid = await admin.project("Uploads", "en");
    const token = (await admin.post(`/projects/${pid}/tokens`, { name: "App", scopes: ["read"] })).body.token as string;
    const head = new TextEncoder().encode('{"language_code":"en","format":"json","content":"');
    const tail = new TextEncoder().encode('"}');
    const body = new Uint8Array(head.length + 16 * MB + tail.length).fill(0x78);
    body.set(head);
    body.set(tail, body.length - tail.length);
    const rounds: Record<string, number>[] = [];
    for (let r = 0; r < 3; r++) {
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, async () => {
          const raw = await openRawSocket(server.port);
          raw.socket.write(
            [`POST /dashboard/api/projects/${pid}/import HTTP/1.1`, `Host: 127.0.0.1:${server.port}`, `Content-Length: ${body.length}`, "Content-Type: application/json", `Authorization: Bearer ${token}`, "Expect: 100-continue"].join("\r\n") +
              "\r\n\r\n",
          );
          await raw.receivedText("100 Continue\r\n\r\n");
          const sent = await raw.writeAll(body);
          const answered = await Promise.race([raw.receivedText("\r\n\r\n{"), Bun.sleep(5000).then(() => false)]);
          raw.socket.end();
          const text = raw.received().toString("latin1").replace("HTTP/1.1 100 Continue\r\n\r\n", "");
          const status = /^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? "no answer";
          return `${status}${answered ? " with its JSON" : ""}${sent < body.length ? ", closed mid-upload" : ""}`;
        }),
      );
      const counts: Record<string, number> = {};
      for (const o of outcomes) counts[o] = (counts[o] ?? 0) + 1;
      rounds.push(counts);
    }
    emit({ scenario: "uploads", parallel: 12, body_bytes: body.length, rounds });
  });
}

for (const s of SCENARIOS) {
  if (s === "imports") await imports();
  else if (s === "writes") await writes();
  else if (s === "uploads") await uploads();
}
process.exit(0);
