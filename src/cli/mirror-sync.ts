import { existsSync } from "node:fs";
import { join } from "node:path";
import { systemClock } from "../common/clock.ts";
import { CliError } from "../common/errors.ts";
import { loadSettings } from "../config/settings.ts";
import { DATABASE_FILE, openReadOnly } from "../storage/db.ts";
import { mirrorLocation } from "../targets/mirror/location.ts";
import { StoreError } from "../targets/mirror/bucket.ts";
import { syncMirror } from "../targets/mirror/sync.ts";
import { PathRecord } from "../changes/paths.ts";
import { cdnRenderer } from "../delivery/cdn-renderer.ts";

/**
 * `phrasebook mirror sync [--no-delete]` (docs/deploy.md "Object storage and CDN purge"), on the
 * server's machine with its settings, the server running or not: the bucket is made to hold
 * exactly what the CDN serves. Exit 0 when every copy and deletion succeeded, 2 when the store
 * refused any (each named on standard error), or when the CDN kept changing throughout.
 */
export async function runMirrorSync(flags: Record<string, string>, keepStray: boolean): Promise<number> {
  const settings = loadSettings(process.env, flags);
  const location = mirrorLocation(settings);
  if (!location) throw new CliError("PHRASEBOOK_S3_BUCKET is not set: there is no mirror to sync (docs/deploy.md \"Object storage and CDN purge\")");
  if (!location.accessKeyId || !location.secretAccessKey) throw new CliError("PHRASEBOOK_S3_ACCESS_KEY_ID and PHRASEBOOK_S3_SECRET_ACCESS_KEY (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) are required");
  const dbPath = join(settings.dataDir, DATABASE_FILE);
  if (!existsSync(dbPath)) throw new CliError(`no database in ${settings.dataDir} (PHRASEBOOK_DATA_DIR): run mirror sync with the server's settings`);
  // Read-only: the server may be running and writing; this only reads what it serves.
  const db = openReadOnly(dbPath);
  try {
    const outcome = await syncMirror({ db, clock: systemClock, settings, renderer: cdnRenderer({ settings, db, paths: new PathRecord(db, systemClock) }), fetch: (input, init) => fetch(input, init) }, location, { keepStray });
    for (const line of outcome.failures) process.stderr.write(`phrasebook: ${line}\n`);
    const target = `${location.bucket}${location.prefix ? `/${location.prefix}` : ""}`;
    process.stdout.write(
      `mirror sync of ${target}: ${outcome.objects} object(s) served, ${outcome.copied} copied, ${outcome.deleted} deleted` +
        (keepStray ? `, ${outcome.kept} the CDN would not serve kept (--no-delete)` : "") +
        `, ${outcome.failures.length} failed\n`,
    );
    if (!outcome.settled && outcome.failures.length === 0) process.stderr.write("phrasebook: the CDN kept changing while the bucket was synced; run mirror sync again\n");
    return outcome.settled ? 0 : 2;
  } catch (err) {
    if (err instanceof StoreError) throw new CliError(`the bucket ${location.bucket} cannot be read: ${err.message}`);
    throw err;
  } finally {
    db.$client.close();
  }
}
