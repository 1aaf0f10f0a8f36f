import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { badRequest, conflict, notFound } from "../common/errors.ts";
import { newId } from "../common/ids.ts";
import { pageInfo, parsePositiveInt, type PageInfo } from "../common/paging.ts";
import { hasControlCharacters } from "../common/text.ts";
import type { ServiceDeps } from "../deps.ts";
import type { Db } from "../storage/db.ts";
import { languages, translationKeys, translations, type KeyRow, type ProjectRow } from "../storage/schema.ts";
import { findLanguage } from "./languages.ts";

export const KEY_MAX_LENGTH = 512;
export const CONTEXT_MAX_LENGTH = 2000;
export const VALUE_MAX_LENGTH = 100_000;
export const KEYS_PAGE_SIZE_DEFAULT = 50;
export const KEYS_PAGE_SIZE_MAX = 500;

export type TranslationStatus = "translated" | "approved";

export interface KeyView {
  id: string;
  key: string;
  context: string | null;
  translations: Record<string, { value: string; status: TranslationStatus }>;
}

export function cleanKey(raw: string): string {
  // Keys are kept exactly as authored (docs/interface.md §2.6), but an empty one or one with control
  // characters would make files no tool can read back.
  if (raw.length === 0) throw badRequest('invalid field "key": must not be empty');
  if (raw.length > KEY_MAX_LENGTH) throw badRequest(`invalid field "key": at most ${KEY_MAX_LENGTH} characters`);
  if (hasControlCharacters(raw)) throw badRequest('invalid field "key": must not contain control characters');
  if (raw.trim() !== raw) throw badRequest('invalid field "key": must not start or end with white space');
  return raw;
}

export function cleanContext(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  if (raw.length > CONTEXT_MAX_LENGTH) throw badRequest(`invalid field "context": at most ${CONTEXT_MAX_LENGTH} characters`);
  return raw.trim() === "" ? null : raw;
}

export function checkValue(value: string): string {
  if (value.length > VALUE_MAX_LENGTH) throw badRequest(`invalid field "value": at most ${VALUE_MAX_LENGTH} characters`);
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

function translationsOf(db: Db, keyIds: number[]): Map<number, KeyView["translations"]> {
  const out = new Map<number, KeyView["translations"]>();
  if (keyIds.length === 0) return out;
  const rows = db
    .select({ keyId: translations.keyId, code: languages.code, value: translations.value, status: translations.status })
    .from(translations)
    .innerJoin(languages, eq(languages.id, translations.languageId))
    .where(inArray(translations.keyId, keyIds))
    .all();
  for (const r of rows) {
    const map = out.get(r.keyId) ?? {};
    map[r.code] = { value: r.value, status: r.status };
    out.set(r.keyId, map);
  }
  return out;
}

function keyView(k: KeyRow, t: KeyView["translations"] = {}): KeyView {
  return { id: k.publicId, key: k.key, context: k.context, translations: t };
}

/** Escapes LIKE wildcards so a search for `100%` or `a_b` means those characters. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function listKeys(
  db: Db,
  project: ProjectRow,
  query: { search?: string; page?: string; page_size?: string },
): { items: KeyView[]; page_info: PageInfo } {
  const page = parsePositiveInt(query.page, "page", 1);
  const pageSize = Math.min(parsePositiveInt(query.page_size, "page_size", KEYS_PAGE_SIZE_DEFAULT), KEYS_PAGE_SIZE_MAX);
  const search = query.search?.trim();
  const where = search
    ? and(
        eq(translationKeys.projectId, project.id),
        sql`(${translationKeys.key} LIKE ${likePattern(search)} ESCAPE '\\'
          OR ${translationKeys.context} LIKE ${likePattern(search)} ESCAPE '\\'
          OR EXISTS (SELECT 1 FROM ${translations} WHERE ${translations.keyId} = ${translationKeys.id}
                     AND ${translations.value} LIKE ${likePattern(search)} ESCAPE '\\'))`,
      )
    : eq(translationKeys.projectId, project.id);
  const total = db.select({ n: sql<number>`count(*)` }).from(translationKeys).where(where).get()!.n;
  const rows = db
    .select()
    .from(translationKeys)
    .where(where)
    .orderBy(asc(translationKeys.key))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .all();
  const t = translationsOf(
    db,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => keyView(r, t.get(r.id))), page_info: pageInfo(total, page, pageSize) };
}

export function getKey(db: Db, project: ProjectRow, publicId: string): KeyView {
  const k = findKey(db, project, publicId);
  return keyView(k, translationsOf(db, [k.id]).get(k.id));
}

function assertKeyFree(db: Db, project: ProjectRow, key: string, exceptId?: number): void {
  const other = db
    .select({ id: translationKeys.id })
    .from(translationKeys)
    .where(and(eq(translationKeys.projectId, project.id), eq(translationKeys.key, key)))
    .get();
  if (other && other.id !== exceptId) throw conflict(`key "${key}" already exists in this project`);
}

export function createKey({ db, clock, changes }: ServiceDeps, project: ProjectRow, input: { key: string; context?: string | null }): KeyView {
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

export function updateKey(
  { db, clock, changes }: ServiceDeps,
  project: ProjectRow,
  publicId: string,
  patch: { key?: string; context?: string | null },
): KeyView {
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
