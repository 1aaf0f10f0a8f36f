/**
 * The release diff at size (docs/releases.md "Diff"): a project of BENCH_KEYS keys (default
 * 100,000) in BENCH_LANGUAGES languages (default 50), published, then every value of one language
 * in ten changed and published again; times the diff of the two releases and of a draft against
 * latest, and the process's peak memory. Data is written with SQL (the bench is about the diff,
 * not imports); publishing and diffing are the services the routes call.
 * Usage: bun bench/diff.bench.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createProject, findProject } from "../src/authoring/projects.ts";
import { addLanguage } from "../src/authoring/languages.ts";
import { loadSettings } from "../src/config/settings.ts";
import { diffRelease } from "../src/releases/diff.ts";
import { publishRelease } from "../src/releases/publish.ts";
import { createRelease } from "../src/releases/releases.ts";
import { openApp } from "../src/server.ts";

const KEYS = Number(process.env.BENCH_KEYS ?? 100_000);
const LANGUAGES = Number(process.env.BENCH_LANGUAGES ?? 50);
const dir = mkdtempSync(join(tmpdir(), "phrasebook-bench-diff-"));
const { deps } = await openApp(loadSettings({ PHRASEBOOK_DATA_DIR: dir, PHRASEBOOK_LOG_REQUESTS: "false", PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" }));
const { db } = deps;
const view = createProject(deps, { name: "Diff bench", base_language_code: "en" });
let project = findProject(db, view.id);
// en-AA, en-AB, ...: valid tags, as many as asked.
const codes = Array.from({ length: LANGUAGES - 1 }, (_, i) => `en-${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`);
for (const code of codes) addLanguage(deps, project, { code });
const languageIds = db.$client.query<{ id: number; code: string }, [number]>("SELECT id, code FROM languages WHERE project_id = ?").all(project.id);
const c = db.$client;
c.run("BEGIN");
const insertKey = c.prepare("INSERT INTO translation_keys (public_id, project_id, key, created_at, updated_at) VALUES (?, ?, ?, 0, 0)");
for (let i = 0; i < KEYS; i++) insertKey.run(`key_${String(i).padStart(20, "0")}`, project.id, `screen${i % 50}.item_${i}`);
const setValues = (round: number) => {
  for (const { id, code } of languageIds) {
    c.run(
      `INSERT INTO translations (key_id, language_id, value, status, updated_at) SELECT k.id, ?, ? || ' ' || k.key || CASE WHEN ? > 0 AND k.id % 10 = 0 THEN ' changed' ELSE '' END, 'translated', 0 FROM translation_keys k WHERE k.project_id = ?
       ON CONFLICT (key_id, language_id) DO UPDATE SET value = excluded.value`,
      [id, code, round, project.id],
    );
  }
};
setValues(0);
c.run("COMMIT");
c.run("UPDATE translations SET checked_at = 0");

const time = async <T>(what: string, f: () => Promise<T>) => {
  const started = performance.now();
  const out = await f();
  console.log(`${what}: ${Math.round(performance.now() - started)} ms, rss ${Math.round(process.memoryUsage().rss / 1024 / 1024)} MB`);
  return out;
};
project = findProject(db, view.id);
const publish = async (tag: string) => {
  const draft = createRelease(deps, project, null, { name: tag, tag });
  return time(`publish ${tag}`, () => publishRelease(deps, dir, project, draft.id, { allowErrors: true }));
};
const first = await publish("one");
c.run("BEGIN");
setValues(1);
c.run("COMMIT");
const second = await publish("two");
const draft = createRelease(deps, project, null, { name: "draft", tag: "draft" });
const a = await time("diff two against one (published, files)", () => diffRelease(db, dir, project, second.publicId, first.publicId));
const b = await time("diff draft against latest (snapshot and files)", () => diffRelease(db, dir, project, draft.id, "latest"));
console.log(`counts: ${JSON.stringify(a.counts)} / ${JSON.stringify(b.counts)}; ${KEYS} keys x ${LANGUAGES} languages`);
db.$client.close();
rmSync(dir, { recursive: true, force: true });
