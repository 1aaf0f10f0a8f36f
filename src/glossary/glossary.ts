import { and, asc, count, eq } from "drizzle-orm";
import { markProjectUnchecked, recheckProject } from "../authoring/checks.ts";
import { conflict, invalidField, notFound } from "../common/errors.ts";
import { iso } from "../common/clock.ts";
import { newId } from "../common/ids.ts";
import { hasControlCharacters } from "../common/text.ts";
import type { ServiceDeps } from "../deps.ts";
import type { Db } from "../storage/db.ts";
import { glossaryTerms, languages, type GlossaryTermRow, type ProjectRow } from "../storage/schema.ts";
import { GLOSSARY_TERMS_MAX, type NewTerm, type TermPatch } from "./model.ts";
import { markTermUnchecked } from "./queries.ts";

/**
 * A project's glossary (docs/translators.md "Glossary"): terms of the base language with their
 * translations, a note, whether letter case matters and whether the term is never translated.
 * Every change rechecks the translations whose base text may hold the term, before the answer,
 * so their `glossary` findings are current (docs/messages.md "Glossary").
 */
export interface TermView {
  id: string;
  term: string;
  translations: Record<string, string>;
  note: string;
  case_sensitive: boolean;
  do_not_translate: boolean;
  created_at: string;
  updated_at: string;
}

export function termView(row: GlossaryTermRow): TermView {
  return {
    id: row.publicId,
    term: row.term,
    translations: row.translations,
    note: row.note,
    case_sensitive: row.caseSensitive,
    do_not_translate: row.doNotTranslate,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function listTerms(db: Db, project: ProjectRow): TermView[] {
  return db.select().from(glossaryTerms).where(eq(glossaryTerms.projectId, project.id)).orderBy(asc(glossaryTerms.term)).all().map(termView);
}

function findTerm(db: Db, project: ProjectRow, publicId: string): GlossaryTermRow {
  const row = db.select().from(glossaryTerms).where(and(eq(glossaryTerms.projectId, project.id), eq(glossaryTerms.publicId, publicId))).get();
  if (!row) throw notFound("glossary term not found");
  return row;
}

/** A term as stored: trimmed, not blank, no control characters. */
export function cleanTerm(raw: string, field = "term"): string {
  const term = raw.trim();
  if (term === "") throw invalidField(field, "must not be empty");
  if (hasControlCharacters(term)) throw invalidField(field, "must not contain control characters");
  return term;
}

/** The project's codes by lower case, for translations given in any letter case. */
export function projectCodes(db: Db, project: ProjectRow): Map<string, { code: string; id: number }> {
  const rows = db.select({ code: languages.code, id: languages.id }).from(languages).where(eq(languages.projectId, project.id)).all();
  return new Map(rows.map((r) => [r.code.toLowerCase(), r]));
}

/** `given` merged into `current`: codes as the project spells them, an empty text removes its language. */
export function mergeTranslations(codes: Map<string, { code: string }>, current: Record<string, string>, given: Record<string, string> | undefined, field = "translations"): Record<string, string> {
  const out: Record<string, string> = { ...current };
  for (const [raw, text] of Object.entries(given ?? {})) {
    const code = codes.get(raw.trim().toLowerCase())?.code;
    if (!code) throw invalidField(field, `${raw.slice(0, 40) || "an empty code"} is not a language of this project`);
    if (hasControlCharacters(text)) throw invalidField(field, `the ${code} translation must not contain control characters`);
    if (text.trim() === "") delete out[code];
    else out[code] = text.trim();
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function termCount(db: Db, projectId: number): number {
  return db.select({ n: count() }).from(glossaryTerms).where(eq(glossaryTerms.projectId, projectId)).get()!.n;
}

function assertFree(db: Db, project: ProjectRow, term: string, exceptId?: number): void {
  const other = db.select({ id: glossaryTerms.id }).from(glossaryTerms).where(and(eq(glossaryTerms.projectId, project.id), eq(glossaryTerms.term, term))).get();
  if (other && other.id !== exceptId) throw conflict(`the glossary already has the term "${term}"`);
}

/** Past this many terms changed at once (a CSV import), every value of the project is rechecked instead of each term's. */
export const RECHECK_TERMS_ONE_BY_ONE_MAX = 100;

/** After terms changed: the translations they may concern rechecked (`texts`: the terms before and after). */
export async function recheckTerms({ db, clock }: Pick<ServiceDeps, "db" | "clock">, project: ProjectRow, texts: string[]): Promise<void> {
  const base = projectCodes(db, project).get(project.baseLanguageCode.toLowerCase());
  const distinct = new Set(texts);
  if (!base || distinct.size === 0) return;
  db.transaction(() => {
    if (distinct.size > RECHECK_TERMS_ONE_BY_ONE_MAX) markProjectUnchecked(db, project.id);
    else for (const text of distinct) markTermUnchecked(db, project.id, base.id, text);
  });
  await recheckProject(db, () => clock.now(), project.id);
}

export async function createTerm(deps: ServiceDeps, project: ProjectRow, input: NewTerm): Promise<TermView> {
  const { db, clock } = deps;
  const term = cleanTerm(input.term);
  const translations = mergeTranslations(projectCodes(db, project), {}, input.translations);
  const now = clock.now();
  const row = db.transaction(() => {
    assertFree(db, project, term);
    if (termCount(db, project.id) >= GLOSSARY_TERMS_MAX) throw conflict(`the glossary holds ${GLOSSARY_TERMS_MAX.toLocaleString("en-US")} terms, its most`);
    return db
      .insert(glossaryTerms)
      .values({
        publicId: newId("gls"),
        projectId: project.id,
        term,
        translations,
        note: input.note?.trim() ?? "",
        caseSensitive: input.case_sensitive ?? false,
        doNotTranslate: input.do_not_translate ?? false,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
  });
  await recheckTerms(deps, project, [term]);
  return termView(row);
}

export async function updateTerm(deps: ServiceDeps, project: ProjectRow, publicId: string, patch: TermPatch): Promise<TermView> {
  const { db, clock } = deps;
  const before = findTerm(db, project, publicId);
  const term = patch.term === undefined ? before.term : cleanTerm(patch.term);
  const translations = mergeTranslations(projectCodes(db, project), before.translations, patch.translations);
  const row = db.transaction(() => {
    if (term !== before.term) assertFree(db, project, term, before.id);
    return db
      .update(glossaryTerms)
      .set({
        term,
        translations,
        note: patch.note === undefined ? before.note : patch.note.trim(),
        caseSensitive: patch.case_sensitive ?? before.caseSensitive,
        doNotTranslate: patch.do_not_translate ?? before.doNotTranslate,
        updatedAt: Math.max(clock.now(), before.updatedAt + 1),
      })
      .where(eq(glossaryTerms.id, before.id))
      .returning()
      .get()!;
  });
  await recheckTerms(deps, project, [before.term, term]);
  return termView(row);
}

export async function deleteTerm(deps: ServiceDeps, project: ProjectRow, publicId: string): Promise<void> {
  const row = findTerm(deps.db, project, publicId);
  deps.db.transaction(() => {
    deps.db.delete(glossaryTerms).where(eq(glossaryTerms.id, row.id)).run();
  });
  await recheckTerms(deps, project, [row.term]);
}
