import { replyOf, resultOf, type JobReply } from "../common/job-reply.ts";
import type { Actor } from "../changes/actor.ts";
import { badRequest, HttpError } from "../common/errors.ts";
import { newId } from "../common/ids.ts";
import { openDatabase, type Db } from "../storage/db.ts";
import type { ProjectRow } from "../storage/schema.ts";
import { MEMORY_IMPORT_UNITS_MAX, MEMORY_SEGMENT_MAX_LENGTH } from "./limits.ts";
import { prepareMemoryImportQueries } from "./queries.ts";
import { primaryLanguage } from "./scope.ts";
import { readTmx, tmxDate } from "./tmx.ts";

/**
 * Importing a TMX file into a project's memory (docs/translators.md "TMX"): an import like any
 * other, on a worker thread with a connection of its own (docs/architecture.md "Reaching SQLite"),
 * so the server's thread goes on answering; written a chunk of units per transaction, so a save
 * waiting for the write lock waits for one chunk, not the file; all of it undone if it fails.
 */

export interface MemoryImportResult {
  id: string;
  imported: number;
  skipped: number;
}

export interface MemoryImportJob {
  dataDir: string;
  project: ProjectRow;
  bytes: Uint8Array;
  name: string | null;
  actor: Actor;
  now: number;
}

export type MemoryImportReply = JobReply<MemoryImportResult>;

/** Units written per transaction. */
export const UNITS_PER_CHUNK = 5000;

/** A TMX file's text: UTF-16 when its byte order mark says so (TMX allows it, and some tools write it), else UTF-8. */
export function decodeTmx(bytes: Uint8Array): string {
  const [a, b] = bytes;
  try {
    if (a === 0xff && b === 0xfe) return new TextDecoder("utf-16le", { fatal: true }).decode(bytes.subarray(2));
    if (a === 0xfe && b === 0xff) return new TextDecoder("utf-16be", { fatal: true }).decode(bytes.subarray(2));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw badRequest("invalid TMX file: not valid UTF-8 (or UTF-16 with a byte order mark)");
  }
}

/**
 * The project's language a file's `xml:lang` names: the same code in any letter case, else the
 * one language of the project with that primary language (`de-DE` for a project with `de`).
 */
export function projectLanguageFor(lang: string, codes: string[]): string | null {
  const wanted = lang.trim().toLowerCase();
  const exact = codes.find((c) => c.toLowerCase() === wanted);
  if (exact) return exact;
  const same = codes.filter((c) => primaryLanguage(c) === primaryLanguage(wanted));
  return same.length === 1 ? same[0]! : null;
}

interface Prepared {
  tuid: string | null;
  source: string;
  targets: [code: string, text: string][];
}

const usable = (text: string) => text.trim() !== "" && text.length <= MEMORY_SEGMENT_MAX_LENGTH && text.isWellFormed();

/** Imports `text` (a TMX file) into `project`'s memory. */
export async function importMemory(db: Db, project: ProjectRow, text: string, name: string | null, actor: Actor, now: number): Promise<MemoryImportResult> {
  const file = await readTmx(text);
  if (file.units.length > MEMORY_IMPORT_UNITS_MAX) {
    throw new HttpError(413, `the file holds ${file.units.length.toLocaleString("en-US")} units; one import takes at most ${MEMORY_IMPORT_UNITS_MAX.toLocaleString("en-US")}`);
  }
  const q = prepareMemoryImportQueries(db);
  const codes = q.languages.all(project.id).map((l) => l.code);
  const base = project.baseLanguageCode;
  const headerSource = file.srclang && file.srclang !== "*all*" ? file.srclang : null;
  if (headerSource && projectLanguageFor(headerSource, codes) !== base) {
    throw badRequest(`invalid TMX file: its source language (srclang) is ${headerSource.slice(0, 40)}, not this project's base language ${base}`);
  }
  const units: Prepared[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const unit of file.units) {
    const sourceLang = unit.srclang && unit.srclang !== "*all*" ? unit.srclang : headerSource;
    const source = unit.variants.find((v) => (sourceLang ? v.lang.toLowerCase() === sourceLang.toLowerCase() : projectLanguageFor(v.lang, codes) === base));
    const targets = new Map<string, string>();
    if (source && usable(source.text) && (!sourceLang || projectLanguageFor(sourceLang, codes) === base)) {
      for (const v of unit.variants) {
        if (v === source) continue;
        const code = projectLanguageFor(v.lang, codes);
        if (code !== null && code !== base && usable(v.text) && !targets.has(code)) targets.set(code, v.text);
      }
    }
    const prepared: Prepared = { tuid: unit.tuid, source: source?.text ?? "", targets: [...targets] };
    const identity = JSON.stringify([prepared.source, prepared.targets]);
    if (targets.size === 0 || seen.has(identity)) {
      skipped++;
      continue;
    }
    seen.add(identity);
    units.push(prepared);
  }
  const label = name?.trim() || `${file.creationtool ?? "TMX"} ${file.creationdate ?? tmxDate(now)}`;
  const { id: importId, publicId } = db.$client.transaction(() => q.insertImport.get(newId("tmx"), project.id, label, headerSource ?? base, actor.kind, actor.publicId, actor.name, now)!).immediate();
  try {
    for (let at = 0; at < units.length; at += UNITS_PER_CHUNK) {
      db.$client.transaction(() => {
        for (const u of units.slice(at, at + UNITS_PER_CHUNK)) {
          const id = q.insertUnit.get(importId, project.id, u.tuid, u.source)!.id;
          for (const [code, target] of u.targets) q.insertTarget.run(id, code, target);
        }
        q.setUnits.run(Math.min(at + UNITS_PER_CHUNK, units.length), importId);
      }).immediate();
      // Room for the server's writers between chunks.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } catch (err) {
    db.$client.transaction(() => q.deleteImport.run(importId)).immediate();
    throw err;
  }
  return { id: publicId, imported: units.length, skipped };
}

/** Runs one import on a connection of its own (a worker thread's), then closes it. Never throws. */
export async function runMemoryImportJob(job: MemoryImportJob): Promise<MemoryImportReply> {
  const opened: Db[] = [];
  try {
    return await replyOf(() => {
      const text = decodeTmx(job.bytes);
      const db = openDatabase(job.dataDir);
      opened.push(db);
      return importMemory(db, job.project, text, job.name, job.actor, job.now);
    });
  } finally {
    for (const db of opened) db.$client.close();
  }
}

/** The result of a reply, or the error it reports. */
export function memoryImportResultOf(reply: MemoryImportReply): MemoryImportResult {
  return resultOf(reply, "memory import job");
}
