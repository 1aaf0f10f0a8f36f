import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { RELEASES_DIR, releaseDir } from "../bundles/layout.ts";
import { CliError } from "../common/errors.ts";
import { publishedReleaseIds } from "../releases/publish.ts";
import { copyDatabase, DATABASE_FILE, openDatabase, openReadOnly } from "../storage/db.ts";
import { migrate } from "../storage/migrate.ts";
import { TarWriter } from "./tar.ts";

/**
 * `phrasebook backup FILE` (docs/product.md §1, docs/deploy.md "Backups"): a consistent copy taken
 * while the server runs.
 *
 * 1. `VACUUM INTO` writes a transactionally consistent copy of the database (a WAL reader, so the
 *    server keeps writing meanwhile).
 * 2. The release files of exactly the releases published in that copy are streamed into the
 *    archive. Published files never change, so they match the copy.
 * 3. The archive is written beside FILE and renamed into place, so FILE is whole or absent. It
 *    holds password hashes and webhook secrets, so it is created readable by its owner only, and
 *    its entries unpack so (docs/deploy.md "Security notes").
 * 4. On a full disk nothing is left behind: the scratch folder goes, FILE is untouched, and the
 *    command says so in one line.
 *
 * Restore: unpack into an empty data dir (`tar -xf FILE -C /var/lib/phrasebook`) and start.
 */
export interface BackupSummary {
  file: string;
  releases: number;
  files: number;
  bytes: number;
  missing: string[];
}

const ARCHIVE_MODE = 0o600;

export async function backup(dataDir: string, file: string): Promise<BackupSummary> {
  if (!existsSync(join(dataDir, DATABASE_FILE))) throw new CliError(`no Phrasebook database in ${dataDir}`);
  const scratch = mkdtempSync(join(dirname(file), `.${basename(file)}.`));
  const snapshotPath = join(scratch, DATABASE_FILE);
  const partial = join(scratch, "archive.tar");
  try {
    const live = openDatabase(dataDir);
    try {
      migrate(live.$client); // refuses a data dir from a newer build, upgrades an older one
      copyDatabase(live, snapshotPath);
    } finally {
      live.$client.close();
    }

    const snapshot = openReadOnly(snapshotPath);
    const releaseIds = [...publishedReleaseIds(snapshot)].sort();
    snapshot.$client.close();

    const now = Date.now() / 1000;
    closeSync(openSync(partial, "wx", ARCHIVE_MODE)); // the writer keeps the mode of the file it opens
    const tar = new TarWriter(Bun.file(partial).writer({ highWaterMark: 1024 * 1024 }));
    const summary: BackupSummary = { file, releases: releaseIds.length, files: 1, bytes: 0, missing: [] };
    const dbSize = statSync(snapshotPath).size;
    await tar.file(DATABASE_FILE, snapshotPath, dbSize, now);
    summary.bytes += dbSize;
    tar.directory(RELEASES_DIR, now);
    for (const id of releaseIds) {
      const dir = releaseDir(dataDir, id);
      if (!existsSync(dir)) {
        // Deleted between the snapshot and now: the restored server will answer 404 for it.
        summary.missing.push(id);
        continue;
      }
      tar.directory(`${RELEASES_DIR}/${id}`, now);
      for (const name of readdirSync(dir).sort()) {
        if (name.startsWith(".")) continue; // temporary files of an interrupted write
        const path = join(dir, name);
        const stat = statSync(path);
        if (!stat.isFile()) continue; // app builds' files (b/), made again on request (docs/delivery.md "App builds")
        await tar.file(`${RELEASES_DIR}/${id}/${name}`, path, stat.size, stat.mtimeMs / 1000);
        summary.files++;
        summary.bytes += stat.size;
      }
    }
    await tar.finish();
    renameSync(partial, file);
    return summary;
  } catch (err) {
    const code = (err as { code?: unknown })?.code;
    if (code === "ENOSPC" || code === "EDQUOT" || code === "SQLITE_FULL") {
      throw new CliError(`cannot write ${file}: the disk is full; nothing was written`);
    }
    throw err;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

