import { and, asc, eq } from "drizzle-orm";
import { iso, type Clock } from "../common/clock.ts";
import { invalidField } from "../common/errors.ts";
import type { Db } from "../storage/db.ts";
import { editorPreferences, languages, type LanguageRow, type ProjectRow } from "../storage/schema.ts";
import type { EditorPreferencesInput } from "./model.ts";

/**
 * Which languages a user's key grid shows in a project (docs/product.md §8, docs/dashboard.md
 * "Choosing the languages shown"): remembered per user and project in the database, so the choice
 * follows the user from one browser to the next. Only the user's own; nothing is announced (it
 * changes no content, so no webhook and no cache purge).
 */
export interface EditorPreferencesView {
  /** Codes as the project spells them: the base language first, then the others in code order. */
  languages: string[];
  /** When the user last chose; null while they never have and `languages` is the default. */
  updated_at: string | null;
}

/**
 * Until a user chooses, the grid shows the base language and the next few in code order: a
 * project of 3 languages shows them all, as before, and one of 30 does not open on 30 columns.
 */
export const DEFAULT_SHOWN_LANGUAGES = 4;

function projectLanguages(db: Db, project: ProjectRow): LanguageRow[] {
  return db.select().from(languages).where(eq(languages.projectId, project.id)).orderBy(asc(languages.code)).all();
}

/** The base language first, then `chosen` in code order; codes no longer in the project are left out. */
function shown(project: ProjectRow, all: LanguageRow[], chosen: (code: string) => boolean): string[] {
  const base = all.filter((l) => l.code === project.baseLanguageCode).map((l) => l.code);
  return [...base, ...all.filter((l) => l.code !== project.baseLanguageCode && chosen(l.code)).map((l) => l.code)];
}

export function editorPreferencesOf(db: Db, project: ProjectRow, userId: number): EditorPreferencesView {
  const all = projectLanguages(db, project);
  const row = db
    .select()
    .from(editorPreferences)
    .where(and(eq(editorPreferences.userId, userId), eq(editorPreferences.projectId, project.id)))
    .get();
  if (!row) {
    const others = all.filter((l) => l.code !== project.baseLanguageCode).slice(0, DEFAULT_SHOWN_LANGUAGES - 1).map((l) => l.code);
    return { languages: shown(project, all, (code) => others.includes(code)), updated_at: null };
  }
  // A language deleted since the choice is simply no longer shown.
  const stored = new Set(row.languages);
  return { languages: shown(project, all, (code) => stored.has(code)), updated_at: iso(row.updatedAt) };
}

/**
 * Replaces the user's choice. Every code must be one of the project's (any letter case, 400 naming
 * `languages` otherwise); repeats count once; the base language is always shown, listed or not.
 * One row per user and project, written with an upsert, so choices sent at once leave one of them.
 */
export function setEditorPreferences(db: Db, clock: Clock, project: ProjectRow, userId: number, codes: EditorPreferencesInput["languages"]): EditorPreferencesView {
  const all = projectLanguages(db, project);
  const byLower = new Map(all.map((l) => [l.code.toLowerCase(), l.code]));
  const chosen = new Set<string>();
  for (const raw of codes) {
    const code = byLower.get(raw.trim().toLowerCase());
    if (!code) throw invalidField("languages", `${raw.trim() === "" ? "an empty code" : JSON.stringify(raw)} is not a language of this project`);
    chosen.add(code);
  }
  const list = shown(project, all, (code) => chosen.has(code));
  const now = clock.now();
  db.insert(editorPreferences)
    .values({ userId, projectId: project.id, languages: list, updatedAt: now })
    .onConflictDoUpdate({ target: [editorPreferences.userId, editorPreferences.projectId], set: { languages: list, updatedAt: now } })
    .run();
  return { languages: list, updated_at: iso(now) };
}
