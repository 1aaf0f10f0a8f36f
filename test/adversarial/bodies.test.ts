/**
 * Hostile bodies: JSON nested 100,000 deep, a billion-laughs YAML and a 4 MB nested array, sent to
 * `/login` without signing in, were once 500s (validation recursed through the whole stack), and
 * bodies up to 16 MB were read and parsed before the session was checked.
 *
 * Every route of the dashboard API (taken from the app itself, so a new route is swept too) gets
 * every hostile body as an anonymous caller, a member and an admin: the answer is a 4xx with
 * {"error"}, never a 5xx, and it comes from the body guard or from authentication, before any
 * route's validation sees the body (where a deep value once took seconds and then overflowed). Bodies over a route's limit are refused without being read, and the
 * import route reads its large bodies only for a caller already authenticated
 * (docs/dashboard-api.md "Conventions", docs/deploy.md "Security notes").
 */
import { afterAll, describe, expect, test } from "bun:test";
import { BODY_MAX_BYTES, BODY_MAX_DEPTH, IMPORT_BODY_MAX_BYTES, SIGN_IN_BODY_MAX_BYTES } from "../../src/dashboard-api/guards.ts";
import { ORIGIN } from "../helpers/app.ts";
import { openWorld, type WorldApp } from "../helpers/scenario.ts";
import { dashboardRoutes } from "../dashboard-api/routes.ts";
import { pathWithIds, standardWorld } from "../dashboard-api/world.ts";

const deepObject = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
const deepArray = (n: number) => "[".repeat(n) + "]".repeat(n);
const BILLION_LAUGHS = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ..."bcdefghi".split("").map((c, i) => `${c}: &${c} [${Array(9).fill("*" + "abcdefghi"[i]).join(",")}]`)].join("\n");

/** Hostile bodies, each with the content type it is sent with. */
const HOSTILE: { name: string; type: string; body: () => string }[] = [
  { name: "JSON nested 100,000 deep", type: "application/json", body: () => deepObject(100_000) },
  { name: "an array nested 100,000 deep", type: "application/json", body: () => deepArray(100_000) },
  { name: "a field holding an array nested 50,000 deep", type: "application/json", body: () => `{"email":${deepArray(50_000)},"password":"x","name":"x","key":"x"}` },
  { name: "a field holding an object nested 50,000 deep", type: "application/json", body: () => `{"email":"a@b.c","password":${deepObject(50_000)},"value":${deepObject(50_000)}}` },
  { name: "JSON one level deeper than the limit", type: "application/json", body: () => deepArray(BODY_MAX_DEPTH + 1) },
  { name: "a billion-laughs YAML", type: "application/yaml", body: () => BILLION_LAUGHS },
  { name: "a 4 MB nested array", type: "application/json", body: () => deepArray(2 * 1024 * 1024) },
];

const w: WorldApp = await openWorld(standardWorld);
afterAll(() => w.close());
const routes = (await dashboardRoutes(w.t.app)).filter((r) => r.method !== "GET");
const memo = new Map<string, string>();
const bodyOf = (h: (typeof HOSTILE)[number]) => memo.get(h.name) ?? (memo.set(h.name, h.body()), memo.get(h.name)!);

function headersFor(who: "anonymous" | "member" | "admin", type: string): Record<string, string> {
  const headers: Record<string, string> = { "content-type": type };
  const client = who === "anonymous" ? undefined : w.as(who);
  if (client) Object.assign(headers, { cookie: client.cookie, "x-csrf-token": client.csrf });
  return headers;
}

