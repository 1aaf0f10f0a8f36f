import { and, asc, eq, gt, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { SQLiteSelect } from "drizzle-orm/sqlite-core";
import { badRequest, conflict, invalidField, invalidQueryParameter, notFound } from "../common/errors.ts";
import { newId } from "../common/ids.ts";
import { atLeastCharacters, atMostCharacters } from "../common/model.ts";
import { pageInfo, parsePositiveInt, type PageInfo } from "../common/paging.ts";
import { hasControlCharacters, hasLoneSurrogate } from "../common/text.ts";
import type { ServiceDeps } from "../deps.ts";
import type { MessageProblem } from "../messages/check.ts";
import type { Db } from "../storage/db.ts";
import { comments, languages, translationKeys, translations, type KeyRow, type LanguageRow, type ProjectRow } from "../storage/schema.ts";
import { ProjectPluralForms } from "./plural-forms.ts";
import { TRIGRAM_LENGTH, valuesMatching } from "./queries.ts";
import {
  CONTEXT_MAX_LENGTH,
  KEY_MAX_LENGTH,
  KEYS_PAGE_SIZE_DEFAULT,
  KEYS_PAGE_SIZE_MAX,
  KEYS_PAGE_VALUES_MAX_BYTES,
  SHORT_SEARCH_CHUNK_KEYS,
  SHORT_SEARCH_LOOKAHEAD,
  SHORT_SEARCH_VALUE_BUDGET,
  VALUE_MAX_LENGTH,
  type KeyListQuery,
  type KeyPatch,
  type KeyStatus,
  type NewKey,
} from "./model.ts";

export type TranslationStatus = "translated" | "approved";

export interface KeyView {
  id: string;
  key: string;
  context: string | null;
  /**
   * The `@key` entry of the base language's ARB file as last pushed (placeholders with type, format,
   * example...), or null when no base ARB named the key (docs/formats.md "ARB metadata").
   */
  arb_metadata: Record<string, unknown> | null;
  /**
   * Present (false) only for a key a base file marks not to be translated: it needs no value in the
   * other languages (docs/formats.md "Not translatable").
   */
  translatable?: false;
  /** By language code; `problems` are the message checks' findings (docs/product.md §7). */
  translations: Record<string, { value: string; status: TranslationStatus; problems: MessageProblem[] }>;
  /** Comments on the key not yet resolved (docs/translators.md "Comments"). */
  open_comments: number;
}

/**
 * The key rules (docs/decisions.md "Foundation"). Keys are kept exactly as authored
 * (docs/interface.md §2.6), but an empty one or one with control characters would make files no
 * tool can read back. The length is the route schema's limit (model.ts), checked here again in the
 * same words because an import's file entries reach this without a schema.
 */
export function cleanKey(raw: string): string {
  if (raw.length === 0) throw invalidField("key", atLeastCharacters(1));
  if (raw.length > KEY_MAX_LENGTH) throw invalidField("key", atMostCharacters(KEY_MAX_LENGTH));
  if (hasControlCharacters(raw)) throw invalidField("key", "must not contain control characters");
  if (hasLoneSurrogate(raw)) throw invalidField("key", "must be valid Unicode (it holds a lone UTF-16 surrogate)");
  if (raw.trim() !== raw) throw invalidField("key", "must not start or end with white space");
  return raw;
}

/** A context as stored: blank is none. Its length, like the key's, is checked for an import's entries too. */
export function cleanContext(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  if (raw.length > CONTEXT_MAX_LENGTH) throw invalidField("context", atMostCharacters(CONTEXT_MAX_LENGTH));
  return raw.trim() === "" ? null : raw;
}

/** A value of an import's file: the route's schema bounds a value sent alone (model.ts TranslationValue). */
export function checkValue(value: string): string {
  if (value.length > VALUE_MAX_LENGTH) throw invalidField("value", atMostCharacters(VALUE_MAX_LENGTH));
  // A JSON escape (`"\ud800"`) in a JSON, ARB or .xcstrings file gets past the check of the raw text.
  if (hasLoneSurrogate(value)) throw invalidField("value", "must be valid Unicode (it holds a lone UTF-16 surrogate)");
  return value;
}

export function findKey(db: Db, project: ProjectRow, publicId: string): KeyRow {
  const row = db
    .select()
    .from(translationKeys)
    .where(and(eq(translationKeys.projectId, project.id), eq(translationKeys.publicId, publicId)))
    .get();
  if (!row) throw notFound("key not found");
  return row;
}

/** The keys' translations by key id; only in `languageIds` when given. */
function translationsOf(db: Db, keyIds: number[], languageIds?: number[]): Map<number, KeyView["translations"]> {
  const out = new Map<number, KeyView["translations"]>();
  if (keyIds.length === 0 || languageIds?.length === 0) return out;
  const rows = db
    .select({ keyId: translations.keyId, code: languages.code, value: translations.value, status: translations.status, problems: translations.problems })
    .from(translations)
    .innerJoin(languages, eq(languages.id, translations.languageId))
    .where(languageIds ? and(inArray(translations.keyId, keyIds), inArray(translations.languageId, languageIds)) : inArray(translations.keyId, keyIds))
    .all();
  for (const r of rows) {
    const map = out.get(r.keyId) ?? {};
    map[r.code] = { value: r.value, status: r.status, problems: r.problems };
    out.set(r.keyId, map);
  }
  return out;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * Refuses a page whose values would make a reply past KEYS_PAGE_VALUES_MAX_BYTES, before any value
 * is read: `octet_length` takes each value's size from its record header, so the check costs
 * milliseconds where reading the values took seconds (docs/dashboard-api.md "Keys").
 */
function checkPageValues(db: Db, keyIds: number[], languageIds: number[] | undefined, keyCount: number): void {
  if (keyIds.length === 0 || languageIds?.length === 0) return;
  const where = languageIds ? and(inArray(translations.keyId, keyIds), inArray(translations.languageId, languageIds)) : inArray(translations.keyId, keyIds);
  const bytes = db.select({ n: sql<number>`coalesce(sum(octet_length(${translations.value})), 0)` }).from(translations).where(where).get()!.n;
  if (bytes <= KEYS_PAGE_VALUES_MAX_BYTES) return;
  throw badRequest(
    `this page of ${keyCount} keys holds ${megabytes(bytes)} of values, more than the ${megabytes(KEYS_PAGE_VALUES_MAX_BYTES)} one page may: ask for fewer languages (languages=en,de) or fewer keys (page_size)`,
  );
}

function keyView(k: KeyRow, t: KeyView["translations"] = {}, openComments = 0): KeyView {
  const view: KeyView = {
    id: k.publicId,
    key: k.key,
    context: k.context,
    arb_metadata: k.arbMetadata === null ? null : (JSON.parse(k.arbMetadata) as Record<string, unknown>),
    translations: t,
    open_comments: openComments,
  };
  return k.translatable ? view : { ...view, translatable: false };
}

/** The unresolved comments of each key that has any, by key row id (one look-up of the partial index per key). */
function openCommentsOf(db: Db, keyIds: number[]): Map<number, number> {
  if (keyIds.length === 0) return new Map();
  const rows = db
    .select({ keyId: comments.keyId, n: sql<number>`count(*)` })
    .from(comments)
    .where(and(inArray(comments.keyId, keyIds), isNull(comments.resolvedAt)))
    .groupBy(comments.keyId)
    .all();
  return new Map(rows.map((r) => [r.keyId, r.n]));
}

/** The page's key views, with their translations and open comment counts. */
function keyViews(db: Db, rows: KeyRow[], shown: number[] | undefined): KeyView[] {
  const ids = rows.map((r) => r.id);
  const t = translationsOf(db, ids, shown);
  const open = openCommentsOf(db, ids);
  return rows.map((r) => keyView(r, t.get(r.id), open.get(r.id) ?? 0));
}

/** Escapes LIKE wildcards so a search for `100%` or `a_b` means those characters. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A query parameter's language code, matched in any letter case among the project's (400 naming it). */
export function queryLanguage(all: LanguageRow[], code: string, name: string): LanguageRow {
  const found = all.find((l) => l.code.toLowerCase() === code.trim().toLowerCase());
  if (!found) throw invalidQueryParameter(name, `${code.trim() === "" ? "an empty code" : code} is not a language of this project`);
  return found;
}

/**
 * `search` as a condition on a key row of the project: in the key, its context or any of its
 * values (docs/decisions.md). The values are found through their trigram index when the term has
 * three characters or more, and else in one pass over the project's languages
 * (`valuesMatching`, docs/dashboard.md "Speed").
 */
export function searchCondition(projectId: number, search: string): SQL {
  const pattern = likePattern(search);
  return sql`(${translationKeys.key} LIKE ${pattern} ESCAPE '\\'
          OR ${translationKeys.context} LIKE ${pattern} ESCAPE '\\'
          OR ${translationKeys.id} IN ${valuesMatching(projectId, search, pattern)})`;
}

/**
 * The `status` filter as a condition on a key row (docs/product.md §8). The language's values are
 * read in one pass (by the translations' language index) rather than looked up key by key: 3 to 10
 * times less work at 10,000 keys (docs/dashboard.md "Speed").
 */
function statusCondition(db: Db, project: ProjectRow, status: KeyStatus, language: LanguageRow | undefined) {
  const projectId = project.id;
  const inLanguage = language
    ? sql`${translations.languageId} = ${language.id}`
    : sql`${translations.languageId} IN (SELECT ${languages.id} FROM ${languages} WHERE ${languages.projectId} = ${projectId})`;
  const keysWith = (extra: SQL) => sql`(SELECT ${translations.keyId} FROM ${translations} WHERE ${inLanguage}${extra})`;
  switch (status) {
    case "missing": {
      // An i18next plural form the language does not use is not missing in it (docs/messages.md "i18next plural forms").
      const unused = language && project.messageSyntax === "i18next" ? new ProjectPluralForms(db, project).unusedIn(language.code) : [];
      const notMissing = unused.length > 0 ? sql` AND ${translationKeys.id} NOT IN (SELECT value FROM json_each(${JSON.stringify(unused)}))` : sql``;
      // Nor is a key marked not to be translated, but in the base language (docs/formats.md "Not translatable").
      const needed = language && language.code !== project.baseLanguageCode ? sql` AND ${translationKeys.translatable} = 1` : sql``;
      return sql`${translationKeys.id} NOT IN ${keysWith(sql``)}${notMissing}${needed}`;
    }
    case "translated":
      return sql`${translationKeys.id} IN ${keysWith(sql` AND ${translations.status} = 'translated'`)}`;
    case "approved":
      return sql`${translationKeys.id} IN ${keysWith(sql` AND ${translations.status} = 'approved'`)}`;
    case "problems":
      return sql`${translationKeys.id} IN ${keysWith(sql` AND (${translations.errorCount} > 0 OR ${translations.warningCount} > 0)`)}`;
  }
}

/**
 * A page of keys (docs/product.md §4, §8): matching `search` in the key, its context or any value;
 * with `status` only keys whose `language` cell is missing, translated (not yet approved),
 * approved, or has problems (in `language`, or in any language when none is given); `languages`
 * narrows the translations in the answer.
 */
export function listKeys(db: Db, project: ProjectRow, query: KeyListQuery): { items: KeyView[]; page_info: PageInfo } {
  const page = parsePositiveInt(query.page, "page", 1);
  const pageSize = Math.min(parsePositiveInt(query.page_size, "page_size", KEYS_PAGE_SIZE_DEFAULT), KEYS_PAGE_SIZE_MAX);
  const search = query.search?.trim();
  const all = query.language !== undefined || query.languages !== undefined ? db.select().from(languages).where(eq(languages.projectId, project.id)).all() : [];
  let language: LanguageRow | undefined;
  if (query.language !== undefined) {
    if (query.status === undefined) throw invalidQueryParameter("language", "it names the language a status is about; give status too");
    language = queryLanguage(all, query.language, "language");
  } else if (query.status !== undefined && query.status !== "problems") {
    throw invalidQueryParameter("language", `required with status=${query.status}`);
  }
  const shown = query.languages === undefined ? undefined : [...new Set(query.languages.split(",").map((code) => queryLanguage(all, code, "languages").id))];
  const conditions = [eq(translationKeys.projectId, project.id)];
  if (search) conditions.push(searchCondition(project.id, search));
  if (query.status !== undefined) conditions.push(statusCondition(db, project, query.status, language));
  if (query.comments === "open") conditions.push(sql`${translationKeys.id} IN (SELECT ${comments.keyId} FROM ${comments} WHERE ${comments.resolvedAt} IS NULL)`);
  const where = and(...conditions);
  const count = () => db.select({ n: sql<number>`count(*)` }).from(translationKeys).where(where).get()!.n;
  let total: number;
  let rows: KeyRow[];
  if (search && query.status === undefined && query.comments === undefined && [...search].length < TRIGRAM_LENGTH) {
    const walked = shortSearchPage(db, project, search, (page - 1) * pageSize, pageSize);
    if (walked) {
      checkPageValues(db, walked.rows.map((r) => r.id), shown, walked.rows.length);
      const info: PageInfo = pageInfo(walked.total, page, pageSize);
      if (walked.atLeast) info.total_at_least = true;
      return { items: keyViews(db, walked.rows, shown), page_info: info };
    }
  }
  // One page of the matching keys in key order, whatever else a query selects.
  const onPage = <Q extends SQLiteSelect>(query: Q) =>
    query.where(where).orderBy(asc(translationKeys.key)).limit(pageSize).offset((page - 1) * pageSize);
  if (search) {
    // A search reads every value once; the page and its total come from that one pass.
    const withTotal = db.select({ key: translationKeys, total: sql<number>`count(*) OVER ()` }).from(translationKeys);
    const found = onPage(withTotal.$dynamic()).all();
    rows = found.map((r) => r.key);
    total = found[0]?.total ?? (page > 1 ? count() : 0);
  } else {
    total = count();
    rows = onPage(db.select().from(translationKeys).$dynamic()).all();
  }
  checkPageValues(db, rows.map((r) => r.id), shown, rows.length);
  return { items: keyViews(db, rows, shown), page_info: pageInfo(total, page, pageSize) };
}

/**
 * A page of the keys matching a one- or two-character `search` (no trigram to look up), found by
 * walking the project's keys in key order a chunk at a time, each key tested on its name, context
 * and values (its values found by the key, its primary key's first column). The walk stops once
 * the page is full and SHORT_SEARCH_LOOKAHEAD more matches are counted (the total is then a lower
 * bound), or at the end of the keys (the total is exact). A term too rare to fill the page within
 * SHORT_SEARCH_VALUE_BUDGET values read answers null: the caller reads every value once instead
 * (docs/dashboard.md "Speed"). Exported for the tests, which count the keys it walks.
 */
export function shortSearchPage(
  db: Db,
  project: ProjectRow,
  search: string,
  offset: number,
  pageSize: number,
  seen?: { keys: number },
): { rows: KeyRow[]; total: number; atLeast: boolean } | null {
  const pattern = likePattern(search);
  const languageCount = db.select({ n: sql<number>`count(*)` }).from(languages).where(eq(languages.projectId, project.id)).get()!.n;
  const hit = sql<number>`(${translationKeys.key} LIKE ${pattern} ESCAPE '\\'
    OR ${translationKeys.context} LIKE ${pattern} ESCAPE '\\'
    OR EXISTS (SELECT 1 FROM ${translations} WHERE ${translations.keyId} = ${translationKeys.id} AND ${translations.value} LIKE ${pattern} ESCAPE '\\'))`;
  const pageIds: number[] = [];
  let matches = 0;
  let walked = 0;
  let after: string | null = null;
  for (;;) {
    const chunk = db
      .select({ id: translationKeys.id, key: translationKeys.key, hit })
      .from(translationKeys)
      .where(and(eq(translationKeys.projectId, project.id), after === null ? undefined : gt(translationKeys.key, after)))
      .orderBy(asc(translationKeys.key))
      .limit(SHORT_SEARCH_CHUNK_KEYS)
      .all();
    walked += chunk.length;
    if (seen) seen.keys = walked;
    for (const k of chunk) {
      if (!k.hit) continue;
      if (matches >= offset && matches < offset + pageSize) pageIds.push(k.id);
      matches++;
    }
    if (chunk.length < SHORT_SEARCH_CHUNK_KEYS) return { rows: keyRows(db, pageIds), total: matches, atLeast: false };
    if (matches >= offset + pageSize + SHORT_SEARCH_LOOKAHEAD) return { rows: keyRows(db, pageIds), total: matches, atLeast: true };
    if (walked * Math.max(languageCount, 1) >= SHORT_SEARCH_VALUE_BUDGET) {
      return matches >= offset + pageSize ? { rows: keyRows(db, pageIds), total: matches, atLeast: true } : null;
    }
    after = chunk[chunk.length - 1]!.key;
  }
}

/** The key rows of `ids`, in key order. */
function keyRows(db: Db, ids: number[]): KeyRow[] {
  if (ids.length === 0) return [];
  return db.select().from(translationKeys).where(inArray(translationKeys.id, ids)).orderBy(asc(translationKeys.key)).all();
}

export function getKey(db: Db, project: ProjectRow, publicId: string): KeyView {
  return keyViews(db, [findKey(db, project, publicId)], undefined)[0]!;
}

function assertKeyFree(db: Db, project: ProjectRow, key: string, exceptId?: number): void {
  const other = db
    .select({ id: translationKeys.id })
    .from(translationKeys)
    .where(and(eq(translationKeys.projectId, project.id), eq(translationKeys.key, key)))
    .get();
  if (other && other.id !== exceptId) throw conflict(`key "${key}" already exists in this project`);
}

export function createKey({ db, clock, changes }: ServiceDeps, project: ProjectRow, input: NewKey): KeyView {
  const key = cleanKey(input.key);
  const context = cleanContext(input.context);
  assertKeyFree(db, project, key);
  const now = clock.now();
  return db.transaction((tx) => {
    const row = tx
      .insert(translationKeys)
      .values({ publicId: newId("key"), projectId: project.id, key, context, createdAt: now, updatedAt: now })
      .returning()
      .get();
    changes.event(project, "key_created", { key, context });
    return keyView(row);
  });
}

export function updateKey({ db, clock, changes }: ServiceDeps, project: ProjectRow, publicId: string, patch: KeyPatch): KeyView {
  const k = findKey(db, project, publicId);
  const key = patch.key === undefined ? k.key : cleanKey(patch.key);
  const context = patch.context === undefined ? k.context : cleanContext(patch.context);
  if (key !== k.key) assertKeyFree(db, project, key, k.id);
  if (key === k.key && context === k.context) return getKey(db, project, publicId);
  db.transaction((tx) => {
    tx.update(translationKeys).set({ key, context, updatedAt: clock.now() }).where(eq(translationKeys.id, k.id)).run();
    changes.event(project, "key_updated", { key, context });
  });
  return getKey(db, project, publicId);
}

export function deleteKey({ db, changes }: ServiceDeps, project: ProjectRow, publicId: string): void {
  const k = findKey(db, project, publicId);
  db.transaction((tx) => {
    tx.delete(translationKeys).where(eq(translationKeys.id, k.id)).run();
    changes.event(project, "key_deleted", { key: k.key });
  });
}
