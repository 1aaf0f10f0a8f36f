import { eq, sql } from "drizzle-orm";
import type { Db } from "../storage/db.ts";
import { languages, translationKeys, translations, type ProjectRow } from "../storage/schema.ts";

/**
 * Per-language progress for the key grid and the publish confirmation (docs/dashboard.md
 * "Progress"), with the message checks' errors and warnings. The paged key list cannot give
 * totals without fetching every key, so one grouped count answers it.
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
      translated: sql<number>`count(${translations.keyId})`,
      approved: sql<number>`coalesce(sum(${translations.status} = 'approved'), 0)`,
      errors: sql<number>`coalesce(sum(${translations.errorCount}), 0)`,
      warnings: sql<number>`coalesce(sum(${translations.warningCount}), 0)`,
    })
    .from(languages)
    .leftJoin(translations, eq(translations.languageId, languages.id))
    .where(eq(languages.projectId, project.id))
    .groupBy(languages.id)
    .orderBy(languages.code)
    .all();
  return {
    total_keys: total,
    languages: rows.map((r) => ({ ...r, is_base_language: r.code === project.baseLanguageCode })),
  };
}
