import { replyOf, resultOf, type JobReply } from "../common/job-reply.ts";
import { HttpError } from "../common/errors.ts";
import { openDatabase } from "../storage/db.ts";
import type { ProjectRow } from "../storage/schema.ts";
import { diffRelease, type ReleaseDiff } from "./diff.ts";
import { exportRelease, type ExportFile } from "./export.ts";
import { RELEASE_READS_BUSY_MESSAGE, RELEASE_READS_MAX, RELEASE_READS_WAITING_MAX } from "./limits.ts";
import type { ExportQuery } from "./model.ts";
import { findRelease } from "./releases.ts";

/**
 * Exports and diffs as jobs for another thread (docs/formats.md "Export", docs/releases.md
 * "Diff"): each reads a release's files whole and builds its answer in one go (every language of
 * an XLIFF file; a draft's side of a diff is the project's whole snapshot), seconds of work for a
 * large project, asked by anyone who may read it. On the server's thread that work held every
 * other request, CDN files included; on a worker thread, with a SQLite connection of its own, it
 * holds none. Everything travels as plain data, as an import's job does.
 */
export type ReleaseReadJob = { dataDir: string; project: ProjectRow; releaseId: string } & (
  | { kind: "export"; query: ExportQuery }
  | { kind: "diff"; against: string | undefined }
);

export type ReleaseReadReply = JobReply<ExportFile | ReleaseDiff>;

/** Runs one job on a connection of its own, then closes it. Never throws: the reply says what happened. */
export async function runReleaseReadJob(job: ReleaseReadJob): Promise<ReleaseReadReply> {
  const db = openDatabase(job.dataDir);
  try {
    return await replyOf<ExportFile | ReleaseDiff>(() =>
      job.kind === "export" ? exportRelease(db, job.dataDir, job.project, findRelease(db, job.project, job.releaseId), job.query) : diffRelease(db, job.dataDir, job.project, job.releaseId, job.against),
    );
  } finally {
    db.$client.close();
  }
}

/** The answer of a reply, or the error it reports. */
export function releaseReadResultOf<T extends ExportFile | ReleaseDiff>(reply: ReleaseReadReply): T {
  return resultOf(reply, "release read job") as T;
}

/**
 * Runs release reads on `offThread`, RELEASE_READS_MAX at a time (each thread holds a whole
 * file), RELEASE_READS_WAITING_MAX more waiting in order of arrival; past that a 429, so a loop of
 * readers can neither start threads without end nor queue work without end.
 */
export class ReleaseReads {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly offThread: (job: ReleaseReadJob) => Promise<ReleaseReadReply>) {}

  async run<T extends ExportFile | ReleaseDiff>(job: ReleaseReadJob): Promise<T> {
    if (this.running >= RELEASE_READS_MAX) {
      if (this.waiting.length >= RELEASE_READS_WAITING_MAX) throw new HttpError(429, RELEASE_READS_BUSY_MESSAGE, { "retry-after": "5" });
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return releaseReadResultOf<T>(await this.offThread(job));
    } finally {
      // The slot passes to the next waiting read, if any, else it is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
