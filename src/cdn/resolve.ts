import type { Db } from "../storage/db.ts";
import type { CdnPath } from "./paths.ts";
import { LATEST } from "./urls.ts";

/** What a CDN path names, as the database says it now. */
export interface ResolvedFile {
  projectId: number;
  releasePublicId: string;
  code: string; // as stored, from release_languages
  latest: boolean;
}

/**
 * Resolves a parsed CDN path through the database: the project by its current slug, the release
 * by its current slug among that project's published ones (or the newest published one for
 * `latest`, CONTRACTS 3), and the language among those the release shipped (spec 4.5 rules 1-2).
 * A draft, a rotated slug, a deleted release or an unshipped language resolve to null.
 */
export class Resolver {
  private readonly project;
  private readonly pinned;
  private readonly latest;
  private readonly language;

  constructor(db: Db) {
    const sqlite = db.$client;
    this.project = sqlite.prepare<{ id: number }, [string]>("SELECT id FROM projects WHERE cdn_slug = ?");
    this.pinned = sqlite.prepare<{ id: number; publicId: string }, [number, string]>(
      "SELECT id, public_id AS publicId FROM releases WHERE project_id = ? AND slug = ? AND status = 'published'",
    );
    this.latest = sqlite.prepare<{ id: number; publicId: string }, [number]>(
      "SELECT id, public_id AS publicId FROM releases WHERE project_id = ? AND status = 'published' ORDER BY published_at DESC, id DESC LIMIT 1",
    );
    this.language = sqlite.prepare<{ code: string }, [number, string]>("SELECT code FROM release_languages WHERE release_id = ? AND code = ?");
  }

  resolve(path: CdnPath): ResolvedFile | null {
    const project = this.project.get(path.projectSlug);
    if (!project) return null;
    const latest = path.releaseSlug === LATEST;
    const release = latest ? this.latest.get(project.id) : this.pinned.get(project.id, path.releaseSlug);
    if (!release) return null;
    const language = this.language.get(release.id, path.code);
    if (!language) return null;
    return { projectId: project.id, releasePublicId: release.publicId, code: language.code, latest };
  }
}
