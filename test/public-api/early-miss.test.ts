/**
 * docs/public-api.md "Speed": a cache miss of the four endpoints with a valid token is answered
 * before the router (`PublicApi.miss`, src/app.ts), but only when its input passes the `t` schema
 * its route declares; anything else goes through the router unchanged. Here every answer of the
 * app (fast path) is compared with the router's own answer to the same request (`app.routes`):
 * status, every header, every byte. Two tokens of one project, one per path, so their quotas move
 * alike; the response cache is off, so every request is a miss.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock, ORIGIN } from "../helpers/app.ts";
import { appFixture, newToken, published, type AppFixture } from "./api-client.ts";

const clock = new ManualClock();
let f: AppFixture;
let fastToken: string;
let routerToken: string;
let releaseId: string;
/** Calls of the router made by `app.handle` (the fast path makes none). */
let routerCalls = 0;
let viaRouter: (request: Request) => Promise<Response>;

beforeAll(async () => {
  f = await appFixture({ clock, env: { PHRASEBOOK_API_CACHE_TTL: "0" } });
  const pid = await f.dash.project("Shop", "en", ["de"]);
  await f.dash.key(pid, "k", { en: "v", de: "w" });
  const names = ["Straße", "ÄPFEL", "winter sale", "Summer", "summer 2", "Zebra", "apple", "Ωmega", "beta", "Gamma"];
  for (let i = 0; i < 24; i++) {
    const rid = await published(f.dash, pid, `${names[i % names.length]} ${i}`, `v${i}`);
    releaseId ??= rid;
    clock.advance(1000);
  }
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

afterAll(async () => {
  // The last test closes the database under the app: closing it again may fail, and need not succeed.
  await f?.t.close().catch(() => undefined);
});

interface Answer {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}

async function read(res: Response): Promise<Answer> {
  return { status: res.status, headers: [...res.headers], body: new Uint8Array(await res.arrayBuffer()) };
}

/** The app's answer (with whether it went through the router) and the router's, to one request each. */
async function both(pathAndQuery: string): Promise<{ fast: Answer; router: Answer; routed: boolean }> {
  const before = routerCalls;
  const fast = await read(await f.t.app.handle(new Request(ORIGIN + pathAndQuery, { headers: { authorization: `Bearer ${fastToken}` } }), () => "127.0.0.1"));
  const routed = routerCalls > before;
  const router = await read(await viaRouter(new Request(ORIGIN + pathAndQuery, { headers: { authorization: `Bearer ${routerToken}` } })));
  return { fast, router, routed };
}

const remaining = (a: Answer) => Number(new Map(a.headers).get("x-ratelimit-remaining"));

// Inputs that pass the routes' schemas: answered before the router, valid or not by the rules of
// docs/public-api.md "Listing releases" (a bad page is still a string: the 400 is the service's).
const ANSWERED_EARLY = [
  "/v1/projects",
  "/v1/projects?x=1",
  "/v1/project-languages",
  "/v1/releases",
  "/v1/releases?sort=name",
  "/v1/releases?sort=name&order=asc&page=2&page_size=5",
  "/v1/releases?sort=TAG&order=ASC",
  "/v1/releases?sort=published_at&page=3&page_size=7",
  "/v1/releases?sort=bogus&order=sideways",
  "/v1/releases?page=99999999999999999999999",
  "/v1/releases?page_size=1000",
  "/v1/releases?page=&page_size=",
  "/v1/releases?search=STRASSE",
  "/v1/releases?search=%C3%A4pfel&sort=name",
  "/v1/releases?search=summer+2",
  "/v1/releases?search=%ZZ",
  "/v1/releases?search=[1,2]",
  "/v1/releases?search=a,b",
  "/v1/releases?page=0",
  "/v1/releases?page=1.5",
  "/v1/releases?page_size=-1",
  "/v1/releases?page=%ZZ",
  "/v1/releases?pa%67e=2",
  "/v1/releases?unknown=1&unknown=2",
  "/v1/releases?__proto__=1",
  "/v1/releases?&&=&a",
  "/v1/releases/rel_unknown",
  "/v1/releases/%ZZ",
  "/v1/releases/a%20b",
];

// Inputs the router judges itself (a repeated parameter the schema names is an array, not a
// string): they must reach it, whatever it then answers.
const LEFT_TO_THE_ROUTER = [
  "/v1/releases?sort=name&sort=tag",
  "/v1/releases?order=asc&order=asc",
  "/v1/releases?page=1&page=2",
  "/v1/releases?search=a&search=b",
  "/v1/releases?page_size=5&pag%65_size=6",
];

describe("docs/public-api.md Speed: misses answered before the router", () => {
  test("an input that passes the route's schema is answered before the router, byte for byte as the router answers it", async () => {
    for (const path of [...ANSWERED_EARLY, `/v1/releases/${releaseId}`]) {
      const { fast, router, routed } = await both(path);
      expect(routed, path).toBe(false);
      expect(fast.status, path).toBe(router.status);
      expect(fast.headers, path).toEqual(router.headers);
      expect(fast.body, path).toEqual(router.body);
    }
  });

  test("an input the schema does not pass goes through the router, and gets its answer", async () => {
    for (const path of LEFT_TO_THE_ROUTER) {
      const { fast, router, routed } = await both(path);
      expect(routed, path).toBe(true);
      expect(fast.status, path).toBe(router.status);
      expect(fast.headers, path).toEqual(router.headers);
      expect(fast.body, path).toEqual(router.body);
    }
  });

  test("the answers were real: lists, a release, errors", async () => {
    const list = await both("/v1/releases?sort=name&order=asc&page_size=3");
    expect(JSON.parse(new TextDecoder().decode(list.fast.body)).items.map((r: { name: string }) => r.name)).toEqual(["apple 16", "apple 6", "beta 18"]);
    expect((await both(`/v1/releases/${releaseId}`)).fast.status).toBe(200);
    expect((await both("/v1/releases/rel_unknown")).fast.status).toBe(404);
    expect((await both("/v1/releases?page=0")).fast.status).toBe(400);
  });

  test("interface §8: a miss answered before the router spends exactly one request of the quota, an error too", async () => {
    let last = remaining((await both("/v1/releases")).fast);
    for (const path of ["/v1/releases?sort=name", "/v1/releases/rel_unknown", "/v1/releases?page=0", "/v1/projects", "/v1/releases?sort=a&sort=b"]) {
      const { fast, router } = await both(path);
      expect(remaining(fast), path).toBe(last - 1);
      expect(remaining(router), path).toBe(last - 1);
      last = remaining(fast);
    }
  });

  test("a HEAD, another method, a missing or invalid token are never answered before the router", async () => {
    const cases: [string, RequestInit][] = [
      ["/v1/releases", { method: "HEAD", headers: { authorization: `Bearer ${fastToken}` } }],
      ["/v1/releases", { method: "POST", headers: { authorization: `Bearer ${fastToken}` } }],
      ["/v1/releases", {}],
      ["/v1/releases", { headers: { authorization: "Bearer pb_nope" } }],
      ["/v1/releases/", { headers: { authorization: `Bearer ${fastToken}` } }],
      ["/v1/openapi.json", { headers: { authorization: `Bearer ${fastToken}` } }],
    ];
    for (const [path, init] of cases) {
      const before = routerCalls;
      await f.t.app.handle(new Request(ORIGIN + path, init), () => "127.0.0.1");
      expect(routerCalls, `${init.method ?? "GET"} ${path}`).toBe(before + 1);
    }
  });

  // Last: it closes the database under the app.
  test("architecture Errors: a failure while answering before the router gets the router's own answer, a 500 without the cause", async () => {
    // A release whose detail was never asked for, so its languages must be read from the database...
    const [{ public_id }] = f.t.query<{ public_id: string }>("SELECT public_id FROM releases WHERE public_id <> ? AND status = 'published' LIMIT 1", releaseId);
    f.t.deps.db.$client.close(); // ...which no longer answers
    const path = `/v1/releases/${public_id}`;
    const before = routerCalls;
    const fast = await read(await f.t.app.handle(new Request(ORIGIN + path, { headers: { authorization: `Bearer ${fastToken}` } }), () => "127.0.0.1"));
    expect(routerCalls).toBe(before);
    const router = await read(await viaRouter(new Request(ORIGIN + path, { headers: { authorization: `Bearer ${routerToken}` } })));
    expect(fast.status).toBe(500);
    expect(fast.status).toBe(router.status);
    expect(fast.headers).toEqual(router.headers);
    expect(fast.body).toEqual(router.body);
  });
});
