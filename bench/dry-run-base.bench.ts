/**
 * A pull request's dry run with its base file (docs/automation.md "Checking a pull request"): a
 * project of 100,000 keys in en and de; times the dry run of the unchanged German file without
 * and with the English file as `base`, twice each. Usage: bun bench/dry-run-base.bench.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { addLanguage } from "../src/authoring/languages.ts";
import { createProject, findProject } from "../src/authoring/projects.ts";
import { importTranslations } from "../src/authoring/import.ts";
import { loadSettings } from "../src/config/settings.ts";
import { openApp } from "../src/server.ts";
const dir = mkdtempSync(join(tmpdir(), "drybench-"));
const { deps } = await openApp(loadSettings({ PHRASEBOOK_DATA_DIR: dir, PHRASEBOOK_LOG_REQUESTS: "false", PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "" }));
const view = createProject(deps, { name: "b", base_language_code: "en" });
let project = findProject(deps.db, view.id);
addLanguage(deps, project, { code: "de" });
project = findProject(deps.db, view.id);
const en: Record<string, string> = {}, de: Record<string, string> = {};
for (let i = 0; i < 100_000; i++) { en[`screen${i % 50}.item_${i}`] = `Item {count} number ${i}`; de[`screen${i % 50}.item_${i}`] = `Ding {count} Nummer ${i}`; }
const actor = { kind: "user", publicId: "usr_x", name: "x" } as any;
await importTranslations(deps, project, { format: "json", language_code: "en", content: JSON.stringify(en) }, actor);
await importTranslations(deps, project, { format: "json", language_code: "de", content: JSON.stringify(de) }, actor);
for (const i of [0, 1]) for (const withBase of [false, true]) {
  const t = performance.now();
  const r = await importTranslations(deps, project, { format: "json", language_code: "de", content: JSON.stringify(de), dry_run: true, ...(withBase ? { base: { format: "json", content: JSON.stringify(en) } } : {}) }, actor);
  console.log(`dry run of de, 100,000 keys, ${withBase ? "with" : "without"} base: ${Math.round(performance.now() - t)} ms (unchanged ${r.unchanged})`);
}
rmSync(dir, { recursive: true, force: true });
