/**
 * YAML imports under 128K characters were once parsed on the server's own thread, and the limit of
 * 100 aliases was checked only once the whole document had been composed: four clients looping
 * 125 KB alias files (from one member or `write` token) held CDN files for seconds (p50 2.9 s)
 * and `/healthz` for over a second. Every import, of any format and size, is now parsed and
 * checked on a worker thread, and the alias limit is enforced from the file's tokens before any
 * document is composed (docs/publishing.md §6).
 *
 * No timed bound here (the latency figures are bench/import-stall.bench.sh's, in bench/RESULTS.md):
 * what a test can hold is the order of things. While four clients loop such imports, the CDN and
 * `/healthz` are asked again as soon as they answer; on the server's thread each import held every
 * other request from its start to its end, so answers came only between imports. Now they keep
 * coming while the imports are still running.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;
let pid: string;
let latestUrl: string;

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Stall", "en");
  await admin.key(pid, "existing.key", { en: "Existing" });
  const release = await admin.post(`/projects/${pid}/releases`, { name: "Launch", tag: "v1" });
  const published = await admin.post(`/projects/${pid}/releases/${release.body.id}/publish`);
  latestUrl = published.body.languages[0].download_urls.json.replace(/\/r\/[^/]+\//, "/r/latest/");
});
afterAll(() => t.close());

/**
 * The attack's file: one anchored mapping of `keys` entries and 100 aliases of it (the most one
 * file may hold), about 125 KB: it expands past the 100,000-entry limit only after all the work.
 */
function aliasFile(keys = 1650): string {
  const anchor = Array.from({ length: keys }, (_, i) => `  key_${String(i).padStart(5, "0")}: "A value of the anchored map, number ${i}, xxxxxxxxxxxxxxxx"`);
  const aliases = Array.from({ length: 100 }, (_, i) => `copy_${i}: *base`);
  return ["base: &base", ...anchor, ...aliases].join("\n") + "\n";
}

describe("publishing.md §6 Not holding up other requests: YAML imports of any size run off the server's thread", () => {
  test("while four clients send 125 KB alias imports at once, the CDN and /healthz keep answering during them", async () => {
    const content = aliasFile();
    expect(content.length).toBeGreaterThan(120_000);
    expect(content.length).toBeLessThan(128 * 1024); // the size that was parsed on the server's thread
    const ci = t.client();
    ci.bearer = (await admin.post(`/projects/${pid}/tokens`, { name: "CI", scopes: ["write"] })).body.token;

    let running = 0;
    let importsDone = 0;
    // Answers per stretch between two imports ending (the first from the start): one import's run.
    const answersBetween: number[] = [0, 0, 0, 0, 0];
    const statuses: number[] = [];
    const importing = Promise.all(
      Array.from({ length: 4 }, async (_, client) => {
        for (let round = 0; round < 1; round++) {
          running++;
          const r = await (client % 2 ? ci : admin).post(`/projects/${pid}/import`, { language_code: "en", format: "yaml", content });
          running--;
          importsDone++;
          statuses.push(r.status);
        }
      }),
    );
    let finished = false;
    void importing.finally(() => (finished = true));
    // Asked again as soon as answered; an answer counts when imports were running before and after it.
    const probe = async (path: string, expectBody: (res: Response) => Promise<void>) => {
      while (!finished) {
        const before = importsDone;
        const wasRunning = running > 0;
        const res = await t.fetch(path);
        expect(res.status).toBe(200);
        await expectBody(res);
        if (wasRunning && running > 0 && importsDone === before) answersBetween[before]!++;
        await Bun.sleep(2); // a client's pace, not a busy loop that would starve the import's thread
      }
    };
    await Promise.all([
      importing,
      probe(latestUrl, async (res) => expect(await res.json()).toEqual({ "existing.key": "Existing" })),
      probe("/healthz", async (res) => void (await res.text())),
    ]);
    // The file expands to 166,650 entries: refused naming the entry limit, with nothing written.
    expect(statuses).toEqual(Array(4).fill(413));
    expect(t.query<{ n: number }>("SELECT count(*) AS n FROM translation_keys")[0]!.n).toBe(1);
    // Answers that came while one import was under way, no import ending in between: with the
    // imports on the server's thread there were only the few before each one's parse began (it then
    // held everything until it ended); off it, they keep coming for the whole of the import.
    expect(Math.max(...answersBetween), `answers between import ends: ${answersBetween.join(", ")}`).toBeGreaterThanOrEqual(30);
  }, 300_000);
});

describe("publishing.md §6 Limits: the alias limit is enforced while reading the file's tokens, before a document is composed", () => {
  test("101 aliases are refused at the 101st, even when the file turns invalid further on", async () => {
    const content = ["base: &base v", ...Array.from({ length: 101 }, (_, i) => `k${i}: *base`), "broken: [unclosed", "more: {"].join("\n") + "\n";
    const r = await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "yaml", content });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(`invalid field "content": line 102, column 7: more than 100 aliases (the limit of one file)`);
  });

  test("100 aliases are taken, and `*` inside quoted and block scalars is text, not an alias", async () => {
    const content = ["base: &base v", ...Array.from({ length: 100 }, (_, i) => `k${i}: *base`), `quoted: "*not an alias"`, `single: '*nor this'`, "block: |", "  *nor this", ""].join("\n");
    const r = await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "yaml", content, dry_run: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.created_keys).toBe(104);
  });
});
