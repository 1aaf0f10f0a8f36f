import { Type } from "@sinclair/typebox";
import { t, type Static } from "elysia";
import { BUNDLE_FORMATS, type BundleFormat } from "../formats/registry.ts";

/**
 * The public API's models (docs/interface.md §2, docs/product.md §2): the one source of the field
 * sets and parameters. The services build values typed by these schemas, `query.ts` reads the
 * parameters they document, and the routes declare them as their inputs and answers, from which
 * Elysia's OpenAPI plugin generates the document (openapi.ts), so it cannot drift from the answers;
 * the tests check every answer against it. This file is part of the routing layer (models are
 * `t.Object`, docs/architecture.md "Folders"), which is why it may import Elysia's `t`.
 */

// The limits and defaults of `GET /releases`, written once (limits.ts, which loads nothing, so the
// client reads them without the framework): the schemas, the document and query.ts read them.
import { PAGE_SIZE_MAX, SORT_KEYS, ORDERS, PAGE_DEFAULT, PAGE_SIZE_DEFAULT, SORT_DEFAULT, ORDER_DEFAULT } from "./limits.ts";
export * from "./limits.ts";

// docs/interface.md §2: every timestamp is an ISO 8601 UTC string; we always render milliseconds
// and `Z`.
const Timestamp = (description: string) =>
  t.String({ format: "date-time", pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$", description });

const OpaqueId = (description: string) => t.String({ minLength: 1, description });

// Elysia's t.Integer accepts numeric strings too (a union meant for coercing query values), which
// would document every count as "string or integer"; the API answers plain JSON integers, which is
// TypeBox's own Integer.
export const Int = (options: { minimum?: number; maximum?: number; default?: number; description?: string }) => Type.Integer(options);

const closed = { additionalProperties: false } as const;

export const Project = t.Object(
  {
    id: OpaqueId("opaque project id"),
    name: t.String({ description: "project name" }),
    base_language_code: t.String({ description: "language code of the base language" }),
    created_at: Timestamp("creation time"),
  },
  { ...closed, description: "The project a token belongs to." },
);

export const ReleaseSummary = t.Object(
  {
    id: OpaqueId("opaque release id; the release_id used in paths"),
    name: t.String({ description: "release name" }),
    tag: t.String({ description: "release tag" }),
    status: t.Literal("published", { description: "always published in the public API" }),
    published_at: Timestamp("when the release went live"),
    created_at: Timestamp("when the release was cut"),
  },
  { ...closed, description: "A published release as listed." },
);

const CdnUrl = (format: BundleFormat) => t.String({ format: "uri", description: `absolute CDN URL of the .${format} file` });

/**
 * One key per bundle format of the registry (docs/interface.md §2.3: json, yaml and arb), each the
 * URL of that file. A release's `download_urls` list exactly the formats it recorded, which are
 * every bundle format (docs/formats.md "What a release records").
 */
const DownloadUrls = t.Object(Object.fromEntries(BUNDLE_FORMATS.map((f) => [f, CdnUrl(f)])) as Record<BundleFormat, ReturnType<typeof CdnUrl>>, closed);

export const ReleaseLanguage = t.Object(
  {
    code: t.String({ description: "language code, e.g. de or pt-BR" }),
    is_base_language: t.Boolean({ description: "whether it was the project's base language when the release was published" }),
    download_urls: DownloadUrls,
  },
  { ...closed, description: "A language the release shipped, with its files on the CDN." },
);

export const ReleaseDetail = t.Object(
  {
    ...ReleaseSummary.properties,
    languages: t.Array(ReleaseLanguage, { description: "exactly the languages the release contained when it was published" }),
  },
  { ...closed, description: "A published release with its languages and download URLs." },
);

export const PageInfo = t.Object(
  {
    total_count: Int({ minimum: 0, description: "published releases matching the request, respecting search" }),
    page: Int({ minimum: 1, description: "page actually used" }),
    page_size: Int({ minimum: 1, maximum: PAGE_SIZE_MAX, description: "page size actually used (after clamping)" }),
    total_pages: Int({ minimum: 0, description: "total_count / page_size rounded up; 0 when total_count is 0" }),
  },
  { ...closed, description: "Where a page sits in the whole list." },
);

export const ProjectLanguage = t.Object(
  {
    code: t.String({ description: "language code" }),
    name: t.String({ description: "display name" }),
    is_base_language: t.Boolean({ description: "whether it is the project's base language now" }),
    created_at: Timestamp("when the language was added to the project"),
  },
  { ...closed, description: "A language of the project." },
);

export const ProjectList = t.Object({ items: t.Array(Project, { minItems: 1, maxItems: 1 }) }, { ...closed, description: "Answer of GET /projects." });
export const ReleaseList = t.Object({ items: t.Array(ReleaseSummary, { maxItems: PAGE_SIZE_MAX }), page_info: PageInfo }, { ...closed, description: "Answer of GET /releases." });
export const ProjectLanguageList = t.Object({ items: t.Array(ProjectLanguage) }, { ...closed, description: "Answer of GET /project-languages: every language, never paginated." });

export const ErrorBody = t.Object({ error: t.String() }, { ...closed, description: "Every error answer. Branch on the status code, not the message." });

/** The error answers of one status, described and exemplified for the document. */
export const errorBodyFor = (description: string, example: string) =>
  t.Object({ error: t.String() }, { ...closed, description, examples: [{ error: example }] });
export const RateLimitErrorBody = t.Object({ error: t.Literal("rate limit exceeded") }, { ...closed, description: "The 429 answer, exactly." });

export type ProjectT = Static<typeof Project>;
export type ReleaseSummaryT = Static<typeof ReleaseSummary>;
export type ReleaseDetailT = Static<typeof ReleaseDetail>;
export type ReleaseLanguageT = Static<typeof ReleaseLanguage>;
export type PageInfoT = Static<typeof PageInfo>;
export type ProjectLanguageT = Static<typeof ProjectLanguage>;

/** Named schemas as they appear under `components.schemas` of the OpenAPI document. */
export const NAMED_SCHEMAS = {
  Project,
  ProjectList,
  ReleaseSummary,
  ReleaseList,
  PageInfo,
  ReleaseDetail,
  ReleaseLanguage,
  ProjectLanguage,
  ProjectLanguageList,
  Error: ErrorBody,
  RateLimitError: RateLimitErrorBody,
} as const;

export type NamedSchema = keyof typeof NAMED_SCHEMAS;

/**
 * The query parameters of `GET /releases` (docs/interface.md §4.2) with their documented types. On
 * the wire every one is a string, read by `query.ts` as an optional string and normalised there
 * (docs/architecture.md "Folders"), because sort and order must fall back silently and page_size
 * must clamp.
 */
export const RELEASES_QUERY = {
  page: {
    schema: Int({ minimum: 1, default: PAGE_DEFAULT }),
    description: "1-based page number. Not a positive whole number: 400. Past total_pages: 200 with empty items and the true page_info.",
  },
  page_size: {
    schema: Int({ minimum: 1, default: PAGE_SIZE_DEFAULT }),
    description: `Items per page. Values above ${PAGE_SIZE_MAX} are clamped to ${PAGE_SIZE_MAX}. Not a positive whole number: 400.`,
  },
  search: {
    schema: t.String(),
    description: "Case-insensitive substring of the release name or tag (Unicode case mapping, so ß matches SS; accents are significant).",
  },
  sort: {
    schema: t.String({ enum: [...SORT_KEYS], default: SORT_DEFAULT }),
    description: `Sort key. An unrecognised value falls back to ${SORT_DEFAULT} without an error. Ties break by created_at, then creation order.`,
  },
  order: {
    schema: t.String({ enum: [...ORDERS], default: ORDER_DEFAULT }),
    description: `${ORDERS.join(" or ")}. An unrecognised value falls back to ${ORDER_DEFAULT} without an error.`,
  },
} as const;

export type ReleasesQueryName = keyof typeof RELEASES_QUERY;

/** The path parameter of `GET /releases/{release_id}` (docs/interface.md §4.3). */
export const RELEASE_ID_PARAM = {
  schema: t.String(),
  description: "The id of a release from GET /releases. A draft's id or an unknown one: 404.",
} as const;

/**
 * What the routes validate on the wire (docs/architecture.md "Folders"): every parameter an
 * optional string, so a bad sort or order falls back and a huge page_size clamps instead of failing
 * validation; the documented types above are enforced by `query.ts` with the 400s of
 * docs/product.md §2.
 */
export const ReleasesQueryWire = t.Object({
  page: t.Optional(t.String()),
  page_size: t.Optional(t.String()),
  search: t.Optional(t.String()),
  sort: t.Optional(t.String()),
  order: t.Optional(t.String()),
});

// Elysia gives null for a segment it cannot percent-decode (`%ZZ`); such an id names no release
// and must get the same 404 as any unknown id (docs/interface.md §4.3), not a validation error.
// The service reads the id from the literal path either way.
export const ReleaseIdParams = t.Object({ release_id: t.Union([RELEASE_ID_PARAM.schema, t.Null()]) });
