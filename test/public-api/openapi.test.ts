/** spec 9 rule 4, CONTRACTS 2: GET /v1/openapi.json and the reference page /v1/docs. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { NAMED_SCHEMAS, RELEASES_QUERY } from "../../src/public-api/model.ts";
import { plain } from "../../src/public-api/openapi.ts";
import { launchBrowser, openPage } from "../dashboard/browser.ts";
import { ApiClient, newToken, published, startFixture, type Fixture } from "./api-client.ts";

let f: Fixture;
let doc: any;

beforeAll(async () => {
  f = await startFixture({ env: { PHRASEBOOK_RATE_LIMIT: "1234", PHRASEBOOK_API_CACHE_TTL: "45" } });
  const res = await fetch(`${f.server.url}/v1/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  doc = await res.json();
}, 30_000);

afterAll(async () => {
  await f?.server.stop();
});

describe("spec 9 rule 4: the OpenAPI 3.1 document", () => {
  test("spec 9 rule 4: GET /v1/openapi.json needs no token and validates as OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  test("spec 9 rule 1: the server URL is PHRASEBOOK_PUBLIC_URL + /v1", () => {
    expect(doc.servers).toEqual([{ url: `${f.server.url}/v1` }]);
  });

  test("issue 4: all four endpoints with their parameters and their 200, 401, 404 and 429 answers", () => {
    expect(Object.keys(doc.paths).sort()).toEqual(["/project-languages", "/projects", "/releases", "/releases/{release_id}"]);
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      expect(Object.keys(item)).toEqual(["get"]);
      const statuses = Object.keys(item.get.responses);
      for (const s of ["200", "401", "429"]) expect(statuses, path).toContain(s);
    }
    expect(Object.keys(doc.paths["/releases/{release_id}"].get.responses)).toContain("404");
    expect(Object.keys(doc.paths["/releases"].get.responses)).toContain("400");
    const params = doc.paths["/releases"].get.parameters;
    expect(params.map((p: any) => p.name)).toEqual(["page", "page_size", "search", "sort", "order"]);
    expect(params.find((p: any) => p.name === "page_size").schema).toEqual({ type: "integer", minimum: 1, default: 20 });
    expect(params.find((p: any) => p.name === "sort").schema.enum).toEqual(["name", "tag", "status", "published_at", "created_at"]);
    expect(doc.paths["/releases/{release_id}"].get.parameters[0]).toMatchObject({ name: "release_id", in: "path", required: true });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    const tooMany = doc.components.responses.TooManyRequests;
    expect(Object.keys(tooMany.headers)).toContain("Retry-After");
    expect(doc.components.schemas.RateLimitError.properties.error.const).toBe("rate limit exceeded");
  });

  test("issue 4: the document is generated from the model's TypeBox schemas, the ones the answers are typed by, so it cannot drift", () => {
    const inline = (node: any): any => {
      if (Array.isArray(node)) return node.map(inline);
      if (node === null || typeof node !== "object") return node;
      if (node.$ref) return inline(doc.components.schemas[node.$ref.split("/").pop()]);
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v)]));
    };
    // With its $refs put back inline, each published schema is exactly the model's TypeBox schema.
    for (const [name, schema] of Object.entries(NAMED_SCHEMAS)) expect(inline(doc.components.schemas[name]), name).toEqual(plain(schema));
    for (const [name, p] of Object.entries(RELEASES_QUERY)) {
      expect(doc.paths["/releases"].get.parameters.find((x: any) => x.name === name).schema).toEqual(plain(p.schema));
    }
    expect(doc.components.schemas.ReleaseSummary).toEqual(plain(NAMED_SCHEMAS.ReleaseSummary));
    expect(doc.components.schemas.ReleaseDetail.properties.languages.items).toEqual({ $ref: "#/components/schemas/ReleaseLanguage" });
  });

  test("spec 2: every field of every resource is in the document, with closed field sets", () => {
    const fields = (name: string) => Object.keys(doc.components.schemas[name].properties).sort();
    expect(fields("Project")).toEqual(["base_language_code", "created_at", "id", "name"]);
    expect(fields("ReleaseSummary")).toEqual(["created_at", "id", "name", "published_at", "status", "tag"]);
    expect(fields("ReleaseDetail")).toEqual(["created_at", "id", "languages", "name", "published_at", "status", "tag"]);
    expect(fields("ReleaseLanguage")).toEqual(["code", "download_urls", "is_base_language"]);
    expect(fields("PageInfo")).toEqual(["page", "page_size", "total_count", "total_pages"]);
    expect(fields("ProjectLanguage")).toEqual(["code", "created_at", "is_base_language", "name"]);
    for (const [name, s] of Object.entries<any>(doc.components.schemas)) expect(s.additionalProperties, name).toBe(false);
  });

  test("issue 4: live answers of every endpoint match the document's schemas", async () => {
    const pid = await f.dash.project("Docs", "en", ["fr"]);
    await f.dash.key(pid, "k", { en: "v" });
    const token = await newToken(f.dash, pid);
    const rid = await published(f.dash, pid, "One", "v1");
    const api = new ApiClient(f.server.url);
    for (const path of ["/v1/projects", "/v1/releases", `/v1/releases/${rid}`, "/v1/releases/rel_missing", "/v1/project-languages", "/v1/releases?page=0"]) {
      await api.get(path, token);
    }
    await api.get("/v1/releases", null);
    await api.get("/v1/releases", "pb_not_a_real_token");
    expect(api.checked).toBe(8);
    // And the validator really rejects what the document forbids.
    const validate = (await api.validatorFor("/v1/releases", 200))!;
    expect(validate({ items: [], page_info: { total_count: 0, page: 1, page_size: 20, total_pages: 0 } })).toBe(true);
    expect(validate({ items: [], page_info: { total_count: 0, page: 1, page_size: 20, total_pages: 0, next: 2 } })).toBe(false);
    expect(validate({ items: [{ id: "r", name: "n", tag: "t", status: "draft", published_at: "2020-01-01T00:00:00.000Z", created_at: "2020-01-01T00:00:00.000Z" }], page_info: { total_count: 1, page: 1, page_size: 20, total_pages: 1 } })).toBe(false);
    expect(validate({ items: [], page_info: { total_count: "0", page: 1, page_size: 20, total_pages: 0 } })).toBe(false);
    const detail = (await api.validatorFor("/v1/releases/x", 200))!;
    expect(detail({ id: "r", name: "n", tag: "t", status: "published", published_at: "2020-01-01T00:00:00.000+01:00", created_at: "2020-01-01T00:00:00.000Z", languages: [] })).toBe(false);
  });
});

describe("CONTRACTS 2: the browsable reference at /v1/docs", () => {
  test("CONTRACTS 2: /v1/docs is one self-contained page that names every endpoint and references nothing outside", async () => {
    const res = await fetch(`${f.server.url}/v1/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await res.text();
    for (const path of Object.keys(doc.paths)) expect(html).toContain(path.replace(/[{}]/g, (c) => c));
    for (const schema of Object.keys(doc.components.schemas)) expect(html).toContain(`id="schema-${schema}"`);
    expect(html).toContain("1234 requests per fixed 60-second window");
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(|\bsrc=/i);
    expect(html).toContain('href="openapi.json"');
  });

  test("CONTRACTS 2: a browser showing /v1/docs makes no request beyond the page itself", async () => {
    const b = await launchBrowser();
    try {
      const { page, problems, context } = await openPage(b, f.server);
      const requests: string[] = [];
      page.on("request", (r) => requests.push(r.url()));
      await page.goto("/v1/docs");
      await page.getByRole("heading", { name: "Phrasebook public API v1" }).waitFor();
      expect(await page.getByText("GET /releases/{release_id}").count()).toBeGreaterThan(0);
      expect(requests.filter((u) => !u.endsWith("/favicon.ico"))).toEqual([`${f.server.url}/v1/docs`]);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await b.close();
    }
  }, 60_000);
});
