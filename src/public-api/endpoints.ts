import type { Static, TObject } from "@sinclair/typebox";
import { notFound } from "../common/errors.ts";
import { ReleaseIdParams, ReleasesQueryWire, type NamedSchema } from "./model.ts";
import type { ProjectState } from "./project-state.ts";
import { parseListParams } from "./query.ts";
import { renderReleaseList } from "./release-index.ts";

/**
 * The public API's endpoints (docs/interface.md §4.1-4.4), one row each: everything else is derived
 * from this table (docs/architecture.md "Adding a public API endpoint"). The Elysia routes and the
 * OpenAPI document generated from them (routes.ts), the matching and validation of the fast path
 * before the framework (endpoint-router.ts, service.ts), and which paths under /v1 answer 405
 * rather than 404 all read these rows.
 */

/** What an endpoint's function is given, the same on both paths (docs/public-api.md "Speed"). */
export interface EndpointInput<Params> {
  /** The path parameters as the router decodes them: a segment that cannot be decoded is null. */
  params: Params;
  /**
   * Every parameter of the literal query string with all its values, in order (query.ts): a
   * repeated parameter is judged as written, never as the router merged it (docs/product.md §2).
   */
  query: Map<string, string[]>;
}

/** The input of any row, as the service hands it on without knowing which row it is. */
export type AnyEndpointInput = EndpointInput<Static<TObject>>;

/** The answer of an error status an endpoint documents besides those every endpoint gives. */
export interface DocumentedError {
  description: string;
  /** The `error` of an example answer. */
  example: string;
}

export interface Endpoint<Params extends TObject = TObject> {
  /** The path as Elysia and memoirist read it, under /v1 (`/v1/releases/:release_id`). */
  path: string;
  /** The wire schemas of the query and the path parameters, validated before `answer` runs. */
  query?: TObject;
  params?: Params;
  /** The named model of the 200 answer (model.ts), and the error answers of this endpoint alone. */
  ok: NamedSchema;
  errors?: Record<number, DocumentedError>;
  /** The operation as the OpenAPI document describes it. */
  detail: { operationId: string; summary: string; description: string };
  /**
   * The answer's JSON for an admitted caller, from the project's derived data. A refusal is
   * thrown as an HttpError (a 404 is cached like a 200, a 400 is not: docs/public-api.md
   * "Response cache"). A method, so that rows of different parameters share one table.
   */
  answer(state: ProjectState, input: EndpointInput<Static<Params>>): string | Uint8Array<ArrayBuffer>;
}

// docs/interface.md §4.3: the same for a draft and a missing id.
const NOT_FOUND_RELEASE = "release not found";

/** docs/interface.md §4.1: always exactly the token's project. */
export function listProjects(state: ProjectState): string {
  return state.projects();
}

/** docs/interface.md §4.2: a page of the published releases, as the literal query asks for it. */
export function listReleases(state: ProjectState, query: Map<string, string[]>): Uint8Array<ArrayBuffer> {
  const asked = parseListParams(query);
  const { items, total } = state.releases().page(asked);
  return renderReleaseList(items, total, asked);
}

/** docs/interface.md §4.3: one published release; a draft, an unknown id and an undecodable one are alike. */
export function getRelease(state: ProjectState, releaseId: string | null): string {
  const body = releaseId === null ? undefined : state.detail(releaseId);
  if (body === undefined) throw notFound(NOT_FOUND_RELEASE);
  return body;
}

/** docs/interface.md §4.4: every language, never paginated. */
export function listProjectLanguages(state: ProjectState): string {
  return state.languages();
}

/** A row, with its parameters' type inferred from its schema. */
const row = <Params extends TObject>(endpoint: Endpoint<Params>): Endpoint => endpoint;

/**
 * The table. Its order is the order of the OpenAPI document's paths. The Authorization header is
 * read and judged by tokens/token-auth.ts (a malformed one is the 401 "invalid token", never a
 * validation 400), so no row declares a schema for it.
 */
export const ENDPOINTS: readonly Endpoint[] = [
  row({
    path: "/v1/projects",
    ok: "ProjectList",
    detail: { operationId: "listProjects", summary: "The token's project", description: "Always exactly one item: a token belongs to one project." },
    answer: (state) => listProjects(state),
  }),
  row({
    path: "/v1/releases",
    query: ReleasesQueryWire,
    ok: "ReleaseList",
    errors: {
      400: {
        description: "A page or page_size that is not a positive whole number, or a parameter given twice",
        example: 'invalid query parameter "page": must be a positive whole number',
      },
    },
    detail: { operationId: "listReleases", summary: "Published releases, paged", description: "Drafts are never listed. Page until page reaches page_info.total_pages." },
    answer: (state, { query }) => listReleases(state, query),
  }),
  row({
    path: "/v1/releases/:release_id",
    params: ReleaseIdParams,
    ok: "ReleaseDetail",
    errors: { 404: { description: "No such release, or a draft", example: NOT_FOUND_RELEASE } },
    detail: {
      operationId: "getRelease",
      summary: "One published release with its languages and download URLs",
      description: "A draft answers exactly like a release that does not exist.",
    },
    answer: (state, { params }) => getRelease(state, params.release_id),
  }),
  row({
    path: "/v1/project-languages",
    ok: "ProjectLanguageList",
    detail: { operationId: "listProjectLanguages", summary: "Every language of the project", description: "Never paginated." },
    answer: (state) => listProjectLanguages(state),
  }),
];
