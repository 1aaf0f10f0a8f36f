import { and, asc, count, eq, gt, inArray, isNull } from "drizzle-orm";
import type { SQLiteSelect } from "drizzle-orm/sqlite-core";
import { badRequest, conflict, invalidField, invalidQueryParameter, notFound } from "../common/errors.ts";
import { newId } from "../common/ids.ts";
import { atLeastCharacters, atMostCharacters } from "../common/model.ts";
import { pageInfo, parsePositiveInt, type PageInfo } from "../common/paging.ts";
import { clipped, hasControlCharacters, hasLoneSurrogate, xmlForbiddenReason } from "../common/text.ts";
import type { ServiceDeps } from "../deps.ts";
import type { MessageProblem } from "../messages/check.ts";
import type { Db } from "../storage/db.ts";
import { countOver, octetLength, sumOrZero } from "../storage/functions.ts";
import { comments, languages, translationKeys, translations, type KeyRow, type LanguageRow, type ProjectRow } from "../storage/schema.ts";
import { baseFormsOf, ProjectPluralForms, type BaseForm } from "./plural-forms.ts";
import { keyHit, openCommentsCondition, searchCondition, statusCondition, TRIGRAM_LENGTH, type SearchedLanguages } from "./queries.ts";
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
  /**
   * Present only in an `i18next` project, on a plural form the base language lacks (`items_few` in
   * English): the group's `_other` form and its base value, which this form translates
   * (docs/messages.md "i18next plural forms").
   */
  base_form?: BaseForm;
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
  const forbidden = xmlForbiddenReason(raw); // U+FFFE, U+FFFF: a key is written into XML files too
  if (forbidden) throw invalidField("key", forbidden);
  if (raw.trim() !== raw) throw invalidField("key", "must not start or end with white space");
  return raw;
}

/**
 * A context as stored: blank is none. Its length, like the key's, is checked for an import's entries
 * too, and so are the characters XML 1.0 forbids (a context is written as a comment or note into
 * Android and XLIFF files; docs/formats.md "XML and bad files"); `key` names the key in the 400.
 */
export function cleanContext(raw: string | null | undefined, key?: string): string | null {
  if (raw === undefined || raw === null) return null;
  if (raw.length > CONTEXT_MAX_LENGTH) throw invalidField("context", atMostCharacters(CONTEXT_MAX_LENGTH));
  const forbidden = xmlForbiddenReason(raw);
  if (forbidden) throw invalidField("context", `${key === undefined ? "" : `key "${clipped(key)}": `}${forbidden}`);
  return raw.trim() === "" ? null : raw;
}

/**
 * A value as stored, from an import's file or a save (`key` names the key in the 400): the route's
 * schema bounds a value sent alone (model.ts TranslationValue); text that is not Unicode and the
 * characters XML 1.0 forbids are refused, as no Android or XLIFF file could carry them
 * (docs/formats.md "XML and bad files").
 */
export function checkValue(value: string, key?: string): string {
  const named = key === undefined ? "" : `key "${clipped(key)}": `;
  if (value.length > VALUE_MAX_LENGTH) throw invalidField("value", `${named}${atMostCharacters(VALUE_MAX_LENGTH)}`);
  // A JSON escape (`"\ud800"`, `"\u0001"`) in a JSON, ARB or .xcstrings file gets past the check of the raw text.
  if (hasLoneSurrogate(value)) throw invalidField("value", `${named}must be valid Unicode (it holds a lone UTF-16 surrogate)`);
  const forbidden = xmlForbiddenReason(value);
  if (forbidden) throw invalidField("value", `${named}${forbidden}`);
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
  const bytes = db.select({ n: sumOrZero(octetLength(translations.value)) }).from(translations).where(where).get()!.n;
  if (bytes <= KEYS_PAGE_VALUES_MAX_BYTES) return;
  throw badRequest(
    `this page of ${keyCount} keys holds ${megabytes(bytes)} of values, more than the ${megabytes(KEYS_PAGE_VALUES_MAX_BYTES)} one page may: ask for fewer languages (languages=en,de) or fewer keys (page_size)`,
  );
}

function keyView(k: KeyRow, t: KeyView["translations"] = {}, openComments = 0, baseForm?: BaseForm): KeyView {
  const view: KeyView = {
    id: k.publicId,
    key: k.key,
    context: k.context,
    arb_metadata: k.arbMetadata === null ? null : (JSON.parse(k.arbMetadata) as Record<string, unknown>),
    translations: t,
    open_comments: openComments,
  };
  if (baseForm) view.base_form = baseForm;
  return k.translatable ? view : { ...view, translatable: false };
}

/** The unresolved comments of each key that has any, by key row id (one look-up of the partial index per key). */
function openCommentsOf(db: Db, keyIds: number[]): Map<number, number> {
  if (keyIds.length === 0) return new Map();
  const rows = db
    .select({ keyId: comments.keyId, n: count() })
    .from(comments)
    .where(and(inArray(comments.keyId, keyIds), isNull(comments.resolvedAt)))
    .groupBy(comments.keyId)
    .all();
  return new Map(rows.map((r) => [r.keyId, r.n]));
}

