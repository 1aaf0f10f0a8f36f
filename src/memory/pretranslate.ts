import { replyOf, resultOf, type JobReply } from "../common/job-reply.ts";
import { refreshAll } from "./index-pass.ts";
import type { Actor } from "../changes/actor.ts";
import { Changes } from "../changes/changes.ts";
import { ProjectChecks } from "../authoring/checks.ts";
import { invalidField } from "../common/errors.ts";
import { openDatabase, type Db } from "../storage/db.ts";
import type { KeyRow, LanguageRow, ProjectRow } from "../storage/schema.ts";
import { PRETRANSLATE_MAX_VALUES, SUGGESTION_EXACT_SCORE } from "./limits.ts";
import { nameSpans } from "./placeholders.ts";
import { preparePretranslateQueries } from "./queries.ts";
import { primaryLanguage, scopeHolds, type ReadScope } from "./scope.ts";
import { comparable } from "./score.ts";
import { adopted, TranslationMemory } from "./suggestions.ts";

/**
 * Pre-translation (docs/translators.md "Pre-translation"): a language's missing values filled from
 * the memory, and from the machine when asked, by a developer. A value is saved only when the
 * message checks find nothing in it, neither error nor warning; it is saved as translated, never
 * approved, with a history entry `via: "memory"` or `"machine"`, so a project that publishes
 * approved strings only never ships it unreviewed.
 *
 * The memory's part is a job for a worker thread (like an import: 10,000 keys are seconds of
 * work), written a chunk at a time; the machine's part runs on the server's thread afterwards,
 * since its requests go through the server's one way out (docs/architecture.md "Requests the
 * server makes").
 */
export interface PretranslateJob {
  dataDir: string;
  project: ProjectRow;
  language: LanguageRow;
  minScore: number;
  scope: { only: number[] | null; except: number[] };
  actor: Actor;
  now: number;
  /** Whether to answer the keys the memory left, for the machine. */
  leftWanted: boolean;
}

export interface PretranslateProgress {
  filled: number;
  skipped: number;
  /** Keys the memory had nothing for (only when asked), by row id, with their name and base value. */
  left: { id: number; key: string; base: string }[];
}

export type PretranslateReply = JobReply<PretranslateProgress>;

/** Values written per transaction. */
export const VALUES_PER_CHUNK = 500;
/** Candidates scored per key: the best one is wanted, not ten (bench/RESULTS.md "Translation memory"). */
export const PRETRANSLATE_CANDIDATES_MAX = 200;

export interface Fill {
  keyId: number;
  key: string;
  value: string;
}

/**
 * Saves `fills` (checked already) as translated values of `language`, each where the language still
 * has no value (a person may have saved one meanwhile), with its history entry and event. Returns
 * how many it saved.
 */
export function saveFills(db: Db, changes: Changes, project: ProjectRow, language: LanguageRow, fills: Fill[], via: "memory" | "machine", actor: Actor, now: number): number {
  const q = preparePretranslateQueries(db);
  let saved = 0;
  db.$client
    .transaction(() => {
      for (const f of fills) {
        if (q.exists.get(f.keyId, language.id)) continue;
        q.insertValue.run(f.keyId, language.id, f.value, now, now);
        q.insertHistory.run(f.keyId, language.id, f.value, actor.kind, actor.publicId, actor.name, via, now);
        changes.event(project, "translation_created", { key: f.key, language_code: language.code, value: f.value, status: "translated" });
        saved++;
      }
    })
    .immediate();
  return saved;
}

interface Exact {
  target: string;
  source: string;
  syntax: ProjectRow["messageSyntax"];
  sameProject: boolean;
}

