import { setPriority } from "node:os";
import { isMainThread, parentPort } from "node:worker_threads";
import { importResultOf, runImportJob, type ImportJob, type ImportReply } from "../authoring/import-job.ts";
import type { ImportResult } from "../authoring/import.ts";
import { HttpError } from "../common/errors.ts";
import { runInWorker } from "../common/threads.ts";
import { memoryExportOf, runMemoryExportJob, type MemoryExportFile, type MemoryExportJob, type MemoryExportReply } from "../memory/export.ts";
import { memoryImportResultOf, runMemoryImportJob, type MemoryImportJob, type MemoryImportReply, type MemoryImportResult } from "../memory/import.ts";
import { pretranslateResultOf, runPretranslateJob, type PretranslateJob, type PretranslateProgress, type PretranslateReply } from "../memory/pretranslate.ts";
import { compileMessage, runCompileTask, type CompileReply } from "../releases/compile-job.ts";
import { runReleaseReadJob, type ReleaseReadJob, type ReleaseReadReply } from "../releases/read-job.ts";
import { parseJsonBody } from "./guards.ts";

/**
 * The dashboard API's work on another thread (docs/publishing.md §6 "Not holding up other
 * requests"): parsing a large import body and running a large import take from a tenth of a second
 * to seconds, and the server's thread must go on answering CDN files and API lists meanwhile. Each
 * task gets a new worker thread, which ends when it answers (a publish keeps its threads for all its
 * languages, releases/compile-job.ts); a crash of the process ends them too, so nothing outlives
 * the server.
 */
type Task =
  | { kind: "import"; job: ImportJob }
  | { kind: "parse-body"; bytes: Uint8Array }
  | { kind: "release-read"; job: ReleaseReadJob }
  | { kind: "memory-import"; job: MemoryImportJob }
  | { kind: "memory-export"; job: MemoryExportJob }
  | { kind: "pretranslate"; job: PretranslateJob }
  | ReturnType<typeof compileMessage>;

type ParseReply = { ok: unknown } | { refused: { status: number; message: string } } | { crashed: string };

async function perform(task: Task): Promise<ImportReply | ParseReply | ReleaseReadReply | CompileReply | MemoryImportReply | MemoryExportReply | PretranslateReply> {
  if (task.kind === "compile") return runCompileTask(task.task);
  if (task.kind === "memory-import") return runMemoryImportJob(task.job);
  if (task.kind === "memory-export") return runMemoryExportJob(task.job);
  if (task.kind === "pretranslate") return runPretranslateJob(task.job);
  if (task.kind === "import") return runImportJob(task.job);
  if (task.kind === "release-read") return runReleaseReadJob(task.job);
  try {
    return { ok: parseJsonBody(task.bytes) };
  } catch (err) {
    if (err instanceof HttpError) return { refused: { status: err.status, message: err.message } };
    return { crashed: String(err) };
  }
}

/**
 * The nice value of a worker thread (Linux gives each thread its own): a task is background work,
 * so when the cores are busy the server's thread, which answers requests, runs first.
 */
export const WORKER_NICE = 10;

/** The worker's side: answers the task posted to it. Called by the worker's entry module. */
export function serveWorker(): void {
  if (isMainThread || !parentPort) return;
  try {
    setPriority(WORKER_NICE); // this thread only
  } catch {
    // not allowed here (a container without the capability): the task runs at normal priority
  }
  const port = parentPort;
  port.on("message", async (task: Task) => port.postMessage(await perform(task)));
}

export async function importOffThread(job: ImportJob): Promise<ImportResult> {
  return importResultOf(await runInWorker<ImportReply>({ kind: "import", job }));
}

export async function parseBodyOffThread(bytes: Uint8Array): Promise<unknown> {
  const reply = await runInWorker<ParseReply>({ kind: "parse-body", bytes });
  if ("ok" in reply) return reply.ok;
  if ("refused" in reply) throw new HttpError(reply.refused.status, reply.refused.message);
  throw new Error(`parsing a body: ${reply.crashed}`);
}

/** An export or a diff on a worker thread (releases/read-job.ts). */
export function releaseReadOffThread(job: ReleaseReadJob): Promise<ReleaseReadReply> {
  return runInWorker<ReleaseReadReply>({ kind: "release-read", job });
}

/** A TMX import on a worker thread (memory/import.ts). */
export async function memoryImportOffThread(job: MemoryImportJob): Promise<MemoryImportResult> {
  return memoryImportResultOf(await runInWorker<MemoryImportReply>({ kind: "memory-import", job }));
}

/** A TMX export on a worker thread (memory/export.ts). */
export async function memoryExportOffThread(job: MemoryExportJob): Promise<MemoryExportFile> {
  return memoryExportOf(await runInWorker<MemoryExportReply>({ kind: "memory-export", job }));
}

/** Pre-translation's memory part on a worker thread (memory/pretranslate.ts). */
export async function pretranslateOffThread(job: PretranslateJob): Promise<PretranslateProgress> {
  return pretranslateResultOf(await runInWorker<PretranslateReply>({ kind: "pretranslate", job }));
}
