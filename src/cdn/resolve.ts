import { LATEST } from "../bundles/urls.ts";
import type { CdnQueries } from "./queries.ts";
import type { CdnPath } from "./paths.ts";

/** What a CDN path names, as the database says it now. */
export interface ResolvedFile {
  projectId: number;
  releasePublicId: string;
  code: string; // as stored, from release_languages
  /** The path follows a moving pointer (`latest` or a channel), so it gets latest's cache headers. */
  moving: boolean;
}

/**
 * Resolves a parsed CDN path through the database: the project by its current slug, the release
 * by its current slug among that project's published ones (or the newest published one for
 * `latest`, docs/product.md §3, or the one a channel of the project points at, docs/releases.md), the language among those the release shipped
 * (docs/interface.md §4.5 rules 1-2), and the format among those it shipped (docs/formats.md "What
 * a release records": `latest` answers 404 for a format the newest release lacks, as for a
 * language). A draft, a rotated slug, a deleted release, an unshipped language or format resolve
 * to null.
 */
export function resolveFile(q: CdnQueries, path: CdnPath): ResolvedFile | null {
  const project = q.projectBySlug.get(path.projectSlug);
  if (!project) return null;
  const latest = !path.channel && path.releaseSlug === LATEST;
  const release = path.channel
    ? q.channelRelease.get(project.id, path.releaseSlug)
    : latest
      ? q.latestRelease.get(project.id)
      : q.pinnedRelease.get(project.id, path.releaseSlug);
  if (!release || !(JSON.parse(release.formats) as string[]).includes(path.ext)) return null;
  const language = q.shippedLanguage.get(release.id, path.code);
  if (!language) return null;
  return { projectId: project.id, releasePublicId: release.publicId, code: language.code, moving: latest || path.channel };
}
