import { Database } from "bun:sqlite";
import { log } from "../common/log.ts";
import { WorkerThread } from "../common/threads.ts";
import { beginWriting, rollBack, type Db } from "../storage/db.ts";
import { CheckTally, checkingOrder } from "./checks.ts";
import { compileMessage, compileResultOf, OPEN_FAILED, type Compiled, type CompileReply, type LanguageJob } from "./compile-job.ts";
import { readSnapshotView, type SnapshotView } from "./snapshot.ts";

/**
 * A large publish compiles its languages on worker threads (docs/publishing.md §2 "Threads"):
 * each thread takes the next language as it finishes one, and reads, checks, compiles and writes it
 * from a snapshot of its own, so the server's thread holds no language at all and goes on
 * answering requests.
 *
 * Every copy of the snapshot must be the same moment of the database. SQLite gives a reader the
 * last commit as of its first read; so the server's thread takes the write lock on a connection of
 * its own, reads what it needs of the project (its languages), has every thread open its copy,
 * waits for them without returning to the event loop (no write of this process can slip in), and
 * lets go. Nothing can commit in between, so all of them read the same commit; writers elsewhere
 * wait a few milliseconds.
 */
export class CompilingThreads {
  private constructor(private readonly threads: WorkerThread[]) {}

  /** `count` threads, started and ready to take a snapshot. */
  static async start(count: number): Promise<CompilingThreads> {
    const threads = Array.from({ length: count }, () => new WorkerThread());
    const pool = new CompilingThreads(threads);
    try {
      await Promise.all(threads.map(async (t) => compileResultOf(await t.run<CompileReply>(compileMessage({ start: true })))));
    } catch (err) {
      await pool.close();
      throw err;
    }
    return pool;
  }

  /**
   * Has every thread open its copy of the snapshot, all of one moment, and answers what the
   * publish needs of that moment, read meanwhile on `db`; undefined when a thread cannot open its
   * copy (the caller compiles on its own thread, from a snapshot of its own).
   */
  async openSnapshots(db: Db, projectId: number): Promise<SnapshotView | undefined> {
    const path = db.$client.filename;
    const lock = await writeLock(path);
    const opened = new Int32Array(new SharedArrayBuffer(4));
    let view: SnapshotView;
    let replies: Promise<CompileReply>[] = [];
    try {
      // No await from here to the ROLLBACK: nothing of this process can write in between, and no
      // other connection can, as this one holds the write lock.
      view = readSnapshotView(db, projectId);
      replies = this.threads.map((t) => t.run<CompileReply>(compileMessage({ open: { path, projectId, opened } })));
      const deadline = Date.now() + OPEN_WAIT_MS;
      for (let seen = Atomics.load(opened, 0); seen < this.threads.length && Date.now() < deadline; seen = Atomics.load(opened, 0)) {
        Atomics.wait(opened, 0, seen, Math.max(1, deadline - Date.now()));
      }
    } finally {
      rollBack(lock);
      lock.close();
    }
    const all = Atomics.load(opened, 0) === this.threads.length;
    // Each thread answers its open once it has read the keys and the base language.
    const results = await Promise.allSettled(replies);
    const failed = results.find((r) => r.status === "rejected" || "crashed" in r.value);
    if (all && !failed) return view;
    log.warn("publish threads could not open the snapshot; compiling on the server's thread", {
      error: failed ? (failed.status === "rejected" ? String(failed.reason) : (failed.value as { crashed: string }).crashed) : "timed out",
    });
    return undefined;
  }

  /**
   * Checks every language, base first, and writes its files into `dir` while no error refuses the
   * publish (or always, with `allowErrors`); null checks only.
   */
  async compile(view: SnapshotView, dir: string | null, allowErrors: boolean): Promise<Compiled> {
    const tally = new CheckTally(view.syntax);
    const files: Compiled["files"] = {};
    const order = checkingOrder(view.languages);
    let next = 0;
    await Promise.all(
      this.threads.map(async (t) => {
        while (next < order.length) {
          const position = next++;
          const lang = order[position]!;
          const job: LanguageJob = { code: lang.code, name: lang.name, dir: tally.errorCount > 0 && !allowErrors ? null : dir, allowErrors };
          const done = compileResultOf(await t.run<CompileReply>(compileMessage({ job })))!;
          tally.add(position, done.findings);
          if (done.files) files[lang.code] = done.files;
        }
        compileResultOf(await t.run<CompileReply>(compileMessage({ flush: true })));
      }),
    );
    return { tally, files };
  }

  /** Ends each thread's read transaction, then the threads. */
  async close(): Promise<void> {
    await Promise.allSettled(this.threads.map((t) => t.run(compileMessage({ close: true }))));
    for (const t of this.threads) t.close();
  }
}

/** How long the server's thread waits, holding the write lock, for the threads to take their view. */
const OPEN_WAIT_MS = 5_000;
/** How long a publish tries to take the write lock, a few milliseconds at a time, before it fails. */
const LOCK_WAIT_MS = 30_000;
const LOCK_RETRY_MS = 2;

/**
 * A connection holding SQLite's write lock. Taken without a busy timeout and tried again every
 * LOCK_RETRY_MS: the server's thread must never sleep inside SQLite while a long import holds the
 * lock, and each attempt costs microseconds.
 */
async function writeLock(path: string): Promise<Database> {
  const lock = new Database(path);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      beginWriting(lock);
      return lock;
    } catch (err) {
      if ((err as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) {
        lock.close();
        throw err;
      }
      // Tried again soon: a writer that commits without pause leaves only short gaps to take it in.
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
    }
  }
}
