/**
 * App builds and manifests at size (docs/delivery.md): a project of BENCH_KEYS keys (default
 * 100,000) in BENCH_LANGUAGES languages (default 5), values with a placeholder, published; a
 * build registered whose messages lack one key in ten. Times, in-process through the app's CDN:
 * the publish; the first request of `latest`'s manifest and of its signature; the first request of
 * one of the build's files (the release's placeholders read, the language filtered and written);
 * the next language's; the build's manifest (every language made); and, per request, a cached
 * manifest's 304 against a cached file's 304. Data is written with SQL.
 * Usage: bun bench/builds.bench.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addLanguage } from "../src/authoring/languages.ts";
import { createProject, findProject } from "../src/authoring/projects.ts";
import { loadSettings } from "../src/config/settings.ts";
import { registerBuild } from "../src/delivery/builds.ts";
import { publishRelease } from "../src/releases/publish.ts";
import { createRelease } from "../src/releases/releases.ts";
import { openApp } from "../src/server.ts";

const KEYS = Number(process.env.BENCH_KEYS ?? 100_000);
const LANGUAGES = Number(process.env.BENCH_LANGUAGES ?? 5);
const dir = mkdtempSync(join(tmpdir(), "phrasebook-bench-builds-"));
const { deps, app } = await openApp(loadSettings({ PHRASEBOOK_DATA_DIR: dir, PHRASEBOOK_LOG_REQUESTS: "false", PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" }));
const { db } = deps;
const view = createProject(deps, { name: "Builds bench", base_language_code: "en" });
let project = findProject(db, view.id);
const codes = Array.from({ length: LANGUAGES - 1 }, (_, i) => `en-${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`);
for (const code of codes) addLanguage(deps, project, { code });
const c = db.$client;
c.run("BEGIN");
const insertKey = c.prepare("INSERT INTO translation_keys (public_id, project_id, key, created_at, updated_at) VALUES (?, ?, ?, 0, 0)");
for (let i = 0; i < KEYS; i++) insertKey.run(`key_${String(i).padStart(20, "0")}`, project.id, `screen${i % 50}.item_${i}`);
for (const { id, code } of c.query<{ id: number; code: string }, [number]>("SELECT id, code FROM languages WHERE project_id = ?").all(project.id)) {
  c.run("INSERT INTO translations (key_id, language_id, value, status, updated_at, checked_at) SELECT k.id, ?, ? || ' {name} ' || k.key, 'translated', 0, 0 FROM translation_keys k WHERE k.project_id = ?", [id, code, project.id]);
}
c.run("COMMIT");

const time = async <T>(what: string, f: () => Promise<T>) => {
  const started = performance.now();
  const out = await f();
  console.log(`${what.padEnd(58)} ${(performance.now() - started).toFixed(0).padStart(7)} ms`);
  return out;
};
const get = (path: string, headers: Record<string, string> = {}) => app.handle(new Request(`http://localhost:8080/cdn/${path}`, { headers }));

const draft = createRelease(deps, project, null, { name: "v1", tag: "v1" });
await time(`publish ${KEYS} keys x ${LANGUAGES} languages`, () => publishRelease(deps, dir, project, draft.id));
project = findProject(db, view.id);
const slug = project.cdnSlug;
await time("latest's manifest, first request", async () => (await get(`p/${slug}/r/latest/manifest.json`)).arrayBuffer());
await time("its signature, first request", async () => (await get(`p/${slug}/r/latest/manifest.json.minisig`)).arrayBuffer());
const base: Record<string, string> = {};
for (let i = 0; i < KEYS; i++) if (i % 10 !== 0) base[`screen${i % 50}.item_${i}`] = `en {name} screen${i % 50}.item_${i}`;
const build = await time("register a build (9 keys in 10)", () => registerBuild(deps, dir, project, { files: [{ format: "json", content: JSON.stringify(base) }] }));
const first = await time("a build's file, first request (en.json)", async () => (await get(`p/${slug}/r/latest/b/${build.build_id}/en.json`)).arrayBuffer());
await time(`the next language's file, first request (${codes[0] ?? "en"}.arb)`, async () => (await get(`p/${slug}/r/latest/b/${build.build_id}/${codes[0] ?? "en"}.arb`)).arrayBuffer());
await time("the build's manifest, first request", async () => (await get(`p/${slug}/r/latest/b/${build.build_id}/manifest.json`)).arrayBuffer());
console.log(`build file en.json: ${(first.byteLength / 1024 / 1024).toFixed(1)} MB`);

const ROUNDS = 200_000;
const per = async (what: string, path: string) => {
  const etag = (await get(path)).headers.get("etag")!;
  const started = performance.now();
  for (let i = 0; i < ROUNDS; i++) await get(path, { "if-none-match": etag });
  console.log(`${what.padEnd(58)} ${(((performance.now() - started) * 1000) / ROUNDS).toFixed(2).padStart(7)} µs`);
};
await per("a file's 304, per request", `p/${slug}/r/latest/en.json`);
await per("latest's manifest's 304, per request", `p/${slug}/r/latest/manifest.json`);
await per("a file's 304, per request (again)", `p/${slug}/r/latest/en.json`);
await deps.targets.stop();
c.close();
rmSync(dir, { recursive: true, force: true });
