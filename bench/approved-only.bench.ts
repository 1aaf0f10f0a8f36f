/**
 * Publishing reviewed strings only at size (docs/releases.md "Reviewed strings only"): a project of
 * BENCH_KEYS keys (default 100,000) in BENCH_LANGUAGES languages (default 50) where, in every
 * language but the base, a third of the values are approved as they are, a third were approved
 * and edited since (their approved value is in the history) and a third were never approved; each
 * value has its import in the history too. Times the read of one language's approved values with
 * the query publishing uses (QUERY=new, the default), then a whole publish with
 * `publish_approved_only` on and the process's peak memory; or (QUERY=old) the read as it was
 * before the approvals index, with that index dropped (SQLite would otherwise use it for the old
 * query too), and no publish. Data is written with SQL (the bench is about the read, not imports).
 * Usage: bun bench/approved-only.bench.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addLanguage } from "../src/authoring/languages.ts";
import { createProject, findProject } from "../src/authoring/projects.ts";
import { loadSettings } from "../src/config/settings.ts";
import { publishRelease } from "../src/releases/publish.ts";
import { prepareSnapshotQueries } from "../src/releases/queries.ts";
import { createRelease } from "../src/releases/releases.ts";
import { openApp } from "../src/server.ts";

const KEYS = Number(process.env.BENCH_KEYS ?? 100_000);
const LANGUAGES = Number(process.env.BENCH_LANGUAGES ?? 50);
/** The read of approved values as it was before the approvals index: a history walk per value. */
const OLD_QUERY = `SELECT key_id, value FROM (
   SELECT t.key_id AS key_id, CASE WHEN t.status = 'approved' THEN t.value ELSE (
     SELECT h.value FROM translation_history h
     WHERE h.key_id = t.key_id AND h.language_id = t.language_id AND h.status = 'approved'
     ORDER BY h.id DESC LIMIT 1) END AS value
   FROM translations t WHERE t.language_id = ?)
 WHERE value IS NOT NULL`;

const dir = mkdtempSync(join(tmpdir(), "phrasebook-bench-approved-"));
const { deps } = await openApp(loadSettings({ PHRASEBOOK_DATA_DIR: dir, PHRASEBOOK_LOG_REQUESTS: "false", PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" }));
const { db } = deps;
const c = db.$client;
const view = createProject(deps, { name: "Approved only bench", base_language_code: "en" });
let project = findProject(db, view.id);
const codes = Array.from({ length: LANGUAGES - 1 }, (_, i) => `en-${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`);
for (const code of codes) addLanguage(deps, project, { code });
const languages = c.query<{ id: number; code: string }, [number]>("SELECT id, code FROM languages WHERE project_id = ?").all(project.id);

const started = performance.now();
c.run("BEGIN");
const insertKey = c.prepare("INSERT INTO translation_keys (public_id, project_id, key, created_at, updated_at) VALUES (?, ?, ?, 0, 0)");
for (let i = 0; i < KEYS; i++) insertKey.run(`key_${String(i).padStart(20, "0")}`, project.id, `screen${i % 50}.item_${i}`);
const history = (status: string, value: string, where: string, id: number) =>
  c.run(
    `INSERT INTO translation_history (key_id, language_id, value, status, by_kind, by_public_id, by_name, via, at)
     SELECT k.id, ?, ${value}, '${status}', 'user', 'usr_bench', 'Bench', 'edit', 0 FROM translation_keys k WHERE k.project_id = ? AND ${where}`,
    [id, project.id],
  );
for (const { id, code } of languages) {
  const base = code === "en";
  // k.id % 3: 0 approved as it is, 1 approved then edited, 2 never approved (the base: as it is).
  c.run(
    `INSERT INTO translations (key_id, language_id, value, status, updated_at, checked_at)
     SELECT k.id, ?, ? || ' ' || k.key || CASE WHEN k.id % 3 = 1 THEN ' edited' ELSE '' END, CASE WHEN ? = 0 AND k.id % 3 = 0 THEN 'approved' ELSE 'translated' END, 0, 0
     FROM translation_keys k WHERE k.project_id = ?`,
    [id, code, base ? 1 : 0, project.id],
  );
  history("translated", `'${code} ' || k.key`, "1", id);
  if (base) continue;
  history("approved", `'${code} ' || k.key`, "k.id % 3 <> 2", id);
  history("translated", `'${code} ' || k.key || ' edited'`, "k.id % 3 = 1", id);
}
c.run("COMMIT");
console.log(`${KEYS} keys x ${LANGUAGES} languages written in ${Math.round(performance.now() - started)} ms`);

const other = languages.find((l) => l.code !== "en")!;
const old = process.env.QUERY === "old";
if (old) c.run("DROP INDEX translation_history_approved_idx");
const read = old ? c.query<[number, string], [number]>(OLD_QUERY) : prepareSnapshotQueries(db).approvedValues;
for (let round = 1; round <= 3; round++) {
  const t0 = performance.now();
  const rows = read.values(other.id);
  console.log(`read of ${other.code}'s approved values (${old ? "old" : "new"} query), round ${round}: ${Math.round(performance.now() - t0)} ms, ${rows.length} values`);
}

if (old) {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
c.run("UPDATE projects SET publish_approved_only = 1 WHERE id = ?", [project.id]);
project = findProject(db, view.id);
const draft = createRelease(deps, project, null, { name: "approved", tag: "approved" });
const t1 = performance.now();
await publishRelease(deps, dir, project, draft.id, { allowErrors: true });
console.log(`publish with publish_approved_only: ${Math.round(performance.now() - t1)} ms, peak rss ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
db.$client.close();
rmSync(dir, { recursive: true, force: true });