async function send(method: string, path: string, headers: Record<string, string>, body: BodyInit) {
  const res = await w.t.app.handle(new Request(ORIGIN + "/dashboard/api" + path, { method, headers, body, duplex: "half" } as RequestInit), () => "127.0.0.1");
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

/**
 * Whether an answer is one the dashboard API gives before a route sees the body: the body guard's
 * (guards.ts: 400 for nesting, 413 for size, 415 for the content type) or authentication's (401,
 * 403). A route's own validation answers differently ("invalid field ...").
 */
function refusedBeforeAnyRoute(r: { status: number; json: any }): boolean {
  const error: string = r.json?.error ?? "";
  switch (r.status) {
    case 400:
      return error === `request body nests deeper than ${BODY_MAX_DEPTH} levels`;
    case 413:
      return /^request body is larger than \d+ [KM]B, the limit of this route$/.test(error);
    case 415:
      // JSON, or for a file route the types it takes (a TMX memory, a CSV glossary, an image).
      return error.startsWith("request body must be ");
    case 401:
    case 403:
      return error !== "";
    default:
      return false;
  }
}

/** A body of `bytes` made as it is read, counting how much of it was read. */
function countedStream(bytes: number, chunk = 64 * 1024) {
  const counter = { read: 0 };
  const piece = new TextEncoder().encode("[".repeat(chunk));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.read >= bytes) return controller.close();
      counter.read += piece.byteLength;
      controller.enqueue(piece);
    },
  });
  return { stream, counter };
}

