import { eq } from "drizzle-orm";
import { invalidQueryParameter } from "../common/errors.ts";
import { pageInfo, parsePositiveInt, type PageInfo } from "../common/paging.ts";
import type { ProblemItem } from "../messages/check.ts";
import type { Db } from "../storage/db.ts";
import { languages, type ProjectRow } from "../storage/schema.ts";
import { PROBLEMS_PAGE_SIZE_DEFAULT, PROBLEMS_PAGE_SIZE_MAX, type ProblemListQuery } from "./model.ts";
import { prepareProblemQueries } from "./queries.ts";

/**
 * What reading one value's findings costs next to one look-up of a key's walk, when the whole list
 * is sorted (the row and its JSON read, the key's name looked up, the sort): 4-7 µs against about
 * 0.35 µs of CPU at 50,000 keys x 20 languages (docs/messages.md "The problem list").
 * Only the choice between the two reads uses it.
 */
const SORTED_COST_PER_VALUE = 20;

/**
 * `GET /projects/:pid/problems` (docs/product.md §7): every finding stored for the project's
 * values, in key order (code points) then language code, errors of a value before its warnings.
 * The total comes from the counts kept per language; the page is read by walking the keys in
 * order when that ends sooner than reading and sorting every value with a finding, and by the
 * sort otherwise (a page deep among few findings; docs/messages.md "The problem list").
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
  const offset = (page - 1) * pageSize;
  const { findings, valued, keys, languages: languageCount } = q.counts.get(project.id, languageId, severity)!;
  if (offset >= findings) return { items: [], page_info: pageInfo(findings, page, pageSize) };
  const params = [project.id, languageId, severity, pageSize, offset] as const;
  const statement = problemRead({ end: offset + pageSize, findings, valued, keys, lookupsPerKey: languageId === null ? languageCount : 1 }) === "sorted" ? q.sorted : languageId === null ? q.walk : q.walkLanguage;
  const items = statement.all(...params) as ProblemItem[];
  return { items, page_info: pageInfo(findings, page, pageSize) };
}

/**
 * Which read answers a page ending at the `end`-th finding: walking the keys in order (the keys up
 * to the page's end, findings taken as spread evenly over them, each key's look-ups) or sorting
 * every value with a finding. Exported for the tests, which count the work of each.
 */
export function problemRead(a: { end: number; findings: number; valued: number; keys: number; lookupsPerKey: number }): "walk" | "sorted" {
  const walked = Math.min(a.keys, Math.ceil((a.end / a.findings) * a.keys));
  return walked * a.lookupsPerKey <= a.valued * SORTED_COST_PER_VALUE ? "walk" : "sorted";
}
