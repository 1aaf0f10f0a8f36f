import { log } from "../common/log.ts";
import { withoutWaiting, type Db } from "../storage/db.ts";
import { pendingMemoryRows, refreshMemoryIndex } from "../storage/derived.ts";

/**
 * The memory's index is brought up to date after the writes that change it (src/storage/derived.ts
 * `refreshMemoryIndex`, docs/translators.md "Translation memory"): a push of 100,000 base strings
 * pays for no trigram; the rows it names are indexed here, a chunk at a time.
 */

/** Rows brought up to date per transaction in the background: a few tens of milliseconds each. */
export const INDEX_CHUNK_ROWS = 1000;
/** Rows a suggestion brings up to date before it reads the index (a save just before it is there). */
export const SUGGESTION_REFRESH_ROWS = 500;
/** How often the background pass looks for rows to index. */
const LOOK_EVERY_MS = 500;

const isBusy = (err: unknown) => (err as { code?: string })?.code?.startsWith("SQLITE_BUSY") === true;

/**
 * Before a suggestion: at most `rows` pending rows, the newest first (what was saved just before),
 * only when the write lock is free at once (an import committing holds it; the suggestion then
 * reads the index as it is, a few seconds old).
 */
export function refreshBeforeReading(db: Db, rows = SUGGESTION_REFRESH_ROWS): void {
  try {
    withoutWaiting(db.$client, () => refreshMemoryIndex(db.$client, rows, true));
  } catch (err) {
    if (!isBusy(err)) throw err;
  }
}

/** Every pending row, waiting for the write lock as any write does (pre-translation, on its thread). */
export function refreshAll(db: Db): void {
  while (refreshMemoryIndex(db.$client, INDEX_CHUNK_ROWS) > 0);
}

export interface MemoryIndexPass {
  stop(): Promise<void>;
}

/** Runs beside the server: every half second, the pending rows in chunks, yielding between them. */
export function startMemoryIndexPass(db: Db): MemoryIndexPass {
  let stopped = false;
  let running: Promise<void> | null = null;
  const drain = async () => {
    let indexed = 0;
    try {
      while (!stopped) {
        const n = withoutWaiting(db.$client, () => refreshMemoryIndex(db.$client, INDEX_CHUNK_ROWS));
        if (n === 0) break;
        indexed += n;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } catch (err) {
      if (!isBusy(err)) log.error("translation memory: could not index pending strings", { error: String(err) });
    }
    if (indexed >= INDEX_CHUNK_ROWS) log.info("translation memory: indexed strings", { rows: indexed, left: pendingMemoryRows(db.$client) });
  };
  const timer = setInterval(() => {
    if (!running && !stopped) running = drain().finally(() => (running = null));
  }, LOOK_EVERY_MS);
  timer.unref?.();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
