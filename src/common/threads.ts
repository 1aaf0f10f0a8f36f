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

  /** `name` names the thread (node:worker_threads' `threadName` inside it): a pool's threads are told apart by it. */
  constructor(name?: string) {
    this.worker = new Worker(workerEntry(), name === undefined ? undefined : { name });
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

  /** Lets the process end while this thread waits for work (a pool's idle thread). */
  unref(): void {
    // Bun's Worker has `unref` (as Node's does); the DOM type the project compiles against does not.
    (this.worker as Worker & { unref(): void }).unref();
  }

  /** Whether the thread ended or failed: it takes no more tasks. */
  get ended(): boolean {
    return this.failed !== undefined;
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

/**
 * A few worker threads kept for tasks that come often and must start at once (searches of the key
 * list, docs/dashboard.md "Speed"): a new thread costs tens of milliseconds and a cold SQLite
 * connection, where the task itself may take less. At most `size` threads, each running one task
 * at a time; tasks beyond them wait in order. A thread idle for `idleMs` ends, so an idle server
 * holds none; threads never keep the process from ending.
 */
export class ThreadPool {
  private readonly idle: { thread: WorkerThread; timer: ReturnType<typeof setTimeout> }[] = [];
  private readonly queue: { task: unknown; resolve: (reply: unknown) => void; reject: (err: Error) => void }[] = [];
  private live = 0;

  constructor(
    readonly size: number,
    private readonly idleMs: number,
    /** The name its threads carry. */
    private readonly name?: string,
  ) {}

  /** Runs `task` on a thread of the pool, now or once one is free. */
  run<R>(task: unknown): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ task, resolve: resolve as (reply: unknown) => void, reject });
      this.pump();
    });
  }

  /** Ends every idle thread; those at work end once their task is done. */
  close(): void {
    for (const { thread, timer } of this.idle.splice(0)) {
      clearTimeout(timer);
      thread.close();
      this.live--;
    }
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let thread = this.idle.pop();
      if (thread) clearTimeout(thread.timer);
      else if (this.live < this.size) {
        const made = new WorkerThread(this.name);
        made.unref();
        this.live++;
        thread = { thread: made, timer: undefined as unknown as ReturnType<typeof setTimeout> };
      } else return;
      const { task, resolve, reject } = this.queue.shift()!;
      const worker = thread.thread;
      worker.run(task).then(resolve, reject).finally(() => this.done(worker));
    }
  }

  private done(thread: WorkerThread): void {
    if (thread.ended) this.live--;
    else {
      const timer = setTimeout(() => {
        const at = this.idle.findIndex((i) => i.thread === thread);
        if (at < 0) return;
        this.idle.splice(at, 1);
        thread.close();
        this.live--;
      }, this.idleMs);
      timer.unref?.();
      this.idle.push({ thread, timer });
    }
    this.pump();
  }
}

/** Why a task's thread was ended before it answered: its time ran out, or its caller left. */
export class ThreadStopped extends Error {
  constructor(readonly reason: "time-limit" | "cancelled") {
    super(reason === "time-limit" ? "the task ran past its time limit" : "the task was cancelled");
    this.name = "ThreadStopped";
  }
}

export interface TaskLimits {
  /** Ends the thread when the task has not answered after this many milliseconds. */
  timeoutMs?: number;
  /** Ends the thread when this is aborted (the request that asked for the task ended). */
  signal?: AbortSignal;
}

/**
 * Runs `task` in a new worker thread, and ends the thread when it answers, when its time limit is
 * up or when `signal` aborts, whichever comes first; the last two reject with `ThreadStopped`.
 * Ending a thread ends whatever it was doing: a SQLite transaction it held open is rolled back and
 * its lock let go as its connection closes (docs/publishing.md §6 "Time limit and cancelling").
 */
export async function runInWorker<R>(task: unknown, limits: TaskLimits = {}): Promise<R> {
  const { timeoutMs, signal } = limits;
  if (signal?.aborted) throw new ThreadStopped("cancelled");
  const thread = new WorkerThread();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    if (timeoutMs !== undefined) timer = setTimeout(() => reject(new ThreadStopped("time-limit")), timeoutMs);
    if (signal) signal.addEventListener("abort", (onAbort = () => reject(new ThreadStopped("cancelled"))), { once: true });
  });
  try {
    return await Promise.race([thread.run<R>(task), stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    thread.close();
  }
}
