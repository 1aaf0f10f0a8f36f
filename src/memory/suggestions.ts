import { and, eq } from "drizzle-orm";
import { refreshBeforeReading } from "./index-pass.ts";
import { ProjectChecks } from "../authoring/checks.ts";
import { findKey } from "../authoring/keys.ts";
import { baseFormsOf } from "../authoring/plural-forms.ts";
import type { MessageProblem } from "../messages/check.ts";
import type { MessageSyntax } from "../messages/read-types.ts";
import type { Db } from "../storage/db.ts";
import { languages, translations, type KeyRow, type LanguageRow, type ProjectRow } from "../storage/schema.ts";
import { SUGGESTION_MIN_SCORE, SUGGESTIONS_MAX } from "./limits.ts";
import { nameMapping, nameSpans, renamed } from "./placeholders.ts";
import { prepareMemoryQueries, type KeyCandidate, type MemoryQueries, type UnitCandidate } from "./queries.ts";
import { primaryLanguage, scopeHolds, type ReadScope } from "./scope.ts";
import { codePoints, comparable, score } from "./score.ts";
import { MemoryIndex } from "./search.ts";

/** Where a memory suggestion comes from: a key of a project, or a memory imported into one. */
export interface MemoryOrigin {
  project: { id: string; name: string };
  key: { id: string; key: string } | null;
  memory: { id: string; name: string } | null;
  language_code: string;
}

export interface MemorySuggestion {
  source: "memory";
  value: string;
  score: number;
  from: MemoryOrigin;
  problems: MessageProblem[];
}

/** A match before it is checked: what the list is sorted and deduplicated by. */
export interface MemoryMatch {
  value: string;
  score: number;
  from: MemoryOrigin;
  /** Whether it comes from the project asked about (ahead of others of the same score). */
  sameProject: boolean;
}

/**
 * A base string longer than this is not looked up in the memory: a paragraph seldom recurs with a
 * few edits, and its trigrams and its distances would cost what a hundred short strings do.
 */
export const MATCHED_MAX_CODE_POINTS = 2000;
/**
 * A base string of at most this many code points (as compared) is matched against the stored short
 * strings of a length it could match (`shortCandidates`), not through the trigram index: two
 * strings of a few characters one edit apart may share no trigram but their first. Stored are those
 * of at most 20 code points (src/storage/derived.ts SHORT_STORED_MAX), which covers every match of
 * these and SHORT_LENGTH_SLACK more for placeholder names.
 */
export const SHORT_QUERY_MAX_CODE_POINTS = 12;
const SHORT_LENGTH_SLACK = 3;
/** How much lower than asked a short candidate may score when read with this project's syntax. */
const SHORT_PREFILTER_MARGIN = 10;
/** Stored strings kept as they are compared (a few megabytes). */
const COMPARABLES_KEPT_MAX = 50_000;
/** The cells of the distance's table one lookup computes at most (about 100 ms of work). */
export const SCORE_CELLS_BUDGET = 20_000_000;

/** What a lookup did: the index's postings read, the distance's cells computed. */
export interface MatchWork {
  postings: number;
  cells: number;
}

/**
 * The key's value in the project's base language, or null; for an i18next plural form the base
 * language lacks (`items_few` in English), its `_other` form's (src/authoring/plural-forms.ts).
 */
export function baseValueOf(db: Db, project: ProjectRow, key: Pick<KeyRow, "id" | "key">): string | null {
  const row = db
    .select({ value: translations.value })
    .from(translations)
    .innerJoin(languages, eq(languages.id, translations.languageId))
    .where(and(eq(translations.keyId, key.id), eq(languages.projectId, project.id), eq(languages.code, project.baseLanguageCode)))
    .get();
  return row?.value ?? baseFormsOf(db, project, [key.key]).get(key.key)?.value ?? null;
}

/**
 * The translation memory of one app (docs/translators.md "Translation memory"): its statements
 * and its index's memory of how rare each trigram is. Suggestions and pre-translation use it.
 */
export class TranslationMemory {
  readonly q: MemoryQueries;
  private readonly index: MemoryIndex;

  /** Stored strings as they are compared, by syntax and text: the same candidates come up again and again. */
  private readonly comparables = new Map<string, Int32Array>();

  constructor(readonly db: Db) {
    this.q = prepareMemoryQueries(db);
    this.index = new MemoryIndex(this.q);
  }

  /**
   * A short string's candidates: every stored string of a length it could match (src/storage/derived.ts
   * `memory_short`), those within reach when read as this project's syntax; each is then scored
   * exactly with its own. A string within d edits is between n - d and n + d code points as
   * compared, and no shorter as stored; SHORT_LENGTH_SLACK more allows for longer placeholder names.
   */
  private shortCandidates(wanted: Int32Array, minScore: number, syntax: MessageSyntax, work: MatchWork): number[] {
    const n = wanted.length;
    const reach = Math.floor((n * (100 - minScore)) / minScore) + 1;
    const out: number[] = [];
    for (const row of this.q.shortOfLengths.all(Math.max(0, n - reach), n + reach + SHORT_LENGTH_SLACK)) {
      work.postings++;
      // Read with this project's syntax: a looser bound than the score, which each candidate's own syntax then decides.
      if (score(wanted, this.comparableOf(row.text, syntax), Math.max(0, minScore - SHORT_PREFILTER_MARGIN), work) >= 0) out.push(row.id);
    }
    return out;
  }

  private comparableOf(text: string, syntax: MessageSyntax): Int32Array {
    const key = `${syntax}\0${text}`;
    let found = this.comparables.get(key);
    if (!found) {
      if (this.comparables.size >= COMPARABLES_KEPT_MAX) this.comparables.clear();
      found = codePoints(comparable(text, syntax));
      this.comparables.set(key, found);
    }
    return found;
  }