describe("dashboard-api.md Conventions: hostile bodies on every route are a 4xx, never a 5xx, signed in or not", () => {
  test("the sweep covers every route that changes something", () => {
    expect(routes.length).toBeGreaterThanOrEqual(25);
  });
  for (const route of routes) {
    test(`${route.method} ${route.path}`, async () => {
      const path = pathWithIds(route.path, w.ids);
      for (const who of ["anonymous", "member", "admin"] as const) {
        for (const h of HOSTILE) {
          const r = await send(route.method, path, headersFor(who, h.type), bodyOf(h));
          const what = `${who}, ${h.name}: ${r.status} ${JSON.stringify(r.json).slice(0, 120)}`;
          expect(r.status, what).toBeGreaterThanOrEqual(400);
          expect(r.status, what).toBeLessThan(500);
          expect(typeof r.json?.error, what).toBe("string");
          // Not timed (a deep password once took 8 s in validation): ordered, never validated at all.
          expect(refusedBeforeAnyRoute(r), what).toBe(true);
        }
      }
    }, 120_000);
  }

  test("every GET route with a hostile query string: nested brackets, repeats, 100 KB values", async () => {
    const queries = [
      "?" + "a" + "[a]".repeat(10_000) + "=1",
      "?" + Array.from({ length: 10_000 }, (_, i) => `page=${i}`).join("&"),
      "?search=" + "%F0%9F%98%80".repeat(20_000),
      "?search=%ZZ%00%C0%AF&limit=-1&page_size=1e400&status[]=missing&languages[]=en",
      "?__proto__[admin]=1&constructor[prototype][x]=1",
    ];
    for (const route of (await dashboardRoutes(w.t.app)).filter((r) => r.method === "GET")) {
      for (const who of ["anonymous", "member"] as const) {
        for (const query of queries) {
          const client = who === "anonymous" ? undefined : w.as(who);
          const res = await w.t.app.handle(new Request(ORIGIN + "/dashboard/api" + pathWithIds(route.path, w.ids) + query, { headers: client ? { cookie: client.cookie } : {} }), () => "127.0.0.1");
          const what = `${who} GET ${route.path}${query.slice(0, 40)}: ${res.status}`;
          expect(res.status, what).toBeLessThan(500);
          if (res.status >= 400) expect(typeof ((await res.json()) as { error?: unknown }).error, what).toBe("string");
        }
      }
    }
  }, 120_000);

  test("hostile bodies to every path outside the dashboard API (public API, CDN, pages, health, metrics) are never a 5xx", async () => {
    for (const path of ["/v1/releases", "/v1/projects", "/v1/openapi.json", "/cdn/p/x/r/latest/en.json", "/dashboard", "/dashboard/login", "/", "/healthz", "/metrics", "/nowhere"]) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
        for (const h of HOSTILE) {
          const res = await w.t.app.handle(new Request(ORIGIN + path, { method, headers: { "content-type": h.type }, body: bodyOf(h) }), () => "127.0.0.1");
          expect(res.status, `${method} ${path} ${h.name}`).toBeLessThan(500);
        }
      }
    }
  });

  test("each refusal names what is wrong", async () => {
    const admin = headersFor("admin", "application/json");
    const deep = await send("POST", "/login", { "content-type": "application/json" }, deepObject(2_000));
    expect(deep).toMatchObject({ status: 400, json: { error: `request body nests deeper than ${BODY_MAX_DEPTH} levels` } });
    const yaml = await send("POST", "/login", { "content-type": "application/yaml" }, BILLION_LAUGHS);
    expect(yaml).toMatchObject({ status: 415, json: { error: "request body must be JSON (Content-Type: application/json), not application/yaml" } });
    const big = await send("POST", "/login", { "content-type": "application/json" }, deepArray(2 * 1024 * 1024));
    expect(big).toMatchObject({ status: 413, json: { error: `request body is larger than ${SIGN_IN_BODY_MAX_BYTES / 1024} KB, the limit of this route` } });
    const huge = await send("POST", "/projects", admin, deepArray(2 * 1024 * 1024));
    expect(huge).toMatchObject({ status: 413, json: { error: `request body is larger than ${BODY_MAX_BYTES / 1024 / 1024} MB, the limit of this route` } });
    const bad = await send("POST", "/projects", admin, new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) as unknown as BodyInit);
    expect(bad).toMatchObject({ status: 400, json: { error: "request body is not valid UTF-8" } });
  });

  test("a lone surrogate escape (\\ud800) anywhere in a body is a 400 naming where, and nothing is stored (it was stored as U+FFFD while the reply and the event said otherwise)", async () => {
    const admin = headersFor("admin", "application/json");
    const path = pathWithIds("/projects/:pid/keys/:plainKeyId/translations/de", w.ids);
    const before = w.t.query("SELECT value FROM translations t JOIN translation_keys k ON k.id = t.key_id WHERE k.public_id = ?", w.ids.plainKeyId!);
    const put = await send("PUT", path, admin, '{"value":"Kasse \\ud800!"}');
    expect(put).toMatchObject({ status: 400, json: { error: "request body is not valid Unicode: value holds a lone UTF-16 surrogate (a \\ud800 to \\udfff escape without its pair)" } });
    expect(w.t.query("SELECT value FROM translations t JOIN translation_keys k ON k.id = t.key_id WHERE k.public_id = ?", w.ids.plainKeyId!)).toEqual(before);
    const nested = await send("POST", "/projects", admin, '{"name":"P","base_language_code":"en","x":[{"y":"\\udc00"}]}');
    expect(nested).toMatchObject({ status: 400, json: { error: expect.stringContaining("x[0].y holds a lone UTF-16 surrogate") } });
    const named = await send("POST", "/projects", admin, '{"name":"P","base_language_code":"en","\\ud800":1}');
    expect(named.status).toBe(400);
    // A pair is one character, and an escaped backslash is no escape: both taken.
    const pair = await send("PUT", path, admin, '{"value":"Kasse \\ud83d\\ude00 \\\\ud800"}');
    expect(pair.status, JSON.stringify(pair.json)).toBe(200);
    expect(pair.json.value).toBe("Kasse \u{1F600} \\ud800");
  });

  test("bodies at the limits are taken: nesting just at BODY_MAX_DEPTH, and the largest translation value escaped as JSON", async () => {
    const admin = headersFor("admin", "application/json");
    const atDepth = await send("POST", "/projects", admin, `{"name":"Deep","base_language_code":"en","x":${deepArray(BODY_MAX_DEPTH - 1)}}`);
    expect(atDepth.status).toBe(201);
    // The longest escapes a value may hold: control characters XML 1.0 forbids are refused
    // (docs/formats.md "Markup in values"), so 100,000 quotes are 200,000 bytes of \\" escapes.
    const value = '"'.repeat(100_000);
    const put = await send("PUT", pathWithIds("/projects/:pid/keys/:plainKeyId/translations/de", w.ids), admin, JSON.stringify({ value }));
    expect(put.status, JSON.stringify(put.json).slice(0, 200)).toBe(200);
  });
});

