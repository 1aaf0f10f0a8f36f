import type { Actor } from "../changes/actor.ts";
import { Changes } from "../changes/changes.ts";
import { replyOf, resultOf, type JobReply } from "../common/job-reply.ts";
import { openDatabase, waitForLocks } from "../storage/db.ts";
import type { ProjectRow } from "../storage/schema.ts";
import { importTranslations, type ImportInput, type ImportResult } from "./import.ts";

/**
 * An import as a job for another thread (docs/publishing.md §6 "Not holding up other requests"):
 * everything it needs travels as plain data, and it runs on a SQLite connection of its own (WAL
 * lets the server's connection go on reading meanwhile), doing the very same `importTranslations`.
 */
export interface ImportJob {
  dataDir: string;
  project: ProjectRow;
  input: ImportInput;
  actor: Actor;
  /** The time every row and event of the import carries (the server's clock, so tests can set it). */
  now: number;
  /** How long it may wait for SQLite's write lock: imports of other projects commit beside it. */
  lockWaitMs?: number;
}

export type ImportReply = JobReply<ImportResult>;

/** Runs one job on a connection of its own, then closes it. Never throws: the reply says what happened. */
export async function runImportJob(job: ImportJob): Promise<ImportReply> {
  const db = openDatabase(job.dataDir);
  if (job.lockWaitMs !== undefined) waitForLocks(db, job.lockWaitMs);
  try {
    const clock = { now: () => job.now };
    // Events go to the outbox on this connection, in the import's transaction; the server wakes
    // its sender and drops its caches when the job is done.
    return await replyOf(() => importTranslations({ db, clock, changes: new Changes(db, clock) }, job.project, job.input, job.actor));
  } finally {
    db.$client.close();
  }
}

/** The result of a reply, or the error it reports. */
export function importResultOf(reply: ImportReply): ImportResult {
  return resultOf(reply, "import job");
}
