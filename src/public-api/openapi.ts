import type { Settings } from "../config/settings.ts";
import { NAMED_SCHEMAS, RELEASE_ID_PARAM, RELEASES_QUERY } from "./model.ts";

/**
 * The OpenAPI 3.1 description of the public API (spec 9 rule 4, CONTRACTS 2), generated from the
 * very TypeBox schemas in `model.ts` that type the answers and validate the inputs. TypeBox emits
 * JSON Schema 2020-12, which is OpenAPI 3.1's own dialect, so the schemas go in unchanged; a nested
 * schema that is also a named one becomes a `$ref`.
 */
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

const REF = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Plain JSON of a TypeBox schema (drops its symbol-keyed bookkeeping). */
export function plain(schema: unknown): Obj {
  return JSON.parse(JSON.stringify(schema)) as Obj;
}

function withRefs(node: Json, named: Map<string, string>, self: string): Json {
  if (Array.isArray(node)) return node.map((n) => withRefs(n, named, self));
  if (node === null || typeof node !== "object") return node;
  const text = JSON.stringify(node);
  for (const [name, json] of named) if (name !== self && json === text) return REF(name);
  const out: Obj = {};
  for (const [k, v] of Object.entries(node)) out[k] = withRefs(v, named, self);
  return out;
}

function componentSchemas(): Obj {
  const named = new Map(Object.entries(NAMED_SCHEMAS).map(([name, s]) => [name, JSON.stringify(plain(s))]));
  const out: Obj = {};
  for (const [name, s] of Object.entries(NAMED_SCHEMAS)) out[name] = withRefs(plain(s), named, name);
  return out;
}

const QUOTA_HEADERS = {
  "X-RateLimit-Limit": { $ref: "#/components/headers/X-RateLimit-Limit" },
  "X-RateLimit-Remaining": { $ref: "#/components/headers/X-RateLimit-Remaining" },
  "X-RateLimit-Reset": { $ref: "#/components/headers/X-RateLimit-Reset" },
};

function ok(description: string, schema: string): Obj {
  return { description, headers: QUOTA_HEADERS, content: { "application/json": { schema: REF(schema) } } };
}

const ERRORS = {
  401: { $ref: "#/components/responses/Unauthorized" },
  429: { $ref: "#/components/responses/TooManyRequests" },
};

export function buildOpenApi(settings: Settings): Obj {
  const window = settings.rateWindowSeconds;
  const parameters = Object.entries(RELEASES_QUERY).map(([name, p]) => ({
    name,
    in: "query",
    required: false,
    description: p.description,
    schema: plain(p.schema),
  }));

  return {
    openapi: "3.1.0",
    info: {
      title: "Phrasebook public API",
      version: "1",
      description:
        "Read-only discovery of a project's published translation releases and their CDN download URLs. " +
        "Every request carries `Authorization: Bearer <token>`; a token belongs to exactly one project. " +
        `Each token may make ${settings.rateLimit} requests per fixed ${window}-second window; a 429 carries Retry-After, the exact seconds to wait. ` +
        `Responses are cached for ${settings.apiCacheTtlSeconds} seconds per literal URL; a cached response costs no quota. ` +
        "Files themselves come from the CDN URLs in download_urls and need no token.",
    },
    servers: [{ url: `${settings.publicUrl}/v1` }],
    security: [{ bearerAuth: [] }],
    paths: {
      "/projects": {
        get: {
          operationId: "listProjects",
          summary: "The token's project",
          description: "Always exactly one item: a token is scoped to one project (spec 4.1).",
          responses: { 200: ok("The token's project", "ProjectList"), ...ERRORS },
        },
      },
      "/releases": {
        get: {
          operationId: "listReleases",
          summary: "Published releases, paged",
          description: "Drafts are never listed. Page until page reaches page_info.total_pages (spec 4.2).",
          parameters,
          responses: {
            200: ok("A page of published releases", "ReleaseList"),
            400: { $ref: "#/components/responses/BadRequest" },
            ...ERRORS,
          },
        },
      },
      "/releases/{release_id}": {
        get: {
          operationId: "getRelease",
          summary: "One published release with its languages and download URLs",
          description: "A draft answers exactly like a release that does not exist (spec 4.3).",
          parameters: [{ name: "release_id", in: "path", required: true, description: RELEASE_ID_PARAM.description, schema: plain(RELEASE_ID_PARAM.schema) }],
          responses: { 200: ok("The release", "ReleaseDetail"), 404: { $ref: "#/components/responses/NotFound" }, ...ERRORS },
        },
      },
      "/project-languages": {
        get: {
          operationId: "listProjectLanguages",
          summary: "Every language of the project",
          description: "Never paginated (spec 4.4).",
          responses: { 200: ok("All languages", "ProjectLanguageList"), ...ERRORS },
        },
      },
    },
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "An API token from the dashboard (pb_...)" } },
      schemas: componentSchemas(),
      headers: {
        "X-RateLimit-Limit": { description: "Requests allowed per window", schema: { type: "integer" } },
        "X-RateLimit-Remaining": { description: "Requests left in the current window", schema: { type: "integer", minimum: 0 } },
        "X-RateLimit-Reset": { description: "Unix time (seconds) at which the current window ends", schema: { type: "integer" } },
        "Retry-After": { description: "Whole seconds until the window ends; waiting less fails again", schema: { type: "integer", minimum: 1 } },
      },
      responses: {
        BadRequest: errorResponseDoc("A page or page_size that is not a positive whole number, or a parameter given twice", "Error", {
          error: 'invalid query parameter "page": must be a positive whole number',
        }),
        Unauthorized: errorResponseDoc("Missing or invalid token", "Error", { error: "invalid token" }),
        NotFound: errorResponseDoc("No such release, or a draft", "Error", { error: "release not found" }),
        TooManyRequests: {
          ...errorResponseDoc("Rate limit exceeded", "RateLimitError", { error: "rate limit exceeded" }),
          headers: { ...QUOTA_HEADERS, "Retry-After": { $ref: "#/components/headers/Retry-After" } },
        },
      },
    },
  };
}

function errorResponseDoc(description: string, schema: string, example: Obj): Obj {
  return { description, headers: QUOTA_HEADERS, content: { "application/json": { schema: REF(schema), example } } };
}