/** The page's key views, with their translations and open comment counts. */
function keyViews(db: Db, project: ProjectRow, rows: KeyRow[], shown: number[] | undefined): KeyView[] {
  const ids = rows.map((r) => r.id);
  const t = translationsOf(db, ids, shown);
  const open = openCommentsOf(db, ids);
  const forms = baseFormsOf(db, project, rows.map((r) => r.key));
  return rows.map((r) => keyView(r, t.get(r.id), open.get(r.id) ?? 0, forms.get(r.key)));
}

/** A query parameter's language code, matched in any letter case among the project's (400 naming it). */
export function queryLanguage(all: LanguageRow[], code: string, name: string): LanguageRow {
  const found = all.find((l) => l.code.toLowerCase() === code.trim().toLowerCase());
  if (!found) throw invalidQueryParameter(name, `${code.trim() === "" ? "an empty code" : code} is not a language of this project`);
  return found;
}

/** The `status` filter as a condition on a key row (docs/product.md §8; the SQL: `statusCondition`). */
function statusFilter(db: Db, project: ProjectRow, status: KeyStatus, language: LanguageRow | undefined) {
  const missing = status === "missing" && language !== undefined;
  return statusCondition({
    status,
    projectId: project.id,
    languageId: language?.id,
    // An i18next plural form the language does not use is not missing in it (docs/messages.md "i18next plural forms").
    notNeeded: missing && project.messageSyntax === "i18next" ? new ProjectPluralForms(db, project).unusedIn(language.code) : [],
    // Nor is a key marked not to be translated, but in the base language (docs/formats.md "Not translatable").
    translatableOnly: missing && language.code !== project.baseLanguageCode,
  });
}

/**
 * The languages whose values a search reads for a caller who may read `visible` (lower-case codes,
 * docs/dashboard-api.md "Project roles"): those of the project among them, or all (null).
 */
export function searchedLanguages(db: Db, project: ProjectRow, visible: ReadonlySet<string> | null): SearchedLanguages {
  if (visible === null) return null;
  const all = db.select({ id: languages.id, code: languages.code }).from(languages).where(eq(languages.projectId, project.id)).all();
  return all.filter((l) => visible.has(l.code.toLowerCase())).map((l) => l.id);
}

/**
 * A page of keys (docs/product.md §4, §8): matching `search` in the key, its context or a value in
 * a language the caller may read (`visible`, lower-case codes; null: every language); with
 * `status` only keys whose `language` cell is missing, translated (not yet approved), approved, or
 * has problems (in `language`, or in any language when none is given); `languages` narrows the
 * translations in the answer.
 */
export function listKeys(db: Db, project: ProjectRow, query: KeyListQuery, visible: ReadonlySet<string> | null = null): { items: KeyView[]; page_info: PageInfo } {
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
  const searched = search ? searchedLanguages(db, project, visible) : null;
  const conditions = [eq(translationKeys.projectId, project.id)];
  if (search) conditions.push(searchCondition(db, project.id, search, searched));
  if (query.status !== undefined) conditions.push(statusFilter(db, project, query.status, language));
  if (query.comments === "open") conditions.push(openCommentsCondition());
  const where = and(...conditions);
  const countAll = () => db.select({ n: count() }).from(translationKeys).where(where).get()!.n;
  let total: number;
  let rows: KeyRow[];
  if (search && query.status === undefined && query.comments === undefined && [...search].length < TRIGRAM_LENGTH) {
    const walked = shortSearchPage(db, project, search, (page - 1) * pageSize, pageSize, undefined, searched);
    if (walked) {
      checkPageValues(db, walked.rows.map((r) => r.id), shown, walked.rows.length);
      const info: PageInfo = pageInfo(walked.total, page, pageSize);
      if (walked.atLeast) info.total_at_least = true;
      return { items: keyViews(db, project, walked.rows, shown), page_info: info };
    }
  }
  // One page of the matching keys in key order, whatever else a query selects.
  const onPage = <Q extends SQLiteSelect>(query: Q) =>
    query.where(where).orderBy(asc(translationKeys.key)).limit(pageSize).offset((page - 1) * pageSize);
  if (search) {
    // A search reads every value once; the page and its total come from that one pass.
    const withTotal = db.select({ key: translationKeys, total: countOver() }).from(translationKeys);
    const found = onPage(withTotal.$dynamic()).all();
    rows = found.map((r) => r.key);
    total = found[0]?.total ?? (page > 1 ? countAll() : 0);
  } else {
    total = countAll();
    rows = onPage(db.select().from(translationKeys).$dynamic()).all();
  }
  checkPageValues(db, rows.map((r) => r.id), shown, rows.length);
  return { items: keyViews(db, project, rows, shown), page_info: pageInfo(total, page, pageSize) };
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
  searched: SearchedLanguages = null,
): { rows: KeyRow[]; total: number; atLeast: boolean } | null {
  const languageCount = searched?.length ?? db.select({ n: count() }).from(languages).where(eq(languages.projectId, project.id)).get()!.n;
  const hit = keyHit(search, searched);
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
  return keyViews(db, project, [findKey(db, project, publicId)], undefined)[0]!;
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
  const context = cleanContext(input.context, key);
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
  const context = patch.context === undefined ? k.context : cleanContext(patch.context, key);
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
