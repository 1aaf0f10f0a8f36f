import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { CliError } from "../common/errors.ts";
import { DATABASE_FILE, openReadOnly, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../storage/db.ts";
import { releases } from "../storage/schema.ts";
import { findLitestream, restoreDatabase } from "./litestream.ts";
import { objectStore } from "../targets/object-store.ts";
import { replicaLocation, type ReplicaSettings } from "../targets/replica.ts";
import { MissingCopyError, restoreRelease } from "../targets/replica-copies.ts";

export interface RestoreSummary {
  dataDir: string;
  releases: number;
  files: number;
  bytes: number;
}

/**
 * `phrasebook restore` (docs/deploy.md "Restore drill"): the newest state of the replica into an
 * empty data dir, the database through `litestream restore`, then the files of every release that
 * database calls published, each checked against its manifest. The data dir then needs nothing
 * else: `phrasebook serve` on it answers every pinned URL with the bytes it had.
 */
export async function restoreFromReplica(settings: ReplicaSettings & { dataDir: string; litestreamBin: string }): Promise<RestoreSummary> {
  const target = replicaLocation(settings);
  if (!target) throw new CliError("restore needs the replica to restore from: set PHRASEBOOK_REPLICA_URL (or --replica-url)");
  const bin = findLitestream(settings.litestreamBin);
  const { dataDir } = settings;
  const existed = existsSync(dataDir);
  if (existed && readdirSync(dataDir).length > 0) {
    throw new CliError(`the data dir ${dataDir} is not empty; restore into a new or empty folder (PHRASEBOOK_DATA_DIR or --data-dir)`);
  }
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const dbPath = join(dataDir, DATABASE_FILE);
  const summary: RestoreSummary = { dataDir, releases: 0, files: 0, bytes: 0 };
  try {
    await restoreDatabase(bin, dbPath, target, dbPath);
    chmodSync(dbPath, PRIVATE_FILE_MODE);
    const db = openReadOnly(dbPath);
    let published: string[];
    try {
      published = db.select({ id: releases.publicId }).from(releases).where(eq(releases.status, "published")).all().map((r) => r.id);
    } finally {
      db.$client.close();
    }
    const files = objectStore(target);
    for (const id of published.sort()) {
      const restored = await restoreRelease(files, dataDir, id);
      summary.releases++;
      summary.files += restored.files;
      summary.bytes += restored.bytes;
    }
    return summary;
  } catch (err) {
    // Nothing half-restored is left to be mistaken for a data dir.
    if (existed) for (const name of readdirSync(dataDir)) rmSync(join(dataDir, name), { recursive: true, force: true });
    else rmSync(dataDir, { recursive: true, force: true });
    if (err instanceof MissingCopyError) throw new CliError(`${err.message}; nothing was restored`);
    throw err;
  }
}
