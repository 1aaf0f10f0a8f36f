import { count, eq } from "drizzle-orm";
import type { Db } from "../storage/db.ts";
import { orZero } from "../storage/functions.ts";
import { languageCounts, languages, translationKeys, type ProjectRow } from "../storage/schema.ts";
import { ProjectPluralForms } from "./plural-forms.ts";
import { notTranslatableKeyIds, valuesAmong } from "./queries.ts";

/**
 * Per-language progress for the key grid and the publish confirmation (docs/dashboard.md
 * "Progress"), with the message checks' errors and warnings. The paged key list cannot give
 * totals without fetching every key; the counts are kept per language as values are written
 * (`language_counts`, docs/architecture.md "Counts kept"), so this reads one row per language.
 */
export interface LanguageProgress {
  code: string;
  name: string;
  is_base_language: boolean;
  /**
   * The keys this language needs: `total_keys` less the i18next plural forms it does not use
   * (docs/messages.md "i18next plural forms") and, but in the base language, the keys marked not to
   * be translated (docs/formats.md "Not translatable"); progress is `translated / total_keys` of
   * the language.
   */
  total_keys: number;
  /** keys it needs with a value in this language (translated or approved) */
  translated: number;
  approved: number;
  /** The message checks' findings in this language's values, by severity (docs/product.md §7). */
  errors: number;
  warnings: number;
}

export interface ProjectProgress {
  total_keys: number;
  languages: LanguageProgress[];
}

export function projectProgress(db: Db, project: ProjectRow): ProjectProgress {
  const total = db.select({ n: count() }).from(translationKeys).where(eq(translationKeys.projectId, project.id)).get()!.n;
  const rows = db
    .select({
      code: languages.code,
      name: languages.name,
      translated: orZero(languageCounts.valueCount),
      approved: orZero(languageCounts.approvedCount),
      errors: orZero(languageCounts.errorCount),
      warnings: orZero(languageCounts.warningCount),
    })
    .from(languages)
    .leftJoin(languageCounts, eq(languageCounts.languageId, languages.id))
    .where(eq(languages.projectId, project.id))
    .orderBy(languages.code)
    .all();
  const forms = new ProjectPluralForms(db, project);
  const notTranslatable = notTranslatableKeyIds(db, project.id);
  return {
    total_keys: total,
    languages: rows.map((r) => {
      const isBase = r.code === project.baseLanguageCode;
      const unused = isBase || notTranslatable.length === 0 ? forms.unusedIn(r.code) : [...new Set([...forms.unusedIn(r.code), ...notTranslatable])];
      const out: LanguageProgress = { ...r, is_base_language: isBase, total_keys: total - unused.length };
      if (unused.length > 0) {
        // A value for a form the language does not use (English `items_many`), or of a key not to be translated, is not progress.
        const extra = valuesAmong(db, project.id, r.code, unused);
        out.translated -= extra.n;
        out.approved -= extra.approved;
      }
      return out;
    }),
  };
}
