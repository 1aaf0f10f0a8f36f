import { setPriority } from "node:os";
import { isMainThread, parentPort, threadName } from "node:worker_threads";
import { importResultOf, runImportJob, type ImportJob, type ImportReply } from "../authoring/import-job.ts";
import type { ImportResult } from "../authoring/import.ts";
import { HttpError } from "../common/errors.ts";
import { runInWorker, ThreadPool, type TaskLimits } from "../common/threads.ts";
import { runKeyReadJob, type KeyReadJob, type KeyReadReply } from "../authoring/key-reads.ts";
import { KEY_READS_AT_ONCE } from "../authoring/limits.ts";
import { DATABASE_FILE, openReadOnly, type Db } from "../storage/db.ts";
import { join } from "node:path";
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
  | { kind: "key-read"; job: KeyReadJob }
  | { kind: "memory-import"; job: MemoryImportJob }
  | { kind: "memory-export"; job: MemoryExportJob }
  | { kind: "pretranslate"; job: PretranslateJob }
  | ReturnType<typeof compileMessage>;

/**
 * The read-only connection a pool's thread keeps for its key reads (authoring/key-reads.ts), to
 * the data dir of the last one: a server has one, so it is opened once; a test process's apps each
 * have their own, and a read of another closes it first.
 */
class KeptReader {
  private kept: { dataDir: string; db: Db } | undefined;

  for(dataDir: string): Db {
    if (this.kept?.dataDir !== dataDir) {
      this.kept?.db.$client.close();
      this.kept = { dataDir, db: openReadOnly(join(dataDir, DATABASE_FILE)) };
    }
    return this.kept.db;
  }
}

type ParseReply = { ok: unknown } | { refused: { status: number; message: string } } | { crashed: string };

async function perform(task: Task, reader: KeptReader): Promise<ImportReply | ParseReply | ReleaseReadReply | KeyReadReply | CompileReply | MemoryImportReply | MemoryExportReply | PretranslateReply> {
  if (task.kind === "compile") return runCompileTask(task.task);
  if (task.kind === "memory-import") return runMemoryImportJob(task.job);
  if (task.kind === "memory-export") return runMemoryExportJob(task.job);
  if (task.kind === "pretranslate") return runPretranslateJob(task.job);
  if (task.kind === "key-read") return runKeyReadJob(reader.for(task.job.dataDir), task.job);
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
/** The name of the key reads' threads (`keyReadOffThread`). */
const KEY_READ_THREAD_NAME = "phrasebook-key-reads";
/**
 * The nice value of those threads: a search is asked by someone waiting for its answer, so it is
 * not background work; the server's thread, asleep between requests, still runs first when it
 * wakes (the scheduler favours a thread that slept), which is what keeps CDN files answered while
 * searches run (bench/RESULTS.md "Searches at size").
 */
export const KEY_READ_NICE = 0;

/** The worker's side: answers the task posted to it. Called by the worker's entry module. */
export function serveWorker(): void {
  if (isMainThread || !parentPort) return;
  try {
    setPriority(threadName === KEY_READ_THREAD_NAME ? KEY_READ_NICE : WORKER_NICE); // this thread only
  } catch {
    // not allowed here (a container without the capability): the task runs at normal priority
  }
  const port = parentPort;
  const reader = new KeptReader();
  port.on("message", async (task: Task) => port.postMessage(await perform(task, reader)));
}

/** An import on a worker thread of its own, ended at its time limit or when its request ends (authoring/import-runner.ts). */
export async function importOffThread(job: ImportJob, limits: TaskLimits = {}): Promise<ImportResult> {
  return importResultOf(await runInWorker<ImportReply>({ kind: "import", job }, limits));
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

/**
 * The threads of key reads, one pool for the process, made on the first read: threads are the
 * process's, like its standard output, and the apps of a test process share them (each read names
 * its data dir). A thread idle for KEY_READ_THREAD_IDLE_MS ends.
 */
let keyReadThreads: ThreadPool | undefined;
const KEY_READ_THREAD_IDLE_MS = 30_000;

/** A key read on a thread of the pool (authoring/key-reads.ts). */
export function keyReadOffThread(job: KeyReadJob): Promise<KeyReadReply> {
  keyReadThreads ??= new ThreadPool(KEY_READS_AT_ONCE, KEY_READ_THREAD_IDLE_MS, KEY_READ_THREAD_NAME);
  return keyReadThreads.run<KeyReadReply>({ kind: "key-read", job });
}
