import { sql, type SQL, type SQLWrapper, type Table } from "drizzle-orm";

/**
 * SQL functions for the query builder that drizzle-orm does not have (it has `count`, `min`,
 * `max`, `sum`...), so that a service builds its reads from functions and never writes a `sql`
 * fragment itself (docs/architecture.md "Reaching SQLite").
 */

/** The sum of `value` over the rows, 0 when there are none (SQL's own sum is null then). */
export function sumOrZero(value: SQLWrapper): SQL<number> {
  return sql<number>`coalesce(sum(${value}), 0)`;
}

/** `value`, or 0 where it is null (a column of a left join's missing row). */
export function orZero(value: SQLWrapper): SQL<number> {
  return sql<number>`coalesce(${value}, 0)`;
}

/** `text` in lower case (SQLite's `lower`: ASCII letters only). */
export function lower(text: SQLWrapper): SQL<string> {
  return sql<string>`lower(${text})`;
}

/** The size of `value` in bytes, which SQLite reads from the record's header without reading the value. */
export function octetLength(value: SQLWrapper): SQL<number> {
  return sql<number>`octet_length(${value})`;
}

/** How many rows the query finds, on each of them (`count(*) OVER ()`): a page and its total in one pass. */
export function countOver(): SQL<number> {
  return sql<number>`count(*) OVER ()`;
}

/** The rows' rowid, which the schema's columns do not include. */
export function rowid(table: Table): SQL<number> {
  return sql<number>`${table}.rowid`;
}
