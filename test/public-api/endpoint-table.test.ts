/**
 * docs/architecture.md "Adding a public API endpoint": the endpoints are the rows of one table
 * (src/public-api/endpoints.ts), and what the table guarantees for every row, whichever it is:
 * - it is reachable both ways, before the router (the fast path) and through its route, with the
 *   same answer byte for byte and header for header (docs/public-api.md "Speed"), hit or miss;
 * - the OpenAPI document lists exactly the rows, each with its schemas and description;
 * - any other method on its path is a 405 with Allow: GET, and any other path under /v1 a 404,
 *   whatever the method (interface §4, §7 rule 5).
 * A row with a path parameter needs sample values here (`SAMPLES`): a new parameter fails the
 * first test until it has some.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ENDPOINTS, type Endpoint } from "../../src/public-api/endpoints.ts";
import { ManualClock, ORIGIN } from "../helpers/app.ts";
import { appFixture, draft, newToken, published, type AppFixture } from "./api-client.ts";

const clock = new ManualClock();
let f: AppFixture;
let fastToken: string;
let routerToken: string;
/** Calls of the router made by `app.handle` (the fast path makes none). */
let routerCalls = 0;
let viaRouter: (request: Request) => Promise<Response>;
/** Values of each path parameter to try, by name: real ones and escapes the router decodes. */
const SAMPLES: Record<string, string[]> = {};

beforeAll(async () => {
  f = await appFixture({ clock, env: { PHRASEBOOK_RATE_LIMIT: "100000" } });
  const pid = await f.dash.project("Shop", "en", ["de"]);
  await f.dash.key(pid, "k", { en: "v", de: "w" });
  const releaseId = await published(f.dash, pid, "Straße", "v1");
  const draftId = await draft(f.dash, pid, "Draft", "d1");
  SAMPLES.release_id = [releaseId, draftId, "rel_unknown", "%ZZ", "a%20b", "a%2Fb", "%25", "%ED%A0%80", "%C0%AF", "%E2%82", "%F0%9F%98%80", releaseId.replace(/^r/, "%72")];
  fastToken = await newToken(f.dash, pid, "fast");
  routerToken = await newToken(f.dash, pid, "router");
  const routes = f.t.app.routes as unknown as { handle: (request: Request) => Promise<Response> };
  const original = routes.handle;
  viaRouter = (request) => original(request);
  routes.handle = (request) => {
    routerCalls++;
    return original(request);
  };
});

afterAll(() => f?.t.close());

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

async function read(res: Response): Promise<Answer> {
  return { status: res.status, headers: [...res.headers], body: await res.text() };
}

/** Every concrete path of a row: its pattern with each sample of each parameter. */
function pathsOf(endpoint: Endpoint): string[] {
  let paths = [endpoint.path];
  for (const [, name] of endpoint.path.matchAll(/:([A-Za-z_]+)/g)) {
    const samples = SAMPLES[name!];
    if (samples === undefined) throw new Error(`no sample values for the path parameter ${name} of ${endpoint.path}`);
    paths = paths.flatMap((p) => samples.map((s) => p.replace(`:${name}`, s)));
  }
  return paths;
}

/**
 * The app's answer to one request and the router's to the same request, with whether the app went
 * to the router. `routerTarget` (default the same) lets the router's request be a cache entry of
 * its own: the response cache is shared by the project's tokens.
 */
async function both(target: string, init: RequestInit = {}, tokens = [fastToken, routerToken], routerTarget = target) {
  const request = (path: string, token: string) => new Request(ORIGIN + path, { ...init, headers: { authorization: `Bearer ${token}` } });
  const before = routerCalls;
  const fast = await read(await f.t.app.handle(request(target, tokens[0]!), () => "127.0.0.1"));
  const routed = routerCalls > before;
  const router = await read(await viaRouter(request(routerTarget, tokens[1]!)));
  return { fast, router, routed };
}

describe("architecture: every row of the endpoint table is answered alike before the router and through it", () => {
  test("a miss, then a hit: the fast path never calls the router, and its answers equal the router's", async () => {
    let count = 0;
    for (const endpoint of ENDPOINTS) {
      for (const path of pathsOf(endpoint)) {
        // Each side its own cache entry (an unknown parameter changes no answer, only the key).
        const [fastTarget, routerTarget] = [`${path}?n=${count}&by=app`, `${path}?n=${count}&by=router`];
        count++;
        for (const cache of ["miss", "hit"]) {
          const { fast, router, routed } = await both(fastTarget, {}, undefined, routerTarget);
          expect(routed, `${cache} ${path}`).toBe(false);
          expect(fast, `${cache} ${path}`).toEqual(router);
          expect(new Map(fast.headers).get("x-cache"), `${cache} ${path}`).toBe(cache);
        }
      }
    }
    expect(count).toBe(3 + SAMPLES.release_id!.length);
  });

  test("the answers were the real ones: each row's own", async () => {
    const statuses = new Map<string, number[]>();
    for (const endpoint of ENDPOINTS) {
      const got: number[] = [];
      for (const path of pathsOf(endpoint)) got.push((await both(`${path}?real=1`)).fast.status);
      statuses.set(endpoint.path, got);
    }
    expect(statuses.get("/v1/projects")).toEqual([200]);
    expect(statuses.get("/v1/releases")).toEqual([200]);
    expect(statuses.get("/v1/project-languages")).toEqual([200]);
    // The published release and its id written with escapes; every other sample names none.
    const release = statuses.get("/v1/releases/:release_id")!;
    expect(release.filter((s) => s === 200)).toHaveLength(2);
    expect(release.filter((s) => s === 404)).toHaveLength(SAMPLES.release_id!.length - 2);
  });

  test("a path with a trailing slash is no row's: a 404 both ways", async () => {
    for (const endpoint of ENDPOINTS) {
      for (const path of pathsOf(endpoint)) {
        const { fast, router, routed } = await both(`${path}/`);
        expect(routed, path).toBe(true);
        expect(fast.status, path).toBe(404);
        expect(fast, path).toEqual(router);
        expect(JSON.parse(fast.body)).toEqual({ error: "not found" });
      }
    }
  });
});