  /**
   * The stored translations into `language` whose base string is `base` or resembles it (score
   * at least `minScore`), best first, one per value: from every project `scope` holds whose base
   * language is this project's (by language: `en-GB` matches `en`), keys and imported memories
   * alike, but `key` itself. Placeholder names are counted as equal, and a suggestion takes
   * this key's names where the matched string's differ only in them.
   */
  matches(
    project: ProjectRow,
    key: KeyRow,
    base: string,
    language: LanguageRow,
    scope: ReadScope,
    minScore = SUGGESTION_MIN_SCORE,
    limit = SUGGESTIONS_MAX,
    work: MatchWork = { postings: 0, cells: 0 },
    candidatesMax?: number,
  ): MemoryMatch[] {
    const wanted = codePoints(comparable(base, project.messageSyntax));
    if (wanted.length > MATCHED_MAX_CODE_POINTS) return [];
    // A string this much longer or shorter cannot score `minScore`: it is not read or scored.
    const longest = Math.floor((wanted.length * 100) / minScore);
    const mySpans = nameSpans(base, project.messageSyntax);
    const short = wanted.length <= SHORT_QUERY_MAX_CODE_POINTS;
    const ids = short ? this.shortCandidates(wanted, minScore, project.messageSyntax, work) : this.index.candidates(comparable(base, project.messageSyntax), work, candidatesMax);
    if (ids.length === 0) return [];
    // First only each candidate's text, to score it; then the rest of those that score.
    const scores = new Map<number, number>();
    const scoreAll = (rows: { id: number; source: string; syntax: MessageSyntax }[], sign: 1 | -1) => {
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const id of ids) {
        const row = sign * id > 0 ? byId.get(sign * id) : undefined;
        // Candidates come best first: past the budget the rest are left unscored.
        if (!row || row.source.length > 2 * longest + 64 || work.cells > SCORE_CELLS_BUDGET) continue;
        const s = score(wanted, this.comparableOf(row.source, row.syntax), minScore, work);
        if (s >= 0) scores.set(id, s);
      }
    };
    const keyIds = ids.filter((id) => id > 0);
    const unitIds = ids.filter((id) => id < 0).map((id) => -id);
    if (keyIds.length > 0) scoreAll(this.q.keySources.all(JSON.stringify(keyIds)), 1);
    if (unitIds.length > 0) scoreAll(this.q.unitSources.all(JSON.stringify(unitIds)), -1);
    if (scores.size === 0) return [];
    const scoredKeys = [...scores.keys()].filter((id) => id > 0);
    const scoredUnits = [...scores.keys()].filter((id) => id < 0).map((id) => -id);
    const rows: (KeyCandidate | UnitCandidate)[] = [
      ...(scoredKeys.length > 0 ? this.q.keyCandidates.all(JSON.stringify(scoredKeys), language.code, key.id) : []),
      ...(scoredUnits.length > 0 ? this.q.unitCandidates.all(JSON.stringify(scoredUnits), language.code) : []),
    ];
    const sourceLanguage = primaryLanguage(project.baseLanguageCode);
    const best = new Map<string, MemoryMatch>();
    for (const row of rows) {
      if (!scopeHolds(scope, row.projectId) || primaryLanguage(row.baseCode) !== sourceLanguage) continue;
      const s = scores.get("keyId" in row ? row.id : -row.id)!;
      const match: MemoryMatch = { value: adopted(row.target, row.source, row.syntax, mySpans), score: s, from: originOf(row), sameProject: row.projectId === project.id };
      const known = best.get(match.value);
      if (!known || better(match, known)) best.set(match.value, match);
    }
    return [...best.values()].sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0)).slice(0, limit);
  }

  /** `GET .../keys/:keyId/suggestions` without the machine: the memory's matches, each with its problems as this key's value. */
  suggest(project: ProjectRow, keyPublicId: string, language: LanguageRow, scope: ReadScope): MemorySuggestion[] {
    // What was saved just before is in the index (src/memory/index-pass.ts).
    refreshBeforeReading(this.db);
    const key = findKey(this.db, project, keyPublicId);
    const base = baseValueOf(this.db, project, key);
    if (base === null || base.trim() === "" || language.code === project.baseLanguageCode) return [];
    const checks = new ProjectChecks(this.db, project);
    return this.matches(project, key, base, language, scope).map((m) => ({
      source: "memory" as const,
      value: m.value,
      score: m.score,
      from: m.from,
      problems: checks.findings(key.id, language.id, m.value).problems,
    }));
  }
}

function better(a: MemoryMatch, b: MemoryMatch): boolean {
  if (a.score !== b.score) return a.score > b.score;
  if (a.sameProject !== b.sameProject) return a.sameProject;
  return a.value < b.value;
}

/** A matched translation with this key's placeholder names, where the matched base string's line up with them. */
export function adopted(target: string, source: string, syntax: MessageSyntax, mine: ReturnType<typeof nameSpans>): string {
  if (mine.length === 0) return target;
  const mapping = nameMapping(nameSpans(source, syntax), mine);
  return mapping ? renamed(target, syntax, mapping) : target;
}

function originOf(row: KeyCandidate | UnitCandidate): MemoryOrigin {
  const project = { id: row.projectPublicId, name: row.projectName };
  if ("keyId" in row) return { project, key: { id: row.keyId, key: row.key }, memory: null, language_code: row.code };
  return { project, key: null, memory: { id: row.importId, name: row.importName }, language_code: row.code };
}
