import { actorKey, type Actor } from "../changes/actor.ts";
import { HttpError } from "../common/errors.ts";
import { FairPlaces } from "../common/fair-places.ts";
import { log } from "../common/log.ts";
import { IMPORT_QUEUE_MAX, IMPORTS_BUSY_MESSAGE, IMPORTS_PER_CALLER_BUSY_MESSAGE, IMPORTS_PER_CALLER_MAX } from "../authoring/limits.ts";
import type { ProjectRow } from "../storage/schema.ts";
import type { MemoryImportJob, MemoryImportResult } from "./import.ts";

/**
 * TMX imports, one at a time per app and in order of arrival, each on a worker thread
 * (`offThread`), with the places and shares of file imports (docs/publishing.md §6 "Limits"):
 * IMPORT_QUEUE_MAX running or waiting, IMPORTS_PER_CALLER_MAX of them one caller's, then 429.
 */
export class MemoryImports {
  private tail: Promise<void> = Promise.resolve();
  private readonly places = new FairPlaces(IMPORT_QUEUE_MAX, IMPORTS_PER_CALLER_MAX);

  constructor(
    private readonly dataDir: string,
    private readonly now: () => number,
    private readonly offThread: (job: MemoryImportJob) => Promise<MemoryImportResult>,
  ) {}

  async run(project: ProjectRow, bytes: Uint8Array, name: string | null, actor: Actor): Promise<MemoryImportResult> {
    const caller = actorKey(actor);
    const refusal = this.places.take(caller);
    if (refusal) throw new HttpError(429, refusal === "full" ? IMPORTS_BUSY_MESSAGE : IMPORTS_PER_CALLER_BUSY_MESSAGE, { "retry-after": "5" });
    const previous = this.tail;
    let done!: () => void;
    this.tail = new Promise((resolve) => (done = resolve));
    try {
      await previous;
      const started = performance.now();
      const result = await this.offThread({ dataDir: this.dataDir, project, bytes, name, actor, now: this.now() });
      log.info("memory import done in a worker", { project_id: project.publicId, imported: result.imported, skipped: result.skipped, ms: Math.round(performance.now() - started) });
      return result;
    } finally {
      this.places.release(caller);
      done();
    }
  }
}
