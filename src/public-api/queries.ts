import type { Db } from "../storage/db.ts";
import { named, selected, type RowOf, type Stored } from "../storage/names.ts";
import { languages, projects, releaseLanguages, releases } from "../storage/schema.ts";

const p = named(projects);
const l = named(languages);
const r = named(releases);
const rl = named(releaseLanguages);

const project = selected(p, "id", "publicId", "name", "baseLanguageCode", "cdnSlug", "createdAt");
const language = selected(l, "code", "name", "createdAt");
const published = selected(r, "publicId", "name", "tag", "slug", "createdAt");
const shipped = selected(rl, "code", "isBaseLanguage");

/** A project as the public API reads it. */
export type ApiProjectRow = RowOf<typeof project>;

/** A published release as the index needs it (release-index.ts): a published release has its `publishedAt`. */
export type PublishedRow = RowOf<typeof published> & { rowId: Stored<typeof releases>["id"]; publishedAt: number };

/**
 * The public API's statements, prepared once per app (docs/architecture.md "Reaching SQLite"):
 * they run on every miss of the response cache.
 */
export function preparePublicApiQueries(db: Db) {
  const sqlite = db.$client;
  return {
    project: sqlite.query<ApiProjectRow, [number]>(`SELECT ${project} FROM ${p} WHERE ${p.id} = ?`),
    languages: sqlite.query<RowOf<typeof language>, [number]>(`SELECT ${language} FROM ${l} WHERE ${l.projectId} = ? ORDER BY ${l.code}`),
    published: sqlite.query<PublishedRow, [number]>(
      `SELECT ${r.id} AS rowId, ${published}, ${r.publishedAt} AS publishedAt
         FROM ${r} WHERE ${r.projectId} = ? AND ${r.status} = 'published' AND ${r.publishedAt} IS NOT NULL`,
    ),
    shipped: sqlite.query<RowOf<typeof shipped>, [number]>(`SELECT ${shipped} FROM ${rl} WHERE ${rl.releaseId} = ? ORDER BY ${rl.code}`),
    // The JSON list of the formats a release shipped (docs/formats.md "What a release records").
    formats: sqlite.query<Pick<Stored<typeof releases>, "formats">, [number]>(`SELECT ${r.formats} FROM ${r} WHERE ${r.id} = ?`),
  };
}

export type PublicApiQueries = ReturnType<typeof preparePublicApiQueries>;