describe("deploy.md Security notes, limits table: large bodies are refused before anyone reads them", () => {
  test("an anonymous 20 MB body to a route that needs a session is 401 before any of it is read", async () => {
    const { stream, counter } = countedStream(20 * 1024 * 1024);
    const r = await send("POST", "/projects", { "content-type": "application/json" }, stream);
    expect(r).toMatchObject({ status: 401, json: { error: "not logged in" } });
    expect(counter.read).toBeLessThanOrEqual(64 * 1024); // the stream's own read-ahead, nothing consumed
  });

  test("a signed-in 20 MB body to a route that takes 1 MB is 413 after at most the limit is read", async () => {
    const { stream, counter } = countedStream(20 * 1024 * 1024);
    const r = await send("POST", "/projects", headersFor("admin", "application/json"), stream);
    expect(r.status).toBe(413);
    expect(counter.read).toBeLessThanOrEqual(BODY_MAX_BYTES + 3 * 64 * 1024);
  });

  test("a declared Content-Length over the limit is 413 before a byte is read", async () => {
    const { stream, counter } = countedStream(20 * 1024 * 1024);
    const r = await send("POST", "/projects", { "content-type": "application/json", "content-length": String(20 * 1024 * 1024) }, stream);
    expect(r.status).toBe(413);
    expect(counter.read).toBeLessThanOrEqual(64 * 1024); // the stream's own read-ahead, nothing consumed
  });

  test("sign-in bodies are limited to a few KB", async () => {
    const { stream, counter } = countedStream(1024 * 1024);
    const r = await send("POST", "/login", { "content-type": "application/json" }, stream);
    expect(r.status).toBe(413);
    expect(counter.read).toBeLessThanOrEqual(SIGN_IN_BODY_MAX_BYTES + 3 * 64 * 1024);
  });

  test("the import route reads a large body only once the caller is authenticated", async () => {
    const path = pathWithIds("/projects/:pid/import", w.ids);
    const anonymous = countedStream(8 * 1024 * 1024);
    const refused = await send("POST", path, { "content-type": "application/json" }, anonymous.stream);
    expect(refused).toMatchObject({ status: 401, json: { error: "not logged in" } });
    expect(anonymous.counter.read).toBeLessThanOrEqual(64 * 1024); // nothing consumed before the 401
    const withoutCsrf = countedStream(8 * 1024 * 1024);
    const member = w.as("member");
    const forbidden = await send("POST", path, { "content-type": "application/json", cookie: member.cookie }, withoutCsrf.stream);
    expect(forbidden.status).toBe(403);
    expect(withoutCsrf.counter.read).toBeLessThanOrEqual(64 * 1024);
    // Signed in, a body above the small limit is read (and then judged by the import's own bounds).
    const content = JSON.stringify(Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`bulk.key_${i}`, `value ${i} `.padEnd(30, "x")])));
    const body = JSON.stringify({ language_code: "en", format: "json", content });
    expect(body.length).toBeGreaterThan(BODY_MAX_BYTES);
    const taken = await send("POST", path, headersFor("member", "application/json"), body);
    expect(taken.status, JSON.stringify(taken.json).slice(0, 200)).toBe(200);
    const over = countedStream(IMPORT_BODY_MAX_BYTES + 1024 * 1024);
    const tooBig = await send("POST", path, headersFor("member", "application/json"), over.stream);
    expect(tooBig.status).toBe(413);
    expect(over.counter.read).toBeLessThanOrEqual(IMPORT_BODY_MAX_BYTES + 3 * 64 * 1024);
  }, 60_000);
});
