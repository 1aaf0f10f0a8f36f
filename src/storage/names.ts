import { getTableColumns, getTableName, type Column, type Table } from "drizzle-orm";
import { getTableConfig, type SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * Names for the SQL written by hand in a capability's `queries.ts` (docs/architecture.md "Reaching
 * SQLite"), read from the schema objects of schema.ts, and the types of the rows it reads. A
 * statement names `${k.projectId}`, never `project_id`, and types its rows
 * `Pick<Stored<typeof translationKeys>, "id" | "key">`: a table or column renamed in the schema
 * fails the type check where a statement uses it, and a changed SQL name is followed.
 *
 * The text is built once, when the statements are prepared, and is the text one would write by
 * hand (`translation_keys k`, `k.project_id`): it costs nothing per call and changes no query plan.
 */

type Columns<T extends Table> = T["_"]["columns"];
type ColumnKey<T extends Table> = keyof Columns<T> & string;

/**
 * A column's value as SQLite holds it and bun:sqlite reads it: 0 or 1 for a boolean column, the
 * text of a JSON column, the value itself otherwise (an enum's words included); null where the
 * column allows it.
 */
type StoredValue<C extends Column> =
  | (C["_"]["dataType"] extends "boolean" ? number : C["_"]["dataType"] extends "json" ? string : C["_"]["data"])
  | (C["_"]["notNull"] extends true ? never : null);

/** A row of table `T` as a hand-written statement reads it, under the schema's keys. */
export type Stored<T extends Table> = { [K in ColumnKey<T>]: StoredValue<Columns<T>[K]> };

declare const TABLE: unique symbol;
declare const ROW: unique symbol;

/**
 * Table `T` in a statement: each column key gives the column's SQL name (qualified by the
 * statement's alias of the table, when it has one), and the object itself, in a template, the
 * table (`translation_keys`, or `translation_keys k`).
 */
export type Named<T extends Table> = { readonly [K in ColumnKey<T>]: string } & { readonly [TABLE]?: T; toString(): string };

/** A select list whose rows are `Row` (`selected`); a string, with the row's type beside it. */
export type Selected<Row> = string & { readonly [ROW]?: Row };

/** The row a select list reads. */
export type RowOf<S> = S extends Selected<infer R> ? NonNullable<R> : never;

const PLAIN = /^[a-z_][a-z0-9_]*$/;

/** A name as SQL reads it: as it is when it is plain snake case (all of ours), else quoted. */
function ident(name: string): string {
  return PLAIN.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

/** `table` as a statement names it, under `alias` when given (`named(translations, "t")`). */
export function named<T extends Table>(table: T, alias?: string): Named<T> {
  if (alias !== undefined && !PLAIN.test(alias)) throw new Error(`table alias ${alias} is not a plain name`);
  const prefix = alias === undefined ? "" : `${alias}.`;
  const names: Record<string, string> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) names[key] = prefix + ident(column.name);
  const text = alias === undefined ? ident(getTableName(table)) : `${ident(getTableName(table))} ${alias}`;
  Object.defineProperty(names, "toString", { value: () => text });
  return names as Named<T>;
}

/**
 * The select list of `keys` of a named table, each read under its schema key (`k.public_id AS
 * "publicId"`), so its rows are `Pick<Stored<T>, K>`: `RowOf<typeof list>`.
 */
export function selected<T extends Table, K extends ColumnKey<T>>(table: Named<T>, ...keys: K[]): Selected<Pick<Stored<T>, K>> {
  return keys.map((key) => (table[key] === key ? key : `${table[key]} AS "${key}"`)).join(", ");
}

/**
 * The name of an index the schema declares on `table` (for `INDEXED BY`), checked when the module
 * that names it loads: an index renamed in the schema fails at start, not at a request.
 */
export function indexOn(table: SQLiteTable, name: string): string {
  if (!getTableConfig(table).indexes.some((index) => index.config.name === name)) throw new Error(`schema.ts declares no index ${name} on ${getTableName(table)}`);
  return ident(name);
}
