import { closeSync, fsync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from "node:fs";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { randomString } from "../common/ids.ts";
import { log } from "../common/log.ts";
import { releaseDir, releasesRoot, STAGING_PREFIX } from "./layout.ts";

/** Prefix of a file being written in place of another; a crash can leave one, the start removes it. */
export const TEMP_PREFIX = ".tmp-";

/**
 * Release files and their folders are the owner's only (docs/deploy.md "Security notes"), like the
 * database beside them: other users of the machine have no business reading them from the disk.
 */
const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * The file a publish writes first into its staging folder, holding the release's id; the rename
 * carries it into the release's folder. It is what makes a folder Phrasebook's: the start removes
 * a folder only when it carries this marker naming that very release (cleanStrayReleaseFiles),
 * never because its name looks like a release id (docs/publishing.md §5).
 */
export const RELEASE_MARKER = ".phrasebook-release";

/** What the marker of a release's folder holds. */
export function releaseMarkerText(releasePublicId: string): string {
  return `${releasePublicId}\n`;
}

/** The names this code gives what it writes (cleanStrayReleaseFiles), checked beside the marker. */
const RELEASE_ID = /^rel_[0-9A-Za-z]{20}$/;
const STAGING_NAME = /^\.staging-(rel_[0-9A-Za-z]{20})-[0-9A-Za-z]{8}$/; // ReleaseStaging's path
const TEMP_NAME = /^\.tmp-[0-9A-Za-z]{8}-/; // writeAtomic's temporary file

/** Whether the folder `dir` is a real folder (not a link) carrying the marker of `releasePublicId`. */
function carriesMarker(dir: string, releasePublicId: string): boolean {
  try {
    if (!lstatSync(dir).isDirectory()) return false;
    const marker = join(dir, RELEASE_MARKER);
    if (!lstatSync(marker).isFile()) return false;
    return readFileSync(marker, "utf8") === releaseMarkerText(releasePublicId);
  } catch {
    return false; // no marker (or unreadable): not ours
  }
}

/**
 * Whether a staging folder was killed before its marker was whole: it holds nothing, or only a
 * marker that is a beginning of `releasePublicId`'s (the process died between the folder's mkdir
 * and the marker's flush). Removing it loses nothing, and without this it would stay forever.
 */
function holdsUnfinishedMarker(dir: string, releasePublicId: string): boolean {
  try {
    if (!lstatSync(dir).isDirectory()) return false;
    const entries = readdirSync(dir);
    if (entries.length === 0) return true;
    if (entries.length !== 1 || entries[0] !== RELEASE_MARKER) return false;
    const marker = join(dir, RELEASE_MARKER);
    return lstatSync(marker).isFile() && releaseMarkerText(releasePublicId).startsWith(readFileSync(marker, "utf8"));
  } catch {
    return false;
  }
}

/**
 * Writes a file and flushes it to the disk before returning (docs/product.md §3: flushed before
 * published).
 */
export async function writeDurable(path: string, data: string | Uint8Array): Promise<void> {
  const handle = await open(path, "wx", FILE_MODE);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * A new file written as its bytes come (synchronously, into the page cache) and flushed to the disk
 * on `close`, which runs off the thread: a publish compiles its next language while the disk syncs
 * this one's files (docs/publishing.md §2 "Threads").
 */
export class DurableFile {
  private constructor(private readonly fd: number) {}

  /** Creates `path`, which must not exist, for the owner only. */
  static create(path: string): DurableFile {
    return new DurableFile(openSync(path, "wx", FILE_MODE));
  }

  write(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.byteLength; ) at += writeSync(this.fd, bytes, at);
  }

  /** Flushes the file to the disk and closes it; closed also when the flush fails. */
  async close(): Promise<void> {
    try {
      await new Promise<void>((resolve, reject) => fsync(this.fd, (err) => (err ? reject(err) : resolve())));
    } finally {
      closeSync(this.fd);
    }
  }

  /** Closes without flushing (the file is being given up). */
  abandon(): void {
    closeSync(this.fd);
  }
}

/** fsync of a directory makes the names created or renamed in it durable. */
async function syncDir(path: string): Promise<void> {
  const handle = await open(path, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Replaces `path` atomically: a reader sees the old file, no file, or the whole new one. */
export async function writeAtomic(path: string, dir: string, name: string, data: Uint8Array): Promise<void> {
  const temp = join(dir, `${TEMP_PREFIX}${randomString(8)}-${name}`);
  try {
    await writeDurable(temp, data);
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/**
 * A release's files are written into a staging folder, flushed, then renamed into place in one
 * step. The database marks the release published only after this returns, so a crash leaves
 * either a staging folder or a folder no published release names; the start removes both.
 */
export class ReleaseStaging {
  readonly path: string;

  private constructor(readonly dataDir: string, readonly releasePublicId: string) {
    this.path = join(releasesRoot(dataDir), `${STAGING_PREFIX}${releasePublicId}-${randomString(8)}`);
  }

  static async create(dataDir: string, releasePublicId: string): Promise<ReleaseStaging> {
    const staging = new ReleaseStaging(dataDir, releasePublicId);
    await mkdir(releasesRoot(dataDir), { recursive: true, mode: DIR_MODE });
    await mkdir(staging.path, { mode: DIR_MODE });
    // First, before any file: a staging folder without its marker is never removed by the start,
    // so one whose marker cannot be written (a full disk) is removed here.
    try {
      await writeDurable(join(staging.path, RELEASE_MARKER), releaseMarkerText(releasePublicId));
    } catch (err) {
      await staging.discard().catch(() => {});
      throw err;
    }
    return staging;
  }

  write(fileName: string, data: string | Uint8Array): Promise<void> {
    return writeDurable(join(this.path, fileName), data);
  }

  /** Moves the flushed files to the release's folder and makes the move durable. */
  commit(): Promise<string> {
    return commitStagedRelease(this.dataDir, this.releasePublicId, this.path);
  }

  discard(): Promise<void> {
    return rm(this.path, { recursive: true, force: true });
  }
}

/**
 * Moves a staging folder's flushed files to the release's folder, `releases/<id>`, and makes the
 * move durable; returns the folder. A folder already there is a stray of an earlier failed attempt
 * only if it carries this release's marker; anything else is not ours to remove, and the move
 * fails instead.
 */
export async function commitStagedRelease(dataDir: string, releasePublicId: string, stagingPath: string): Promise<string> {
  const target = releaseDir(dataDir, releasePublicId);
  await syncDir(stagingPath);
  const existing = await readFile(join(target, RELEASE_MARKER), "utf8").catch(() => null);
  if (existing === releaseMarkerText(releasePublicId)) await rm(target, { recursive: true, force: true });
  await rename(stagingPath, target);
  await syncDir(releasesRoot(dataDir));
  return target;
}

/** Deleting a release removes its files (docs/product.md §3); a crash before this is cleaned at start. */
export async function removeReleaseFiles(dataDir: string, releasePublicId: string): Promise<void> {
  await rm(releaseDir(dataDir, releasePublicId), { recursive: true, force: true });
}

/**
 * At start, before serving: removes what this code left behind when a process died, and nothing
 * else (docs/architecture.md "Start-up"). Given the ids of the published releases, that is staging
 * folders and folders of a release that is not published (a publish killed between the rename and
 * the commit, a delete killed before its files went), each only when it carries the marker a
 * publish wrote into it naming that release (RELEASE_MARKER), and half-written temporary files in
 * the folders of published releases; a staging folder killed before its marker was whole is removed
 * when it holds nothing else. A name alone proves nothing: anything else in the releases
 * folder, a folder named like a release id included, is an operator's and is left alone (and
 * never served: the CDN finds files through the database).
 */
export function cleanStrayReleaseFiles(dataDir: string, published: ReadonlySet<string>): { removed: string[]; foreign: string[] } {
  const root = releasesRoot(dataDir);
  mkdirSync(root, { recursive: true, mode: DIR_MODE });
  const removed: string[] = [];
  const foreign: string[] = [];
  const remove = (name: string) => {
    rmSync(join(root, name), { recursive: true, force: true });
    removed.push(name);
  };
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const name = entry.name;
    const staged = entry.isDirectory() ? STAGING_NAME.exec(name)?.[1] : undefined;
    if (staged !== undefined && (carriesMarker(join(root, name), staged) || holdsUnfinishedMarker(join(root, name), staged))) remove(name);
    else if (entry.isDirectory() && RELEASE_ID.test(name) && !published.has(name) && carriesMarker(join(root, name), name)) remove(name);
    else if (entry.isDirectory() && published.has(name)) {
      for (const file of readdirSync(join(root, name))) if (TEMP_NAME.test(file)) remove(`${name}/${file}`);
    } else foreign.push(name);
  }
  if (removed.length > 0) log.warn("removed stray release files", { count: removed.length, entries: removed.slice(0, 20) });
  if (foreign.length > 0) log.info("left entries in the releases folder that Phrasebook did not write", { count: foreign.length, entries: foreign.slice(0, 20) });
  return { removed, foreign };
}
