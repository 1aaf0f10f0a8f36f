import { iso } from "../common/clock.ts";
import { downloadUrls } from "../cdn/urls.ts";
import type { Db } from "../storage/db.ts";
import type { ProjectLanguageT, ProjectT, ReleaseDetailT, ReleaseLanguageT } from "./model.ts";
import { ReleaseIndex, type PublishedRow } from "./release-index.ts";

/** Projects whose derived answers are kept in memory at once (least recently used go first). */
export const PROJECT_STATES_MAX = 100;

interface ProjectRow {
  id: number;
  public_id: string;
  name: string;
  base_language_code: string;
  cdn_slug: string;
  created_at: number;
}

/**
 * What the API derives from one project's rows, computed on first use and thrown away whenever the
 * project changes (the change listeners run right after each committed change, so nothing here is
 * ever older than the database).
 */
export class ProjectState {
  private index: ReleaseIndex | undefined;
  private projectsBody: string | undefined;
  private languagesBody: string | undefined;
  private readonly details = new Map<string, string>();

  constructor(
    private readonly queries: Queries,
    private readonly cdnUrl: string,
    readonly project: ProjectRow,
  ) {}

  /** spec 4.1: always exactly the token's project. */
  projects(): string {
    const p = this.project;
    const item: ProjectT = { id: p.public_id, name: p.name, base_language_code: p.base_language_code, created_at: iso(p.created_at) };
    return (this.projectsBody ??= JSON.stringify({ items: [item] }));
  }

  /** spec 4.4, CONTRACTS 2: every language of the project, never paginated, by code. */
  languages(): string {
    return (this.languagesBody ??= JSON.stringify({
      items: this.queries.languages.all(this.project.id).map(
        (l): ProjectLanguageT => ({ code: l.code, name: l.name, is_base_language: l.code === this.project.base_language_code, created_at: iso(l.created_at) }),
      ),
    }));
  }

  releases(): ReleaseIndex {
    // spec 4.2 rule 2: drafts are excluded by the query itself.
    return (this.index ??= new ReleaseIndex(this.queries.published.all(this.project.id)));
  }

  /** spec 4.3: undefined for a draft or an unknown id alike. */
  detail(releaseId: string): string | undefined {
    const cached = this.details.get(releaseId);
    if (cached !== undefined) return cached;
    const row = this.releases().find(releaseId);
    if (!row) return undefined;
    const body = JSON.stringify(this.renderDetail(row));
    this.details.set(releaseId, body);
    return body;
  }

  private renderDetail(row: PublishedRow): ReleaseDetailT {
    // spec 2.3: the languages frozen at publish, with is_base_language as it was then; the URLs use
    // the project's and the release's current slugs (spec 5 rule 7: rotation revokes old URLs).
    const languages = row.slug
      ? this.queries.shipped.all(row.rowId).map(
          (l): ReleaseLanguageT => ({
            code: l.code,
            is_base_language: l.is_base_language === 1,
            download_urls: downloadUrls(this.cdnUrl, this.project.cdn_slug, row.slug!, l.code),
          }),
        )
      : [];
    return {
      id: row.publicId,
      name: row.name,
      tag: row.tag,
      status: "published",
      published_at: iso(row.publishedAt),
      created_at: iso(row.createdAt),
      languages,
    };
  }
}

/** Prepared statements, compiled once per server. */
export function prepareQueries(db: Db) {
  const c = db.$client;
  return {
    project: c.query<ProjectRow, [number]>("SELECT id, public_id, name, base_language_code, cdn_slug, created_at FROM projects WHERE id = ?"),
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
  };
}

export type Queries = ReturnType<typeof prepareQueries>;

/** The per-project states, least recently used evicted first. */
export class ProjectStates {
  private readonly states = new Map<number, ProjectState>();

  constructor(
    private readonly queries: Queries,
    private readonly cdnUrl: string,
  ) {}

  get(projectId: number): ProjectState | undefined {
    let state = this.states.get(projectId);
    if (state) {
      this.states.delete(projectId);
      this.states.set(projectId, state);
      return state;
    }
    const project = this.queries.project.get(projectId);
    if (!project) return undefined;
    state = new ProjectState(this.queries, this.cdnUrl, project);
    this.states.set(projectId, state);
    if (this.states.size > PROJECT_STATES_MAX) this.states.delete(this.states.keys().next().value!);
    return state;
  }

  drop(projectId: number): void {
    this.states.delete(projectId);
  }
}