/** Every stored translation into the language, by its comparable base string: the exact matches, found in one pass. */
function exactMatches(db: Db, project: ProjectRow, language: LanguageRow, scope: ReadScope): Map<string, Exact> {
  const q = preparePretranslateQueries(db);
  const wanted = primaryLanguage(project.baseLanguageCode);
  const out = new Map<string, Exact>();
  const take = (row: { source: string; target: string; projectId: number; syntax: ProjectRow["messageSyntax"]; baseCode: string }) => {
    if (!scopeHolds(scope, row.projectId) || primaryLanguage(row.baseCode) !== wanted) return;
    const key = comparable(row.source, row.syntax);
    const sameProject = row.projectId === project.id;
    const known = out.get(key);
    if (!known || (sameProject && !known.sameProject)) out.set(key, { target: row.target, source: row.source, syntax: row.syntax, sameProject });
  };
  for (const row of q.keyPairs.iterate(language.code)) take(row);
  for (const row of q.unitPairs.iterate(language.code)) take(row);
  return out;
}

/** The memory's part, on the connection `db`. */
export function pretranslateFromMemory(db: Db, changes: Changes, job: Omit<PretranslateJob, "dataDir">): PretranslateProgress {
  const { project, language, minScore, actor, now } = job;
  const scope: ReadScope = { only: job.scope.only ? new Set(job.scope.only) : null, except: new Set(job.scope.except) };
  const q = preparePretranslateQueries(db);
  const baseId = q.baseLanguage.get(project.id, project.baseLanguageCode)?.id;
  if (baseId === undefined) return { filled: 0, skipped: 0, left: [] };
  const missing = q.missing.all(project.id, language.id, baseId, PRETRANSLATE_MAX_VALUES);
  const exact = exactMatches(db, project, language, scope);
  // The memory's index holds every string before it is read (src/memory/index-pass.ts).
  if (minScore < SUGGESTION_EXACT_SCORE) refreshAll(db);
  const memory = minScore < SUGGESTION_EXACT_SCORE ? new TranslationMemory(db) : null;
  const checks = new ProjectChecks(db, project);
  const progress: PretranslateProgress = { filled: 0, skipped: 0, left: [] };
  let chunk: Fill[] = [];
  const flush = () => {
    progress.filled += saveFills(db, changes, project, language, chunk, "memory", actor, now);
    chunk = [];
  };
  for (const k of missing) {
    const hit = exact.get(comparable(k.base, project.messageSyntax));
    let value: string | null = hit ? adopted(hit.target, hit.source, hit.syntax, nameSpans(k.base, project.messageSyntax)) : null;
    if (value === null && memory) {
      const key = { id: k.id, key: k.key } as KeyRow;
      value = memory.matches(project, key, k.base, language, scope, minScore, 1, undefined, PRETRANSLATE_CANDIDATES_MAX)[0]?.value ?? null;
    }
    if (value === null) {
      if (job.leftWanted) progress.left.push({ id: k.id, key: k.key, base: k.base });
      else progress.skipped++;
      continue;
    }
    if (checks.findings(k.id, language.id, value).problems.length > 0) {
      progress.skipped++;
      continue;
    }
    chunk.push({ keyId: k.id, key: k.key, value });
    if (chunk.length === VALUES_PER_CHUNK) flush();
  }
  flush();
  return progress;
}

/** The job on a worker thread's own connection. Never throws. */
export async function runPretranslateJob(job: PretranslateJob): Promise<PretranslateReply> {
  const db = openDatabase(job.dataDir);
  try {
    const clock = { now: () => job.now };
    return await replyOf(() => pretranslateFromMemory(db, new Changes(db, clock), job));
  } finally {
    db.$client.close();
  }
}

export function pretranslateResultOf(reply: PretranslateReply): PretranslateProgress {
  return resultOf(reply, "pre-translation job");
}

/** The language asked for, as the project spells it: a language of the project other than its base. */
export function pretranslateLanguage(all: LanguageRow[], project: ProjectRow, code: string): LanguageRow {
  const found = all.find((l) => l.code.toLowerCase() === code.trim().toLowerCase());
  if (!found) throw invalidField("language_code", `${code.slice(0, 40)} is not a language of this project`);
  if (found.code === project.baseLanguageCode) throw invalidField("language_code", `${found.code} is the base language; pre-translation fills the other languages`);
  return found;
}
