import { eq } from "drizzle-orm";
import { invalidQueryParameter } from "../common/errors.ts";
import { pageInfo, parsePositiveInt, type PageInfo } from "../common/paging.ts";
import type { ProblemItem } from "../messages/check.ts";
import type { Db } from "../storage/db.ts";
import { languages, type ProjectRow } from "../storage/schema.ts";
import { PROBLEMS_PAGE_SIZE_DEFAULT, PROBLEMS_PAGE_SIZE_MAX, type ProblemListQuery } from "./model.ts";
import { prepareProblemQueries } from "./queries.ts";

/**
 * `GET /projects/:pid/problems` (docs/product.md §7): every finding stored for the project's
 * values, in key order (code points) then language code, errors of a value before its warnings.
 */
export function listProblems(db: Db, project: ProjectRow, query: ProblemListQuery): { items: ProblemItem[]; page_info: PageInfo } {
  const page = parsePositiveInt(query.page, "page", 1);
  const pageSize = Math.min(parsePositiveInt(query.page_size, "page_size", PROBLEMS_PAGE_SIZE_DEFAULT), PROBLEMS_PAGE_SIZE_MAX);
  let languageId: number | null = null;
  if (query.language !== undefined) {
    const wanted = query.language.trim().toLowerCase();
    const found = db.select().from(languages).where(eq(languages.projectId, project.id)).all().find((l) => l.code.toLowerCase() === wanted);
    if (!found) throw invalidQueryParameter("language", `${query.language || "an empty code"} is not a language of this project`);
    languageId = found.id;
  }
  const q = prepareProblemQueries(db);
  const severity = query.severity ?? null;
  const total = q.count.get(project.id, languageId, severity)!.n;
  const items = q.page.all(project.id, languageId, severity, pageSize, (page - 1) * pageSize) as ProblemItem[];
  return { items, page_info: pageInfo(total, page, pageSize) };
}
