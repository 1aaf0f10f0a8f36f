import { replyNow, resultOf, type JobReply } from "../common/job-reply.ts";
import { HttpError } from "../common/errors.ts";
import { FairPlaces, type PlaceRefusal } from "../common/fair-places.ts";
import type { Db } from "../storage/db.ts";
import type { ProjectRow } from "../storage/schema.ts";
import { keyCounts, type KeyCountsView } from "./key-counts.ts";
import { listKeys, type KeyView } from "./keys.ts";
import {
  KEY_READS_AT_ONCE,
  KEY_READS_BUSY_MESSAGE,
  KEY_READS_MAX,
  KEY_READS_PER_CALLER_BUSY_MESSAGE,
  KEY_READS_PER_CALLER_MAX,
  KEY_READS_RETRY_AFTER_SECONDS,
} from "./limits.ts";
import type { KeyCountsQuery, KeyListQuery, ProblemListQuery } from "./model.ts";
import { listProblems } from "./problems.ts";
import type { PageInfo } from "../common/paging.ts";

/**
 * The key grid's searches, filters and counts, and the problem list, as jobs for another thread
 * (docs/dashboard.md "Speed"): each reads up to every value of a project, hundreds of milliseconds
 * to seconds at 100,000 keys x 50 languages, asked by anyone who may read the project. On the
 * server's thread four viewers looping one search held every other request, CDN files included
 * (a CDN file's median went from 3 ms to 2 s); on a thread of a small pool, with a read-only SQLite
 * connection of its own, they hold none. The job and its answer travel as plain data, and the
 * thread runs the very same functions.
 */
export type KeyReadJob = { dataDir: string; project: ProjectRow; visible: string[] | null } & (
  | { kind: "list"; query: KeyListQuery }
  | { kind: "counts"; query: KeyCountsQuery }
  | { kind: "problems"; query: ProblemListQuery }
);

type KeyList = { items: KeyView[]; page_info: PageInfo };
type Answer = KeyList | KeyCountsView | ReturnType<typeof listProblems>;

export type KeyReadReply = JobReply<Answer>;

/** Runs one job on `db` (the thread's read-only connection). Never throws: the reply says what happened. */
export function runKeyReadJob(db: Db, job: KeyReadJob): KeyReadReply {
  return replyNow<Answer>(() => {
    const visible = job.visible === null ? null : new Set(job.visible);
    if (job.kind === "list") return listKeys(db, job.project, job.query, visible);
    if (job.kind === "counts") return keyCounts(db, job.project, job.query, visible);
    return listProblems(db, job.project, job.query);
  });
}

/** The answer of a reply, or the error it reports. */
export function keyReadResultOf<T extends Answer>(reply: KeyReadReply): T {
  return resultOf(reply, "key read job") as T;
}

/** The 429 of a search past KEY_READS_MAX, or past the caller's KEY_READS_PER_CALLER_MAX. */
export function keyReadsBusy(why: PlaceRefusal): HttpError {
  return new HttpError(429, why === "caller-full" ? KEY_READS_PER_CALLER_BUSY_MESSAGE : KEY_READS_BUSY_MESSAGE, { "retry-after": String(KEY_READS_RETRY_AFTER_SECONDS) });
}

/** The answer of a search whose request ended while it waited (nobody reads it; the log and metrics do). */
function keyReadCancelled(): HttpError {
  return new HttpError(499, "the request ended before its search ran");
}

/**
 * Runs key reads on `offThread`, KEY_READS_AT_ONCE at a time, fairly: of the KEY_READS_MAX places
 * (running or waiting) a caller (a user or a token) holds at most KEY_READS_PER_CALLER_MAX, past
 * which a 429 with Retry-After; and a caller runs one read at a time, so a free thread goes to the
 * waiting read of a caller who has none running, in order of arrival. One caller looping the
 * heaviest search then holds one thread, and another caller's search waits at most for reads
 * already running (docs/dashboard.md "Speed"). A read whose request ends while it waits leaves
 * without running; one under way finishes (it writes nothing, and its place is held until then, so
 * hanging up cannot start reads without end).
 */
export class KeyReads {
  private readonly places = new FairPlaces(KEY_READS_MAX, KEY_READS_PER_CALLER_MAX);
  private readonly runningBy = new Map<string, number>();
  private running = 0;
  private readonly waiting: { caller: string; go: () => void }[] = [];

  constructor(private readonly offThread: (job: KeyReadJob) => Promise<KeyReadReply>) {}

  async run<T extends Answer>(caller: string, job: KeyReadJob, signal?: AbortSignal): Promise<T> {
    const refusal = this.places.take(caller);
    if (refusal) throw keyReadsBusy(refusal);
    try {
      await this.turn(caller, signal);
      try {
        return keyReadResultOf<T>(await this.offThread(job));
      } finally {
        this.finish(caller);
      }
    } finally {
      this.places.release(caller);
    }
  }

  /** Reads running now (all callers), for the tests that count them. */
  get runningNow(): number {
    return this.running;
  }

  private mayStart(caller: string): boolean {
    return this.running < KEY_READS_AT_ONCE && !this.runningBy.has(caller);
  }

  private start(caller: string): void {
    this.running++;
    this.runningBy.set(caller, (this.runningBy.get(caller) ?? 0) + 1);
  }

  private turn(caller: string, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(keyReadCancelled());
    if (this.mayStart(caller) && this.waiting.length === 0) {
      this.start(caller);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        caller,
        go: () => {
          signal?.removeEventListener("abort", leave);
          resolve();
        },
      };
      const leave = () => {
        const at = this.waiting.indexOf(entry);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(keyReadCancelled());
      };
      signal?.addEventListener("abort", leave, { once: true });
      this.waiting.push(entry);
      this.pump();
    });
  }

  private finish(caller: string): void {
    this.running--;
    const held = this.runningBy.get(caller) ?? 0;
    if (held <= 1) this.runningBy.delete(caller);
    else this.runningBy.set(caller, held - 1);
    this.pump();
  }

  /** Gives free threads to the earliest waiting reads of callers with none running. */
  private pump(): void {
    while (this.running < KEY_READS_AT_ONCE) {
      const at = this.waiting.findIndex((w) => !this.runningBy.has(w.caller));
      if (at < 0) return;
      const [next] = this.waiting.splice(at, 1);
      this.start(next!.caller);
      next!.go();
    }
  }
}
