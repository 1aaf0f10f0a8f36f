import type { Db } from "../storage/db.ts";
import { named, selected, type RowOf } from "../storage/names.ts";
import { channels, projects, releaseLanguages, releases } from "../storage/schema.ts";

const p = named(projects);
const r = named(releases);
const rl = named(releaseLanguages);
const release = selected(r, "id", "publicId", "formats");
// In the channel's statement, where the release is `r` beside the channel `c`.
const cr = named(releases, "r");
const c = named(channels, "c");
const channelRelease = selected(cr, "id", "publicId", "formats");

/** A release the CDN serves; `formats`: the JSON list of the formats it shipped (docs/formats.md). */
export type CdnRelease = RowOf<typeof release>;

/** A CDN cache miss resolves its path with these, prepared once (docs/architecture.md "Reaching SQLite"). */
export function prepareCdnQueries(db: Db) {
  const sqlite = db.$client;
  return {
    projectBySlug: sqlite.prepare<{ id: number }, [string]>(`SELECT ${p.id} FROM ${p} WHERE ${p.cdnSlug} = ?`),
    pinnedRelease: sqlite.prepare<CdnRelease, [number, string]>(
      `SELECT ${release} FROM ${r} WHERE ${r.projectId} = ? AND ${r.slug} = ? AND ${r.status} = 'published'`,
    ),
    latestRelease: sqlite.prepare<CdnRelease, [number]>(
      `SELECT ${release} FROM ${r} WHERE ${r.projectId} = ? AND ${r.status} = 'published' ORDER BY ${r.publishedAt} DESC, ${r.id} DESC LIMIT 1`,
    ),
    // docs/releases.md "Channels": the release a channel of the project points at.
    channelRelease: sqlite.prepare<RowOf<typeof channelRelease>, [number, string]>(
      `SELECT ${channelRelease} FROM ${c} JOIN ${cr} ON ${cr.id} = ${c.releaseId} WHERE ${c.projectId} = ? AND ${c.slug} = ? AND ${cr.status} = 'published'`,
    ),
    shippedLanguage: sqlite.prepare<{ code: string }, [number, string]>(`SELECT ${rl.code} FROM ${rl} WHERE ${rl.releaseId} = ? AND ${rl.code} = ?`),
  };
}

export type CdnQueries = ReturnType<typeof prepareCdnQueries>;