describe("interface §9 rule 4: the OpenAPI document lists exactly the rows", () => {
  test("one GET operation per row, with the row's description, parameters and answers", async () => {
    const doc = await (await f.t.fetch("/v1/openapi.json")).json();
    const documented = (path: string) => path.replace(/^\/v1/, "").replace(/:([A-Za-z_]+)/g, "{$1}");
    expect(Object.keys(doc.paths)).toEqual(ENDPOINTS.map((e) => documented(e.path)));
    for (const endpoint of ENDPOINTS) {
      const item = doc.paths[documented(endpoint.path)];
      expect(Object.keys(item)).toEqual(["get"]);
      const { operationId, summary, description, parameters = [], responses } = item.get;
      expect({ operationId, summary, description }).toEqual(endpoint.detail);
      expect(parameters.filter((p: { in: string }) => p.in === "query").map((p: { name: string }) => p.name)).toEqual(Object.keys(endpoint.query?.properties ?? {}));
      expect(parameters.filter((p: { in: string }) => p.in === "path").map((p: { name: string }) => p.name)).toEqual(Object.keys(endpoint.params?.properties ?? {}));
      expect(Object.keys(responses)).toEqual(["200", "401", "403", "429", ...Object.keys(endpoint.errors ?? {})].sort());
      expect(responses["200"].content["application/json"].schema).toEqual({ $ref: `#/components/schemas/${endpoint.ok}` });
      for (const [status, error] of Object.entries(endpoint.errors ?? {})) {
        expect(responses[status].description).toBe(error.description);
        expect(responses[status].content["application/json"].schema.examples).toEqual([{ error: error.example }]);
      }
    }
  });

  test("the document is made on its first request and is the same whatever was asked before it", async () => {
    const first = await appFixture({ env: { PHRASEBOOK_RATE_LIMIT: "100000" } });
    try {
      // Here it is asked for first; in `f` after every row was answered both ways, HEADs and 405s.
      const early = await (await first.t.fetch("/v1/openapi.json")).text();
      const late = await (await f.t.fetch("/v1/openapi.json")).text();
      expect(late).toBe(early);
      expect(JSON.parse(late).paths["/releases"]).toBeDefined();
    } finally {
      await first.t.close();
    }
  });
});

describe("interface §4, §7 rule 5: GET only, on every row", () => {
  test("any other method on a row's path is 405 with Allow: GET and the quota headers, spends nothing and caches nothing", async () => {
    const token = await newToken(f.dash, (await f.dash.get("/projects")).body.items[0].id, "methods");
    for (const endpoint of ENDPOINTS) {
      for (const path of pathsOf(endpoint)) {
        for (const method of ["HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
          const { fast, router } = await both(`${path}?method=1`, { method }, [token, token]);
          expect(fast.status, `${method} ${path}`).toBe(405);
          expect(fast, `${method} ${path}`).toEqual(router);
          const headers = new Map(fast.headers);
          expect(headers.get("allow")).toBe("GET");
          expect(headers.get("x-ratelimit-limit")).toBe("100000");
          if (method !== "HEAD") expect(JSON.parse(fast.body)).toEqual({ error: "method not allowed: the API is read-only" });
        }
        const get = await f.t.fetch(`${path}?method=1`, { headers: { authorization: `Bearer ${token}` } });
        expect(get.headers.get("x-cache"), path).toBe("miss");
      }
    }
    const spent = await f.t.fetch("/v1/projects?spent=1", { headers: { authorization: `Bearer ${token}` } });
    expect(spent.headers.get("x-ratelimit-remaining")).toBe(String(100000 - 3 - SAMPLES.release_id!.length - 1));
  });

  test("on a path that is no row's, every method is a 404", async () => {
    for (const path of ["/v1/nothing", "/v1/releases/a/b", "/v1/releases/", "/v1/projects/", "/v1/Projects", "/v1/pro%6Aects", "/v1/"]) {
      for (const method of ["GET", "HEAD", "POST", "DELETE"]) {
        const { fast, router } = await both(path, { method });
        expect(fast.status, `${method} ${path}`).toBe(404);
        expect(fast, `${method} ${path}`).toEqual(router);
      }
    }
  });
});
