import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { HttpError, invalidQueryParameter } from "../common/errors.ts";
import { DATABASE_FILE, openReadOnly } from "../storage/db.ts";
import type { ProjectRow } from "../storage/schema.ts";
import { prepareMemoryExportQueries } from "./queries.ts";
import { writableInXml, writeTmx, type TmxOut } from "./tmx.ts";

/**
 * `GET /projects/:pid/tm.tmx?language=CODE` (docs/translators.md "TMX"): the project's base
 * strings and their translations into CODE as a TMX 1.4b file, each unit's `tuid` its key; with
 * `imported=true` the units of the memories imported into the project follow. Built on a worker
 * thread, on a read-only connection, like a release's export.
 */
export interface MemoryExportJob {
  dataDir: string;
  project: ProjectRow;
  language: string;
  imported: boolean;
  now: number;
}

export interface MemoryExportFile {
  name: string;
  body: string;
  /** Units left out: a text XML 1.0 cannot hold (a control character stored before such values were refused). */
  left_out: number;
}

export type MemoryExportReply = { ok: MemoryExportFile } | { refused: { status: number; message: string } } | { crashed: string };

export function exportMemory(job: MemoryExportJob): MemoryExportFile {
  const db = openReadOnly(join(job.dataDir, DATABASE_FILE));
  try {
    const q = prepareMemoryExportQueries(db);
    const target = q.language.get(job.project.id, job.language);
    if (!target) throw invalidQueryParameter("language", `${job.language.slice(0, 40) || "an empty code"} is not a language of this project`);
    const base = q.language.get(job.project.id, job.project.baseLanguageCode)!;
    let leftOut = 0;
    const units: TmxOut[] = [];
    const take = (u: TmxOut) => {
      if (writableInXml(u.source) && writableInXml(u.target) && (u.tuid === null || writableInXml(u.tuid))) units.push(u);
      else leftOut++;
    };
    if (target.id !== base.id) for (const row of q.pairs.iterate(job.project.id, base.id, target.id)) take(row);
    if (job.imported) for (const row of q.imported.iterate(job.project.id, target.code)) take(row);
    const slug = job.project.name.replace(/[^\p{L}\p{N}._-]+/gu, "-").replace(/^-+|-+$/g, "") || "project";
    return { name: `${slug}.${base.code}-${target.code}.tmx`, body: writeTmx(base.code, target.code, units, job.now, pkg.version), left_out: leftOut };
  } finally {
    db.$client.close();
  }
}

/** Runs an export on a worker thread. Never throws. */
export function runMemoryExportJob(job: MemoryExportJob): MemoryExportReply {
  try {
    return { ok: exportMemory(job) };
  } catch (err) {
    if (err instanceof HttpError) return { refused: { status: err.status, message: err.message } };
    return { crashed: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

export function memoryExportOf(reply: MemoryExportReply): MemoryExportFile {
  if ("ok" in reply) return reply.ok;
  if ("refused" in reply) throw new HttpError(reply.refused.status, reply.refused.message);
  throw new Error(`memory export job: ${reply.crashed}`);
}
