import { and, eq } from "drizzle-orm";
import { invalidQueryParameter } from "../common/errors.ts";
import type { Db } from "../storage/db.ts";
import { languageCounts, languages, translationKeys, translations, type ProjectRow } from "../storage/schema.ts";
import { queryLanguage, searchedLanguages } from "./keys.ts";
import type { KeyCountsQuery } from "./model.ts";
import { keyTotals, notTranslatableValues, searchCondition, statusCounts } from "./queries.ts";

/**
 * How many keys each filter of the key list would show for one language (docs/product.md §8): the
 * counts beside the grid's filters, with the same `search`. `missing`, `translated` (not yet
 * approved) and `approved` partition `total`, less the keys marked not to be translated that have
 * no value in a language other than the base (they need none: docs/formats.md "Not translatable");
 * `problems` counts keys whose value in the language has a finding of the message checks.
 */
export interface KeyCountsView {
  language_code: string;
  total: number;
  missing: number;
  translated: number;
  approved: number;
  problems: number;
}

/**
 * A search matches the key, its context or a value in a language the caller may read (`visible`,
 * lower-case codes; null: every language), as the key list's does.
 *
 * Without a search, from the language's kept counts (`language_counts`, docs/architecture.md
 * "Counts kept"): every value of a language belongs to a key of its project, so the keys without
 * one are the keys less the values. With a search, one pass over the matching keys, each joined to
 * its one value in the language by the translations' primary key: a count costs what the filter's
 * own `count(*)` does, however many languages the project has.
 */
export function keyCounts(db: Db, project: ProjectRow, query: KeyCountsQuery, visible: ReadonlySet<string> | null = null): KeyCountsView {
  if (query.language === undefined) throw invalidQueryParameter("language", "required (the language the counts are about)");
  const all = db.select().from(languages).where(eq(languages.projectId, project.id)).all();
  const language = queryLanguage(all, query.language, "language");
  const search = query.search?.trim();
  const isBase = language.code === project.baseLanguageCode;
  if (!search) {
    const keys = db
      .select(keyTotals)
      .from(translationKeys)
      .where(eq(translationKeys.projectId, project.id))
      .get()!;
    const kept = db.select().from(languageCounts).where(eq(languageCounts.languageId, language.id)).get();
    const values = kept?.valueCount ?? 0;
    const approved = kept?.approvedCount ?? 0;
    // The keys marked not to be translated that have no value here need none (docs/formats.md "Not translatable").
    const notNeeded = isBase || keys.notTranslatable === 0 ? 0 : keys.notTranslatable - notTranslatableValues(db, project.id, language.id);
    return { language_code: language.code, total: keys.n, missing: keys.n - values - notNeeded, translated: values - approved, approved, problems: kept?.problemValueCount ?? 0 };
  }
  const row = db
    .select(statusCounts(isBase))
    .from(translationKeys)
    .leftJoin(translations, and(eq(translations.keyId, translationKeys.id), eq(translations.languageId, language.id)))
    .where(and(eq(translationKeys.projectId, project.id), searchCondition(db, project.id, search, searchedLanguages(db, project, visible))))
    .get()!;
  return { language_code: language.code, ...row };
}
