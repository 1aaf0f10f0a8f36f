/**
 * SQLite's write lock, held and looked at from outside the app, so that a test can tell "answered
 * while another connection held the lock" by state instead of by how long an answer took.
 *
 * - `holdWriteLock` takes the lock on a connection of its own in a worker thread, as an import on a
 *   worker holds it while it commits (docs/architecture.md "Reaching SQLite"). The worker keeps it
 *   until told, or for `releaseAfterMs` at most: a request that (wrongly) waits for the lock blocks
 *   the test's thread inside SQLite, and only the worker's own timer can then let it go.
 * - `writeLockHeld` asks whether any other connection holds the lock right now, without waiting.
 */
import { Database } from "bun:sqlite";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

interface HolderData {
  writeLockHolder: { path: string; releaseAfterMs: number };
}

if (!isMainThread && (workerData as HolderData | undefined)?.writeLockHolder) {
  const { path, releaseAfterMs } = (workerData as HolderData).writeLockHolder;
  const db = new Database(path);
  db.run("BEGIN IMMEDIATE");
  const release = () => {
    clearTimeout(timer);
    if (db.inTransaction) db.run("ROLLBACK");
    db.close();
    parentPort!.postMessage("released");
    parentPort!.close();
  };
  const timer = setTimeout(release, releaseAfterMs);
  parentPort!.on("message", release);
  parentPort!.postMessage("locked");
}

export interface HeldWriteLock {
  /** Lets the lock go (if the worker still holds it) and waits until it has. */
  release(): Promise<void>;
}

export async function holdWriteLock(path: string, options: { releaseAfterMs: number }): Promise<HeldWriteLock> {
  const worker = new Worker(new URL(import.meta.url), { workerData: { writeLockHolder: { path, releaseAfterMs: options.releaseAfterMs } } satisfies HolderData });
  const messages: string[] = [];
  const waiters: (() => void)[] = [];
  worker.on("message", (message) => {
    messages.push(String(message));
    for (const wake of waiters.splice(0)) wake();
  });
  const seen = async (message: string) => {
    while (!messages.includes(message)) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  await seen("locked");
  return {
    async release() {
      if (!messages.includes("released")) worker.postMessage("release");
      await seen("released");
      await worker.terminate();
    },
  };
}

const probes = new Map<string, Database>();

/** Whether another connection holds the database's write lock at this moment (never waits for it). */
export function writeLockHeld(path: string): boolean {
  let probe = probes.get(path);
  if (!probe) {
    probe = new Database(path);
    probe.run("PRAGMA busy_timeout = 0");
    probes.set(path, probe);
  }
  try {
    probe.run("BEGIN IMMEDIATE");
  } catch (err) {
    if ((err as { code?: string }).code === "SQLITE_BUSY") return true;
    throw err;
  }
  probe.run("ROLLBACK");
  return false;
}

/** Closes the connections `writeLockHeld` opened for `path` (before its data dir is removed). */
export function closeWriteLockProbe(path: string): void {
  probes.get(path)?.close();
  probes.delete(path);
}

/**
 * Calls `ask` again and again until `done()`, and counts the calls that began and ended while
 * another connection held the write lock: answers given in the middle of that connection's write
 * transaction (an import committing on its worker thread), which this thread could never give if
 * it ran the transaction itself. Returns how many calls there were, and how many of them that was.
 */
export async function askWhileLocked(path: string, done: () => boolean, ask: () => Promise<void>, pauseMs = 5): Promise<{ asked: number; whileLocked: number }> {
  let asked = 0;
  let whileLocked = 0;
  while (!done()) {
    const before = writeLockHeld(path);
    await ask();
    if (before && writeLockHeld(path)) whileLocked++;
    asked++;
    await Bun.sleep(pauseMs);
  }
  return { asked, whileLocked };
}
