import { and, asc, eq } from "drizzle-orm";
import { iso } from "../common/clock.ts";
import { conflict, notFound } from "../common/errors.ts";
import type { ServiceDeps } from "../deps.ts";
import type { Db } from "../storage/db.ts";
import { languages, type LanguageRow, type ProjectRow } from "../storage/schema.ts";
import { defaultLanguageName, normaliseLanguageCode } from "./language-codes.ts";
import type { NewLanguage } from "./model.ts";

export interface LanguageView {
  code: string;
  name: string;
  is_base_language: boolean;
  created_at: string;
}

export function languageView(project: ProjectRow, l: LanguageRow): LanguageView {
  return { code: l.code, name: l.name, is_base_language: l.code === project.baseLanguageCode, created_at: iso(l.createdAt) };
}

export function listLanguages(db: Db, project: ProjectRow): LanguageView[] {
  return db
    .select()
    .from(languages)
    .where(eq(languages.projectId, project.id))
    .orderBy(asc(languages.code))
    .all()
    .map((l) => languageView(project, l));
}

export function findLanguage(db: Db, project: ProjectRow, rawCode: string | null): LanguageRow {
  // A path segment the router cannot percent-decode arrives as null: it names no language.
  if (typeof rawCode !== "string") throw notFound("language not found");
  // Codes compare case-insensitively (pt-br names pt-BR); stored codes are canonical.
  const code = rawCode.toLowerCase();
  const row = db
    .select()
    .from(languages)
    .where(eq(languages.projectId, project.id))
    .all()
    .find((l) => l.code.toLowerCase() === code);
  if (!row) throw notFound(`language ${rawCode} is not in this project`);
  return row;
}

/** Adds a language; without a name (or a blank one), the language's English name. */
export function addLanguage({ db, clock, changes }: ServiceDeps, project: ProjectRow, input: NewLanguage): LanguageView {
  const code = normaliseLanguageCode(input.code);
  const name = input.name?.trim() || defaultLanguageName(code);
  const existing = db.select({ code: languages.code }).from(languages).where(eq(languages.projectId, project.id)).all();
  if (existing.some((l) => l.code.toLowerCase() === code.toLowerCase())) throw conflict(`language ${code} is already in this project`);
  const row = db.insert(languages).values({ projectId: project.id, code, name, createdAt: clock.now() }).returning().get();
  changes.notify(project.id);
  return languageView(project, row);
}

/** Removes a language and its translations; published releases keep theirs (docs/interface.md §3). */
export function removeLanguage({ db, changes }: ServiceDeps, project: ProjectRow, rawCode: string | null): void {
  const lang = findLanguage(db, project, rawCode);
  if (lang.code === project.baseLanguageCode) throw conflict(`${lang.code} is the base language; choose another base language first`);
  db.delete(languages).where(and(eq(languages.projectId, project.id), eq(languages.id, lang.id))).run();
  changes.notify(project.id);
}
