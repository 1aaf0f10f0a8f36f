import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Worker threads for the work that must not hold the server's thread (docs/architecture.md
 * "Threads"): large imports, exports and diffs, and the languages of a large publish. A thread
 * starts at the worker entry and answers each task posted to it, one at a time, in order.
 */

/**
 * The module a worker starts from: `src/worker-entry.ts` when running from source; in the compiled
 * executable, where every file is bundled into one, the executable's own entry (main.ts serves the
 * worker when it is not on the main thread).
 */
function workerEntry(): string {
  const source = new URL("../worker-entry.ts", import.meta.url);
  return source.protocol === "file:" && existsSync(fileURLToPath(source)) ? source.href : Bun.main;
}

/** A worker thread that runs tasks one after the other; `close` ends it. */
export class WorkerThread {
  private readonly worker: Worker;
  private waiting: { resolve: (reply: unknown) => void; reject: (err: Error) => void } | undefined;
  private failed: Error | undefined;

  constructor() {
    this.worker = new Worker(workerEntry());
    this.worker.addEventListener("message", (event: MessageEvent) => this.settle((w) => w.resolve(event.data)));
    this.worker.addEventListener("error", (event) => this.fail(new Error(`worker thread failed: ${event.message}`)));
    this.worker.addEventListener("close", () => this.fail(new Error("worker thread ended without an answer")));
  }

  /** Posts `task` and answers the thread's reply. One task at a time. */
  run<R>(task: unknown): Promise<R> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.waiting) return Promise.reject(new Error("a worker thread runs one task at a time"));
    return new Promise<R>((resolve, reject) => {
      this.waiting = { resolve: resolve as (reply: unknown) => void, reject };
      this.worker.postMessage(task);
    });
  }

  close(): void {
    this.fail(new Error("worker thread closed"));
    this.worker.terminate();
  }

  private settle(fn: (w: NonNullable<WorkerThread["waiting"]>) => void): void {
    const w = this.waiting;
    this.waiting = undefined;
    if (w) fn(w);
  }

  private fail(err: Error): void {
    this.failed ??= err;
    this.settle((w) => w.reject(err));
  }
}

/** Runs `task` in a new worker thread, and ends the thread when it answers. */
export async function runInWorker<R>(task: unknown): Promise<R> {
  const thread = new WorkerThread();
  try {
    return await thread.run<R>(task);
  } finally {
    thread.close();
  }
}
