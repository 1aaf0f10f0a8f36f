import { downloadUrls } from "../bundles/urls.ts";
import { iso } from "../common/clock.ts";
import { shippedFormats } from "../formats/registry.ts";
import type { ProjectLanguageT, ProjectT, ReleaseDetailT, ReleaseLanguageT } from "./model.ts";
import type { ApiProjectRow, PublishedRow, PublicApiQueries as Queries } from "./queries.ts";
import { ReleaseIndex } from "./release-index.ts";

/** Projects whose derived answers are kept in memory at once (least recently used go first). */
export const PROJECT_STATES_MAX = 100;

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
    readonly project: ApiProjectRow,
  ) {}

  /** Always exactly the token's project (docs/interface.md §4.1). */
  projects(): string {
    const p = this.project;
    const item: ProjectT = { id: p.publicId, name: p.name, base_language_code: p.baseLanguageCode, created_at: iso(p.createdAt) };
    return (this.projectsBody ??= JSON.stringify({ items: [item] }));
  }

  /**
   * Every language of the project, never paginated, by code (docs/interface.md §4.4,
   * docs/product.md §2).
   */
  languages(): string {
    return (this.languagesBody ??= JSON.stringify({
      items: this.queries.languages.all(this.project.id).map(
        (l): ProjectLanguageT => ({ code: l.code, name: l.name, is_base_language: l.code === this.project.baseLanguageCode, created_at: iso(l.createdAt) }),
      ),
    }));
  }

  releases(): ReleaseIndex {
    // Drafts are excluded by the query itself (docs/interface.md §4.2 rule 2).
    return (this.index ??= new ReleaseIndex(this.queries.published.all(this.project.id)));
  }

  /** Undefined for a draft or an unknown id alike (docs/interface.md §4.3). */
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
    // The languages frozen at publish, with is_base_language as it was then (docs/interface.md
    // §2.3), and a URL per format the release shipped (docs/formats.md); the URLs use the current
    // slugs, so rotation revokes old URLs (§5 rule 7).
    const formats = shippedFormats(JSON.parse(this.queries.formats.get(row.rowId)?.formats ?? "[]") as string[]);
    const languages = row.slug
      ? this.queries.shipped.all(row.rowId).map(
          (l): ReleaseLanguageT => ({
            code: l.code,
            is_base_language: l.isBaseLanguage === 1,
            // Every release recorded every bundle format there is (docs/formats.md "Adding a format"
            // says what a new bundle format changes here), so every key of the model is present.
            download_urls: downloadUrls(this.cdnUrl, this.project.cdnSlug, row.slug!, l.code, formats) as ReleaseLanguageT["download_urls"],
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
