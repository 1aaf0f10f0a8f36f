/**
 * Two ways to reach SQLite (docs/architecture.md "Reaching SQLite"): drizzle's query builder, and
 * hand-written SQL only in a capability's `queries.ts` and in `src/storage/`. Everywhere else in
 * src/ this refuses SQL text, statements run on the raw connection, and drizzle `sql` fragments.
 *
 * The scan reads each file as Bun's transpiler prints it: comments and types gone, so a comment
 * that mentions a statement is not one, and `sql<number>` is `sql` like any other fragment.
 */
import { describe, expect, test } from "bun:test";
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as schema from "../../src/storage/schema.ts";
import { ROOT } from "../helpers/server.ts";

const SRC = join(ROOT, "src");

/** Where SQL may be written by hand. */
function mayHoldSql(path: string): boolean {
  return path.startsWith("storage/") || path === "queries.ts" || path.endsWith("/queries.ts");
}

/** What counts as reaching SQLite other than through the builder. Upper-case keywords: how this code base writes SQL. */
const RULES: { what: string; pattern: RegExp }[] = [
  { what: "imports drizzle's sql", pattern: /import\s*\{[^}]*\bsql\b[^}]*\}\s*from\s*["']drizzle-orm/ },
  { what: "a drizzle sql`` fragment", pattern: /(?<![\w$.])sql\s*`/ },
  { what: "a drizzle sql.raw/join/identifier", pattern: /(?<![\w$.])sql\s*\.\s*(?:raw|join|identifier|placeholder|empty)\b/ },
  { what: "a statement on the raw connection", pattern: /\$client\s*\.\s*(?:query|prepare|run|exec)\b/ },
  {
    what: "SQL text",
    pattern:
      /\b(?:SELECT|INSERT\s+(?:OR\s+[A-Z]+\s+)?INTO|REPLACE\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|PRAGMA|BEGIN(?:\s+(?:IMMEDIATE|EXCLUSIVE|DEFERRED))?|ROLLBACK|COMMIT|SAVEPOINT|VACUUM|ATTACH|CREATE\s+(?:TABLE|INDEX|UNIQUE|TRIGGER|VIEW|VIRTUAL)|DROP\s+(?:TABLE|INDEX|TRIGGER|VIEW))\b/,
  },
];

const transpilers = { ts: new Bun.Transpiler({ loader: "ts" }), tsx: new Bun.Transpiler({ loader: "tsx" }) };

/** A source text as Bun's transpiler prints it. A macro import would run the macro: read as a plain import, its calls stay calls. */
function transpiled(source: string, loader: "ts" | "tsx" = "ts"): string {
  return transpilers[loader].transformSync(source.replace(/\swith\s*\{\s*type:\s*["']macro["']\s*\}/g, ""));
}

/** Each rule a source text breaks, with the line (of the transpiled text) that breaks it. */
export function sqlFound(source: string, loader: "ts" | "tsx" = "ts"): string[] {
  const code = transpiled(source, loader);
  const found: string[] = [];
  for (const { what, pattern } of RULES) {
    const m = pattern.exec(code);
    if (!m) continue;
    const start = code.lastIndexOf("\n", m.index) + 1;
    const end = code.indexOf("\n", m.index);
    found.push(`${what}: ${code.slice(start, end < 0 ? undefined : end).trim().slice(0, 160)}`);
  }
  return found;
}

const SOURCES = readdirSync(SRC, { recursive: true, encoding: "utf8" })
  .filter((path) => /\.tsx?$/.test(path) && !path.endsWith(".d.ts"))
  .sort();

describe("SQL only in queries.ts and storage/", () => {
  test("no other file of src/ writes SQL, runs a statement on the raw connection, or builds a drizzle sql fragment", () => {
    expect(SOURCES.length).toBeGreaterThan(100);
    const problems = SOURCES.filter((path) => !mayHoldSql(path)).flatMap((path) => sqlFound(readFileSync(join(SRC, path), "utf8"), path.endsWith(".tsx") ? "tsx" : "ts").map((p) => `${path}: ${p}`));
    expect(problems).toEqual([]);
  });

  test("the hand-written SQL it allows is there: the scan reads what it is meant to", () => {
    const allowed = SOURCES.filter(mayHoldSql);
    expect(allowed).toContain("storage/derived.ts");
    expect(allowed).toContain("cdn/queries.ts");
    expect(sqlFound(readFileSync(join(SRC, "cdn/queries.ts"), "utf8")).some((p) => p.startsWith("SQL text"))).toBe(true);
  });

  // Each of these was once in a service (docs/architecture.md "Reaching SQLite").
  const refused: [string, string][] = [
    ["SQL text on the raw connection", 'const n = db.$client.query<{ n: number }, [number]>("SELECT count(*) AS n FROM languages WHERE project_id = ?").get(1);'],
    ["SQL text through a handle of it", "const c = db.$client;\nc.prepare(`\n  UPDATE translations\n  SET value = ? WHERE key_id = ?`);"],
    ["a typed fragment", 'import { eq, sql } from "drizzle-orm";\nconst n = db.select({ n: sql<number>`count(*)` }).from(keys).get();'],
    ["a fragment with a subquery", "const inLanguage = sql`${translations.languageId} IN (SELECT ${languages.id} FROM ${languages})`;"],
    ["a raw fragment", 'import { sql as s } from "drizzle-orm";\nconst r = s.raw("rowid");'],
    ["transaction control", 'lock.run("BEGIN IMMEDIATE");'],
    ["a pragma", 'c.run(`PRAGMA busy_timeout = ${n}`);'],
  ];
  test.each(refused)("refuses %s", (_name, source) => {
    expect(sqlFound(source)).not.toEqual([]);
  });

  const kept: [string, string][] = [
    ["comments that name statements", "// SELECT the keys, then DELETE FROM the rest\n/** BEGIN IMMEDIATE takes the lock */\nexport const x = 1;"],
    ["a regular expression's exec", "const m = /^(\\d+)$/.exec(text);"],
    ["a field named sql", "this.sql.transaction(() => 1)();"],
    ["the builder", 'import { count, eq } from "drizzle-orm";\nconst n = db.select({ n: count() }).from(keys).where(eq(keys.id, 1)).get();'],
    ["lower-case words in messages", 'throw badRequest("select a language, then delete from the list");'],
  ];
  test.each(kept)("lets %s be", (_name, source) => {
    expect(sqlFound(source)).toEqual([]);
  });

  test("the queries.ts modules name tables and columns through the schema objects, not in their text", () => {
    const queryFiles = SOURCES.filter((path) => path.endsWith("queries.ts"));
    expect(queryFiles.length).toBeGreaterThan(5);
    const problems = queryFiles.flatMap((path) => namesWritten(readFileSync(join(SRC, path), "utf8")).map((name) => `${path}: ${name}`));
    expect(problems).toEqual([]);
  });

  test("a table or column written by name is found", () => {
    expect(namesWritten('const q = `SELECT ${k.id} FROM translation_keys WHERE ${k.projectId} = ?`;')).toEqual(["table translation_keys"]);
    expect(namesWritten('const q = `SELECT ${k.id} FROM ${k} WHERE project_id = ?`;')).toEqual(["column project_id"]);
    expect(namesWritten('const q = `SELECT ${k.publicId} AS key_id FROM ${k} JOIN json_each(${t.problems}) p ORDER BY ${k.key}, p.key`;')).toEqual([]);
  });
});

/** The schema's tables and its columns whose names cannot be anything else (snake case: `project_id`). */
const SCHEMA_NAMES = (() => {
  const tables = new Set<string>();
  const columns = new Set<string>();
  for (const value of Object.values(schema)) {
    if (!is(value, SQLiteTable)) continue;
    tables.add(getTableName(value));
    for (const column of Object.values(getTableColumns(value))) if (column.name.includes("_")) columns.add(column.name);
  }
  return { tables, columns };
})();

/**
 * The tables and columns a module writes by name in its SQL rather than through the schema
 * objects (docs/architecture.md "Reaching SQLite"): its text with every `${...}` taken out, a name
 * after FROM, JOIN, INTO or UPDATE, or a snake-case column name anywhere but as an `AS` alias (the
 * problem list's `key_id` is a field of the answer).
 */
function namesWritten(source: string): string[] {
  let code = "";
  const text = transpiled(source);
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== "$" || text[i + 1] !== "{") {
      code += text[i];
      continue;
    }
    let depth = 0;
    for (i++; i < text.length; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}" && --depth === 0) break;
    }
    code += "_";
  }
  code = code.replace(/\bAS\s+"?\w+"?/g, "");
  const found = new Set<string>();
  for (const m of code.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+(\w+)/g)) if (SCHEMA_NAMES.tables.has(m[1]!)) found.add(`table ${m[1]}`);
  for (const m of code.matchAll(/\b[a-z]+(?:_[a-z]+)+\b/g)) if (SCHEMA_NAMES.columns.has(m[0])) found.add(`column ${m[0]}`);
  return [...found];
}
