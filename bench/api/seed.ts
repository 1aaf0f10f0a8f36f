/**
 * Bench-only: a data dir holding one project with 10,000 published releases (3 languages each) and
 * an API token. Releases are inserted straight into SQLite (publishing 10,000 times through the
 * dashboard would write 90,000 files and take minutes); the project and token go through the
 * authoring services. Prints the token on stdout.
 * Usage: bun bench/api/seed.ts DATA_DIR [RELEASES]
 */
import { addLanguage } from "../../src/authoring/languages.ts";
import { createProject, findProject } from "../../src/authoring/projects.ts";
import { Changes } from "../../src/changes/changes.ts";
import { systemClock } from "../../src/common/clock.ts";
import { newId, newSlug } from "../../src/common/ids.ts";
import { openDatabase } from "../../src/storage/db.ts";
import { migrate } from "../../src/storage/migrate.ts";
import { createToken } from "../../src/tokens/tokens.ts";

const [dataDir, count = "10000"] = process.argv.slice(2);
if (!dataDir) throw new Error("usage: seed.ts DATA_DIR [RELEASES]");
const RELEASES = Number(count);
const WORDS = ["spring", "summer", "autumn", "winter", "launch", "hotfix", "checkout", "onboarding", "Straße", "Äpfel"];

const db = openDatabase(dataDir);
migrate(db.$client);
const deps = { db, clock: systemClock, changes: new Changes(db, systemClock) };
const view = createProject(deps, { name: "Bench", base_language_code: "en" });
const project = findProject(db, view.id);
addLanguage(deps, project, { code: "de" });
addLanguage(deps, project, { code: "pt-BR" });
const { token } = createToken(deps, project, { name: "bench" });

const sqlite = db.$client;
const insertRelease = sqlite.prepare(
  "INSERT INTO releases (public_id, project_id, name, tag, status, slug, created_by, created_at, published_at) VALUES (?, ?, ?, ?, 'published', ?, NULL, ?, ?)",
);
const insertLanguage = sqlite.prepare("INSERT INTO release_languages (release_id, code, name, is_base_language) VALUES (?, ?, ?, ?)");
const start = Date.UTC(2024, 0, 1);
sqlite.transaction(() => {
  for (let i = 0; i < RELEASES; i++) {
    const created = start + i * 60_000;
    // Published a little out of creation order, so published_at and created_at orders differ.
    const published = created + ((i * 7919) % 50) * 60_000;
    const name = `Release ${String(i + 1).padStart(5, "0")} ${WORDS[i % WORDS.length]}`;
    const tag = `v${Math.floor(i / 1000)}.${Math.floor(i / 10) % 100}.${i % 10}`;
    const row = insertRelease.run(newId("rel"), project.id, name, tag, newSlug(), created, published);
    const id = Number(row.lastInsertRowid);
    insertLanguage.run(id, "de", "German", 0);
    insertLanguage.run(id, "en", "English", 1);
    insertLanguage.run(id, "pt-BR", "Brazilian Portuguese", 0);
  }
})();
sqlite.close();
process.stdout.write(token + "\n");
