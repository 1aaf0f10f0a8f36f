import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Actor } from "../changes/actor.ts";
import { iso } from "../common/clock.ts";
import { pageInfo, parsePositiveInt, type PageInfo } from "../common/paging.ts";
import type { Db } from "../storage/db.ts";
import { lower } from "../storage/functions.ts";
import { languages, translationHistory, type HistoryRow, type ProjectRow } from "../storage/schema.ts";
import { findKey } from "./keys.ts";
import { HISTORY_KEPT_PER_CELL, HISTORY_PAGE_SIZE_DEFAULT, HISTORY_PAGE_SIZE_MAX } from "./limits.ts";
import { pruneHistory } from "./queries.ts";
import type { HistoryListQuery } from "./model.ts";

/** A change of a translation, as `GET /projects/:pid/keys/:keyId/history` lists it (docs/product.md §8). */
export interface HistoryView {
  language_code: string;
  value: string;
  previous_value: string | null;
  status: "translated" | "approved";
  by: { kind: "user" | "token"; id: string; name: string };
  via: HistoryRow["via"];
  at: string;
}

export type HistoryEntry = Pick<HistoryRow, "keyId" | "languageId" | "value" | "previousValue" | "status" | "via" | "at">;

/**
 * Writes one entry, and drops the cell's entries past its newest HISTORY_KEPT_PER_CELL but for its
 * newest approval; call it inside the transaction of the change it records. Every save of a value
 * of up to 100,000 characters added an entry holding it twice (the value and the one before): 907
 * saves in 10 s grew the database by 180 MB, and one cell's history without bound.
 */
export function recordHistory(db: Db, entry: HistoryEntry, actor: Actor): void {
  db.insert(translationHistory)
    .values({ ...entry, byKind: actor.kind, byPublicId: actor.publicId, byName: actor.name })
    .run();
  pruneHistory(db, entry.keyId, entry.languageId, HISTORY_KEPT_PER_CELL);
}

/**
 * A page of the changes of the key's translations, newest first (docs/product.md §8). Paged because
 * every save adds an entry of up to two whole values: one answer of an often-saved key once held
 * tens of megabytes, read by anyone who may read the project.
 */
export function keyHistory(
  db: Db,
  project: ProjectRow,
  keyPublicId: string,
  query: HistoryListQuery = {},
  /** The languages to list, in lower case (a language-limited role's); null: all. */
  visible: ReadonlySet<string> | null = null,
): { items: HistoryView[]; page_info: PageInfo } {
  const key = findKey(db, project, keyPublicId);
  const page = parsePositiveInt(query.page, "page", 1);
  const pageSize = Math.min(parsePositiveInt(query.page_size, "page_size", HISTORY_PAGE_SIZE_DEFAULT), HISTORY_PAGE_SIZE_MAX);
  const where = and(
    eq(translationHistory.keyId, key.id),
    eq(languages.projectId, project.id),
    visible === null ? undefined : inArray(lower(languages.code), [...visible]),
  );
  const total = db
    .select({ n: count() })
    .from(translationHistory)
    .innerJoin(languages, eq(languages.id, translationHistory.languageId))
    .where(where)
    .get()!.n;
  const items = db
    .select({ h: translationHistory, code: languages.code })
    .from(translationHistory)
    .innerJoin(languages, eq(languages.id, translationHistory.languageId))
    .where(where)
    .orderBy(desc(translationHistory.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all()
    .map(({ h, code }) => ({
      language_code: code,
      value: h.value,
      previous_value: h.previousValue,
      status: h.status,
      by: { kind: h.byKind, id: h.byPublicId, name: h.byName },
      via: h.via,
      at: iso(h.at),
    }));
  return { items, page_info: pageInfo(total, page, pageSize) };
}
