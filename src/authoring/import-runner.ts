import { actorKey, type Actor } from "../changes/actor.ts";
import { HttpError } from "../common/errors.ts";
import { FairPlaces, type PlaceRefusal } from "../common/fair-places.ts";
import { log } from "../common/log.ts";
import { ThreadStopped, type TaskLimits } from "../common/threads.ts";
import type { AppDeps } from "../deps.ts";
import type { ProjectRow } from "../storage/schema.ts";
import { checkImportRequest, type ImportInput, type ImportResult } from "./import.ts";
import type { ImportJob } from "./import-job.ts";
import {
  IMPORT_QUEUE_MAX,
  IMPORTS_BUSY_MESSAGE,
  IMPORTS_PER_CALLER_BUSY_MESSAGE,
  IMPORTS_PER_CALLER_MAX,
  IMPORTS_PER_PROJECT_BUSY_MESSAGE,
  IMPORTS_PER_PROJECT_MAX,
} from "./limits.ts";
import { findProject } from "./projects.ts";

export { IMPORT_QUEUE_MAX, IMPORTS_PER_CALLER_MAX, IMPORTS_PER_PROJECT_MAX };

const BUSY_MESSAGES: Record<PlaceRefusal, string> = {
  full: IMPORTS_BUSY_MESSAGE,
  "caller-full": IMPORTS_PER_CALLER_BUSY_MESSAGE,
  "group-full": IMPORTS_PER_PROJECT_BUSY_MESSAGE,
};

/**
 * The 429 of an import past IMPORT_QUEUE_MAX, past the caller's IMPORTS_PER_CALLER_MAX or past
 * the project's IMPORTS_PER_PROJECT_MAX (or of a large body past as many being received).
 */
export function importsBusy(why: PlaceRefusal = "full"): HttpError {
  return new HttpError(429, BUSY_MESSAGES[why], { "retry-after": "5" });
}

/** The answer of an import stopped at its time limit (PHRASEBOOK_IMPORT_TIMEOUT). */
export function importTimedOut(seconds: number): HttpError {
  return new HttpError(
    503,
    `the import ran longer than ${seconds} s, this server's limit for one import (PHRASEBOOK_IMPORT_TIMEOUT), and was stopped: nothing of it was written`,
  );
}

/** The answer of an import whose request ended first (nobody reads it; the log and metrics do). */
export function importCancelled(): HttpError {
  return new HttpError(499, "the request ended before its import finished; the import was stopped and nothing of it was written");
}

/** Runs an import's job on another thread within the limits given (dashboard-api/worker.ts). */
export type ImportOffThread = (job: ImportJob, limits: TaskLimits) => Promise<ImportResult>;

/**
 * Runs imports one at a time per project, in order of arrival: two CI jobs pushing to one project
 * at once never contend for the write lock, and the second sees the first's keys; imports of other
 * projects run beside them, each on its own thread, so a slow import keeps no other project's
 * waiting (docs/publishing.md §6 "All or nothing, one at a time"). Cheap checks (language,
 * `delete_missing`, size) answer before the queue. Every file, whatever its size and format, goes
 * to `offThread`, which runs the job on another thread (the dashboard API gives a worker thread,
 * dashboard-api/worker.ts): parsing and checking a file is work no request may hold the server's
 * thread for (docs/publishing.md §6 "Not holding up other requests").
 *
 * Of the IMPORT_QUEUE_MAX places (running or waiting), one caller holds at most
 * IMPORTS_PER_CALLER_MAX and one project IMPORTS_PER_PROJECT_MAX, so neither a member or token
 * looping imports nor one project's queue can make everyone else's a 429. An import runs for at
 * most PHRASEBOOK_IMPORT_TIMEOUT seconds, and stops when its request ends (the caller hung up):
 * either way its thread is ended and its transaction, if it had begun one, rolls back.
 */
export class ImportRunner {
  /** Per project, the end of its last import: the next one starts when it settles. */
  private readonly tails = new Map<number, Promise<void>>();
  private readonly places = new FairPlaces(IMPORT_QUEUE_MAX, IMPORTS_PER_CALLER_MAX, IMPORTS_PER_PROJECT_MAX);

  constructor(
    private readonly deps: AppDeps,
    private readonly offThread: ImportOffThread,
  ) {}

  async run(project: ProjectRow, input: ImportInput, actor: Actor, signal?: AbortSignal): Promise<ImportResult> {
    checkImportRequest(this.deps, project, input);
    const caller = actorKey(actor);
    const group = String(project.id);
    const refusal = this.places.take(caller, group);
    if (refusal) throw importsBusy(refusal);
    const previous = this.tails.get(project.id) ?? Promise.resolve();
    let done!: () => void;
    const tail = new Promise<void>((resolve) => (done = resolve));
    this.tails.set(project.id, tail);
    try {
      await whileWaiting(previous, signal);
      // The project as it is now: its base language may have changed while this one waited.
      return await this.runNow(findProject(this.deps.db, project.publicId), input, actor, signal);
    } finally {
      this.places.release(caller, group);
      // The next import of the project starts once this one and every one before it are over
      // (one that left the queue early passes its turn on only when the one ahead is done).
      void previous.then(() => {
        if (this.tails.get(project.id) === tail) this.tails.delete(project.id);
        done();
      });
    }
  }

  private async runNow(project: ProjectRow, input: ImportInput, actor: Actor, signal?: AbortSignal): Promise<ImportResult> {
    const { settings, clock, changes } = this.deps;
    const started = performance.now();
    const fields = { project_id: project.publicId, language: input.language_code, dry_run: input.dry_run ?? false };
    log.info("import started in a worker", fields);
    let result: ImportResult;
    try {
      const timeoutMs = settings.importTimeoutSeconds * 1000;
      result = await this.offThread({ dataDir: settings.dataDir, project, input, actor, now: clock.now(), lockWaitMs: timeoutMs }, { timeoutMs, signal });
    } catch (err) {
      if (!(err instanceof ThreadStopped)) throw err;
      const ms = Math.round(performance.now() - started);
      if (err.reason === "time-limit") {
        log.warn("import stopped at its time limit", { ...fields, limit_seconds: settings.importTimeoutSeconds, ms });
        throw importTimedOut(settings.importTimeoutSeconds);
      }
      log.info("import stopped: its request ended", { ...fields, ms });
      throw importCancelled();
    }
    if (!input.dry_run && result.changes.length > 0) {
      changes.notify(project.id);
      changes.wake(); // the worker's events are in the outbox now
    }
    log.info("import done in a worker", {
      ...fields,
      created_keys: result.created_keys,
      updated_translations: result.updated_translations,
      deleted_keys: result.deleted_keys,
      ms: Math.round(performance.now() - started),
    });
    return result;
  }
}

/** Waits for `previous`; an import whose request ends meanwhile leaves the queue without running. */
async function whileWaiting(previous: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return previous;
  if (signal.aborted) throw importCancelled();
  let onAbort!: () => void;
  const left = new Promise<never>((_, reject) => signal.addEventListener("abort", (onAbort = () => reject(importCancelled())), { once: true }));
  try {
    await Promise.race([previous, left]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
