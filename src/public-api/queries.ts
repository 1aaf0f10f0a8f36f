import type { Db } from "../storage/db.ts";
import type { PublishedRow } from "./release-index.ts";

/** A project as the public API reads it. */
export interface ApiProjectRow {
  id: number;
  public_id: string;
  name: string;
  base_language_code: string;
  cdn_slug: string;
  created_at: number;
}

/**
 * The public API's statements, prepared once per app (docs/architecture.md "Reaching SQLite"):
 * they run on every miss of the response cache.
 */
export function preparePublicApiQueries(db: Db) {
  const c = db.$client;
  return {
    project: c.query<ApiProjectRow, [number]>("SELECT id, public_id, name, base_language_code, cdn_slug, created_at FROM projects WHERE id = ?"),
    languages: c.query<{ code: string; name: string; created_at: number }, [number]>(
      "SELECT code, name, created_at FROM languages WHERE project_id = ? ORDER BY code",
    ),
    published: c.query<PublishedRow, [number]>(
      `SELECT id AS rowId, public_id AS publicId, name, tag, slug, created_at AS createdAt, published_at AS publishedAt
         FROM releases WHERE project_id = ? AND status = 'published' AND published_at IS NOT NULL`,
    ),
    shipped: c.query<{ code: string; is_base_language: number }, [number]>(
      "SELECT code, is_base_language FROM release_languages WHERE release_id = ? ORDER BY code",
    ),
    // The JSON list of the formats a release shipped (docs/formats.md "What a release records").
    formats: c.query<{ formats: string }, [number]>("SELECT formats FROM releases WHERE id = ?"),
  };
}

export type PublicApiQueries = ReturnType<typeof preparePublicApiQueries>;
