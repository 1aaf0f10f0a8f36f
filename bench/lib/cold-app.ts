/**
 * Start-up of the app in a fresh process (docs/architecture.md "Start-up"): `createApp(deps)` and
 * then the first `GET /healthz` answered in-process, both cold (the first and only call), in ms, as
 * one JSON line. The database is opened and migrated before the clock starts, so only building the
 * app and its first answer are timed. Run it a few times, one process each; to compare with another
 * revision, run this file against that revision's sources (its `src/` is imported from the given
 * root; they must have the same module layout for `createApp`).
 * Usage: bun bench/lib/cold-app.ts [source root, default this checkout]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(process.argv[2] ?? join(import.meta.dir, "../.."));
const { loadSettings } = await import(`${root}/src/config/settings.ts`);
const { openDatabase } = await import(`${root}/src/storage/db.ts`);
const { migrate } = await import(`${root}/src/storage/migrate.ts`);
const { Changes } = await import(`${root}/src/changes/changes.ts`);
const { Observability } = await import(`${root}/src/observability/index.ts`);
const { systemClock } = await import(`${root}/src/common/clock.ts`);
const { createApp } = await import(`${root}/src/app.ts`);

const dir = mkdtempSync("/tmp/phrasebook-cold-app-");
const settings = loadSettings({ PHRASEBOOK_DATA_DIR: dir, PHRASEBOOK_LOG_REQUESTS: "false" });
const db = openDatabase(dir);
migrate(db.$client);
const deps = { settings, db, clock: systemClock, changes: new Changes(db, systemClock), observability: new Observability({ logRequests: false }) };

let started = performance.now();
const app = createApp(deps);
const createMs = performance.now() - started;
started = performance.now();
const res = await app.handle(new Request(`${settings.publicUrl}/healthz`));
await res.text();
const healthzMs = performance.now() - started;
if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
console.log(JSON.stringify({ createApp: +createMs.toFixed(2), firstHealthz: +healthzMs.toFixed(2) }));

db.$client.close();
rmSync(dir, { recursive: true, force: true });
