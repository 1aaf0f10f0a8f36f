import { join } from "node:path";
import { DurableFile } from "../bundles/files.ts";
import { bundleFileName } from "../bundles/layout.ts";
import { compileLanguageInto } from "../formats/bundle.ts";
import { BUNDLE_FORMATS, type BundleFormat } from "../formats/registry.ts";
import { Utf8Bytes } from "../formats/texts.ts";
import type { FileDigest, ManifestBasis } from "../delivery/manifest.ts";
import { MessageChecker, type CheckTally, type LanguageFindings } from "./checks.ts";
import { openSnapshotOf, type SnapshotSource } from "./snapshot.ts";

/**
 * One language of a publish as a job (docs/publishing.md §2): its values read from the snapshot and
 * checked, then, unless an error refuses the publish, compiled to every bundle format and written,
 * flushed, into the staging folder. A large publish runs these jobs on worker threads, each with
 * its own copy of the snapshot (compile-threads.ts); a small one on the server's thread.
 */
export interface LanguageJob {
  code: string;
  name: string;
  /** The staging folder to write into; null checks only (the publish is refused already). */
  dir: string | null;
  /** Write the files although the language has errors (an admin's allow_errors). */
  allowErrors: boolean;
}

export interface LanguageDone {
  findings: LanguageFindings;
  written: boolean;
  /**
   * Each written file's SHA-256 and size, measured as its bytes went to the disk (the release's
   * manifests name them, docs/delivery.md "Manifests"), so nothing is read back.
   */
  files?: Record<string, FileDigest>;
}

/** What compiling a publish's languages gives: the findings, and each written file's digest by language and format. */
export interface Compiled {
  tally: CheckTally;
  files: ManifestBasis["files"];
}

export class LanguageCompiler {
  private readonly checker: MessageChecker;
  private readonly base: SnapshotSource["languages"][number] | undefined;
  private readonly baseValues: (string | undefined)[];
  /**
   * Each format's file is written as UTF-8 into a buffer kept from one language to the next: no
   * file-sized string is made, and no new buffer per file, memory the system must hand over page
   * by page at a cost greater than the writing itself (docs/formats.md "Speed").
   */
  /**
   * Each format's file goes through a small buffer kept from one language to the next, written
   * to the file whenever it fills: no file-sized string or buffer is made, memory the system must
   * hand over page by page at a cost greater than the writing itself (docs/formats.md "Speed").
   */
  private readonly buffers = Object.fromEntries(BUNDLE_FORMATS.map((f) => [f, new Utf8Bytes(FILE_BUFFER_BYTES)])) as Record<BundleFormat, Utf8Bytes>;
  /**
   * The previous language's files being flushed to the disk: the next language is compiled
   * meanwhile (docs/publishing.md §2 "Threads"). `flush` waits for the last one.
   */
  private syncing: Promise<unknown> = Promise.resolve();

  constructor(private readonly snapshot: SnapshotSource) {
    this.base = snapshot.languages.find((l) => l.isBase);
    this.baseValues = this.base ? snapshot.valuesOf(this.base.code) : [];
    const { keys, keyIds, syntax } = snapshot;
    this.checker = new MessageChecker({ keys, keyIds, syntax, base: this.base && { code: this.base.code, name: this.base.name, values: this.baseValues } });
  }

