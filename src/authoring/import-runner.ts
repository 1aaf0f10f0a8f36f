import { actorKey, type Actor } from "../changes/actor.ts";
import { HttpError } from "../common/errors.ts";
import { FairPlaces, type PlaceRefusal } from "../common/fair-places.ts";
import { log } from "../common/log.ts";
import type { AppDeps } from "../deps.ts";
import type { ProjectRow } from "../storage/schema.ts";
import { checkImportRequest, type ImportInput, type ImportResult } from "./import.ts";
import type { ImportJob } from "./import-job.ts";
import { IMPORT_QUEUE_MAX, IMPORTS_BUSY_MESSAGE, IMPORTS_PER_CALLER_BUSY_MESSAGE, IMPORTS_PER_CALLER_MAX } from "./limits.ts";
import { findProject } from "./projects.ts";

export { IMPORT_QUEUE_MAX, IMPORTS_PER_CALLER_MAX };

/**
 * The 429 of an import past IMPORT_QUEUE_MAX, or past the caller's IMPORTS_PER_CALLER_MAX (or of
 * a large body past as many being received).
 */
export function importsBusy(why: PlaceRefusal = "full"): HttpError {
  return new HttpError(429, why === "full" ? IMPORTS_BUSY_MESSAGE : IMPORTS_PER_CALLER_BUSY_MESSAGE, { "retry-after": "5" });
}

/**
 * Runs imports one at a time per app, in order of arrival: two CI jobs pushing at once never
 * contend for the write lock, and the second sees the first's keys. Cheap checks (language,
 * `delete_missing`, size) answer before the queue. Every file, whatever its size and format, goes
 * to `offThread`, which runs the job on another thread (the dashboard API gives a worker thread,
 * dashboard-api/worker.ts): parsing and checking a file is work no request may hold the server's
 * thread for (docs/publishing.md §6 "Not holding up other requests"); a 125 KB YAML file of
 * aliases took seconds, and a file's cost is known only once it is parsed.
 * Of the IMPORT_QUEUE_MAX places (running or waiting), one caller holds at most
 * IMPORTS_PER_CALLER_MAX, so one member or token looping imports cannot make everyone else's a 429.
 */
export class ImportRunner {
  private tail: Promise<void> = Promise.resolve();
  private readonly places = new FairPlaces(IMPORT_QUEUE_MAX, IMPORTS_PER_CALLER_MAX);

  constructor(
    private readonly deps: AppDeps,
    private readonly offThread: (job: ImportJob) => Promise<ImportResult>,
  ) {}

  async run(project: ProjectRow, input: ImportInput, actor: Actor): Promise<ImportResult> {
    checkImportRequest(this.deps, project, input);
    const caller = actorKey(actor);
    const refusal = this.places.take(caller);
    if (refusal) throw importsBusy(refusal);
    const previous = this.tail;
    let done!: () => void;
    this.tail = new Promise((resolve) => (done = resolve));
    try {
      await previous;
      // The project as it is now: its base language may have changed while this one waited.
      return await this.runNow(findProject(this.deps.db, project.publicId), input, actor);
    } finally {
      this.places.release(caller);
      done();
    }
  }

  private async runNow(project: ProjectRow, input: ImportInput, actor: Actor): Promise<ImportResult> {
    const { settings, clock, changes } = this.deps;
    const started = performance.now();
    const result = await this.offThread({ dataDir: settings.dataDir, project, input, actor, now: clock.now() });
    if (!input.dry_run && result.changes.length > 0) {
      changes.notify(project.id);
      changes.wake(); // the worker's events are in the outbox now
    }
    log.info("import done in a worker", {
      project_id: project.publicId,
      language: input.language_code,
      dry_run: input.dry_run ?? false,
      created_keys: result.created_keys,
      updated_translations: result.updated_translations,
      deleted_keys: result.deleted_keys,
      ms: Math.round(performance.now() - started),
    });
    return result;
  }
}
