import type { Db } from "../storage/db.ts";

export interface CdnRelease {
  id: number;
  publicId: string;
  formats: string;
}

/** A CDN cache miss resolves its path with these, prepared once (docs/architecture.md "Reaching SQLite"). */
export function prepareCdnQueries(db: Db) {
  const c = db.$client;
  return {
    projectBySlug: c.prepare<{ id: number }, [string]>("SELECT id FROM projects WHERE cdn_slug = ?"),
    // `formats`: the JSON list of the formats the release shipped (docs/formats.md).
    pinnedRelease: c.prepare<CdnRelease, [number, string]>(
      "SELECT id, public_id AS publicId, formats FROM releases WHERE project_id = ? AND slug = ? AND status = 'published'",
    ),
    latestRelease: c.prepare<CdnRelease, [number]>(
      "SELECT id, public_id AS publicId, formats FROM releases WHERE project_id = ? AND status = 'published' ORDER BY published_at DESC, id DESC LIMIT 1",
    ),
    // docs/releases.md "Channels": the release a channel of the project points at.
    channelRelease: c.prepare<CdnRelease, [number, string]>(
      "SELECT r.id, r.public_id AS publicId, r.formats FROM channels c JOIN releases r ON r.id = c.release_id WHERE c.project_id = ? AND c.slug = ? AND r.status = 'published'",
    ),
    shippedLanguage: c.prepare<{ code: string }, [number, string]>("SELECT code FROM release_languages WHERE release_id = ? AND code = ?"),
  };
}

export type CdnQueries = ReturnType<typeof prepareCdnQueries>;
