import { eq, sql } from "drizzle-orm";
import type { Db } from "../storage/db.ts";
import { languageCounts, languages, translationKeys, type ProjectRow } from "../storage/schema.ts";

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
  /** keys with a value in this language (translated or approved) */
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
  const total = db.select({ n: sql<number>`count(*)` }).from(translationKeys).where(eq(translationKeys.projectId, project.id)).get()!.n;
  const rows = db
    .select({
      code: languages.code,
      name: languages.name,
      translated: sql<number>`coalesce(${languageCounts.valueCount}, 0)`,
      approved: sql<number>`coalesce(${languageCounts.approvedCount}, 0)`,
      errors: sql<number>`coalesce(${languageCounts.errorCount}, 0)`,
      warnings: sql<number>`coalesce(${languageCounts.warningCount}, 0)`,
    })
    .from(languages)
    .leftJoin(languageCounts, eq(languageCounts.languageId, languages.id))
    .where(eq(languages.projectId, project.id))
    .orderBy(languages.code)
    .all();
  return {
    total_keys: total,
    languages: rows.map((r) => ({ ...r, is_base_language: r.code === project.baseLanguageCode })),
  };
}