  async run(job: LanguageJob): Promise<LanguageDone> {
    const values = job.code === this.base?.code ? this.baseValues : this.snapshot.valuesOf(job.code);
    const { args, findings } = this.checker.check(job, values);
    if (job.dir === null || (findings.errorCount > 0 && !job.allowErrors)) return { findings, written: false };
    const dir = job.dir;
    const files = BUNDLE_FORMATS.map((format) => [format, DurableFile.create(join(dir, bundleFileName(job.code, format)))] as const);
    const digests: Record<string, FileDigest> = {};
    try {
      const measured = files.map(([format, file]) => {
        const hasher = new Bun.CryptoHasher("sha256");
        const digest = { sha256: "", bytes: 0 };
        digests[format] = digest;
        this.buffers[format].reset((bytes) => {
          file.write(bytes);
          hasher.update(bytes);
          digest.bytes += bytes.byteLength;
        });
        return [format, hasher, digest] as const;
      });
      compileLanguageInto(this.snapshot, { code: job.code, values, arguments: args }, this.snapshot.syntax, this.buffers);
      for (const [format, hasher, digest] of measured) {
        this.buffers[format].end();
        digest.sha256 = hasher.digest("hex");
      }
    } catch (err) {
      for (const [, file] of files) file.abandon();
      throw err;
    }
    // One language's files are flushed while the next is compiled; a failure is reported by the
    // next language's wait or by `flush`.
    const previous = this.syncing;
    this.syncing = Promise.all([previous, ...files.map(([, file]) => file.close())]);
    this.syncing.catch(() => {});
    await previous;
    return { findings, written: true, files: digests };
  }

  /** Waits until every file written so far is flushed to the disk; throws what a write threw. */
  async flush(): Promise<void> {
    const syncing = this.syncing;
    this.syncing = Promise.resolve();
    await syncing;
  }
}

/** Bytes gathered before a file's buffer is written out: a few dozen writes for an 8 MB file. */
const FILE_BUFFER_BYTES = 256 * 1024;

/**
 * A task of a compiling thread: `start` answers once the thread is ready; `open` opens its copy of
 * the snapshot and counts itself in `opened` (1 when its view is taken, OPEN_FAILED when it
 * cannot), which the server's thread waits on while it holds the write lock; then one language at
 * a time; `flush` answers once every file written is on the disk; `close` ends the read transaction.
 */
export type CompileTask =
  | { start: true }
  | { open: { path: string; projectId: number; opened: Int32Array } }
  | { job: LanguageJob }
  | { flush: true }
  | { close: true };
export type CompileReply = { ok: LanguageDone | null } | { crashed: string };

/** What a thread adds to the `opened` count when it cannot open its snapshot. */
export const OPEN_FAILED = 1000;

/** The message a compiling thread is sent: the worker's dispatcher (dashboard-api/worker.ts) knows it by its kind. */
export const compileMessage = (task: CompileTask) => ({ kind: "compile" as const, task });

let snapshot: SnapshotSource | undefined;
let compiler: LanguageCompiler | undefined;

/** The worker thread's side. Never throws: the reply says what happened. */
export async function runCompileTask(task: CompileTask): Promise<CompileReply> {
  try {
    if ("start" in task) return { ok: null };
    if ("close" in task) {
      snapshot?.close();
      snapshot = compiler = undefined;
      return { ok: null };
    }
    if ("open" in task) {
      const { path, projectId, opened } = task.open;
      const count = (n: number) => {
        Atomics.add(opened, 0, n);
        Atomics.notify(opened, 0);
      };
      let counted = false;
      try {
        snapshot = openSnapshotOf(path, projectId, () => {
          counted = true;
          count(1);
        });
      } catch (err) {
        if (!counted) count(OPEN_FAILED);
        throw err;
      }
      compiler = new LanguageCompiler(snapshot);
      return { ok: null };
    }
    if (!compiler) throw new Error("a language job came before the snapshot was opened");
    if ("flush" in task) {
      await compiler.flush();
      return { ok: null };
    }
    const done = await compiler.run(task.job);
    // A language's values, reads and files are garbage once written, tens of MB at 100,000 keys;
    // collected at once, each thread holds about one language at a time (docs/publishing.md §7).
    Bun.gc(true);
    return { ok: done };
  } catch (err) {
    return { crashed: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

/** The answer of a reply, or the error it reports. */
export function compileResultOf(reply: CompileReply): LanguageDone | null {
  if ("ok" in reply) return reply.ok;
  throw new Error(`publish thread: ${reply.crashed}`);
}
