/** interface §5, product §2: bearer tokens, against the app in-process (real SQLite, real routes). */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "../helpers/app.ts";
import { appFixture, newToken, type AppFixture } from "./api-client.ts";

const clock = new ManualClock();
let f: AppFixture;
let pid: string;
let token: string;

beforeAll(async () => {
  f = await appFixture({ clock });
  pid = await f.dash.project("Shop", "en");
  token = await newToken(f.dash, pid);
});

afterAll(async () => {
  await f?.t.close();
  expect(f.api.checked).toBeGreaterThan(0);
});

const ENDPOINTS = ["/v1/projects", "/v1/releases", "/v1/releases/rel_AAAAAAAAAAAAAAAAAAAA", "/v1/project-languages"];

describe("interface §5: authentication", () => {
  test("interface §5 rule 1: Authorization: Bearer <token> opens every endpoint (the scheme in any case)", async () => {
    for (const path of ENDPOINTS) {
      const r = await f.api.get(path, token);
      expect([200, 404]).toContain(r.status);
    }
    expect((await f.api.get("/v1/projects", null, { authorization: `bearer ${token}` })).status).toBe(200);
    expect((await f.api.get("/v1/projects", null, { authorization: `BEARER  ${token}` })).status).toBe(200);
  });

  test('interface §5 rule 5, product §2: no Authorization header is 401 {"error": "missing token"} on every endpoint', async () => {
    for (const path of ENDPOINTS) {
      const r = await f.api.get(path, null);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: "missing token" });
      expect(r.headers.get("www-authenticate")).toStartWith("Bearer");
    }
  });

  test('interface §5 rule 5, product §2: any other Authorization is 401 {"error": "invalid token"}', async () => {
    const bad = [
      "Bearer pb_" + "A".repeat(43),
      "Bearer " + token.slice(0, -1),
      "Bearer " + token + "x",
      "Bearer " + token.toUpperCase(),
      `Basic ${btoa(`user:${token}`)}`,
      token,
      "Bearer",
      "Bearer ",
      "",
      `Bearer ${token} extra`,
    ];
    for (const authorization of bad) {
      const r = await f.api.get("/v1/projects", null, { authorization });
      expect(r.status, JSON.stringify(authorization)).toBe(401);
      expect(r.body).toEqual({ error: "invalid token" });
    }
  });

  test("interface §5 rule 3: a token scoped to one project authenticates only there; its project decides every answer", async () => {
    const other = await f.dash.project("Other", "de");
    const otherToken = await newToken(f.dash, other);
    expect((await f.api.get("/v1/projects", otherToken)).body.items[0].id).toBe(other);
    expect((await f.api.get("/v1/projects", token)).body.items[0].id).toBe(pid);
  });

  test("interface §5 rule 3: a token issued by another deployment is never accepted", async () => {
    const elsewhere = await appFixture({ clock });
    try {
      const theirPid = await elsewhere.dash.project("Shop", "en");
      const theirToken = await newToken(elsewhere.dash, theirPid);
      expect((await elsewhere.api.get("/v1/projects", theirToken)).status).toBe(200);
      const r = await f.api.get("/v1/projects", theirToken);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ error: "invalid token" });
      expect((await elsewhere.api.get("/v1/projects", token)).status).toBe(401);
    } finally {
      await elsewhere.t.close();
    }
  });

  test("interface §5: a deleted token stops working at once", async () => {
    const created = await f.dash.post(`/projects/${pid}/tokens`, { name: "short-lived" });
    const value = created.body.token;
    expect((await f.api.get("/v1/projects", value)).status).toBe(200);
    expect((await f.dash.delete(`/projects/${pid}/tokens/${created.body.id}`)).status).toBe(204);
    const r = await f.api.get("/v1/projects", value);
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ error: "invalid token" });
  });

  // That the value never reaches the log is checked where the log is: test/ops/observability.test.ts.
  test("product §2: tokens are stored only as SHA-256; the value is nowhere in the database", async () => {
    const rows = f.t.query<{ token_hash: string }>("SELECT token_hash FROM api_tokens");
    const hash = new Bun.CryptoHasher("sha256").update(token).digest("hex");
    expect(rows.map((r) => r.token_hash)).toContain(hash);
    expect(JSON.stringify(f.t.query("SELECT * FROM api_tokens"))).not.toContain(token);
    expect(JSON.stringify(f.t.query("SELECT * FROM outbox_events"))).not.toContain(token);
  });

  test("a request costs no database write: last_used_at is set on first use, then at most once a minute", async () => {
    const created = await f.dash.post(`/projects/${pid}/tokens`, { name: "lazy" });
    const lastUsed = () => f.t.query<{ last_used_at: number | null }>("SELECT last_used_at FROM api_tokens WHERE public_id = ?", created.body.id)[0]!.last_used_at;
    expect(lastUsed()).toBeNull();
    const first = clock.now();
    expect((await f.api.get("/v1/releases?n=1", created.body.token)).status).toBe(200);
    expect(lastUsed()).toBe(first);
    for (let i = 2; i < 12; i++) {
      clock.advance(5_000); // 50 s of use in all
      expect((await f.api.get(`/v1/releases?n=${i}`, created.body.token)).status).toBe(200);
    }
    expect(lastUsed()).toBe(first);
    clock.set(first + 59_999);
    expect((await f.api.get("/v1/releases?n=12", created.body.token)).status).toBe(200);
    expect(lastUsed()).toBe(first);
    // A minute after the last write, the next request writes again.
    clock.set(first + 60_000);
    expect((await f.api.get("/v1/releases?n=13", created.body.token)).status).toBe(200);
    expect(lastUsed()).toBe(first + 60_000);
    // The dashboard shows it.
    const listed = (await f.dash.get(`/projects/${pid}/tokens`)).body.items.find((t: any) => t.id === created.body.id);
    expect(listed.last_used_at).toBe(new Date(first + 60_000).toISOString());
  });
});

describe("interface §4: the API is read-only, under /v1", () => {
  test("interface §4: a method other than GET is 405 with Allow: GET; an unknown path under /v1 is 404; both carry the quota headers", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const r = await f.api.request(method, "/v1/releases", token);
      expect(r.status).toBe(405);
      expect(r.headers.get("allow")).toBe("GET");
      expect(r.headers.get("x-ratelimit-limit")).toBe("600");
      expect(r.body).toEqual({ error: "method not allowed: the API is read-only" });
    }
    const r = await f.api.get("/v1/nothing-here", token);
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: "not found" });
  });

  test("interface §7 rule 5: HEAD is a method other than GET too: 405 on every endpoint, spending no quota and caching nothing", async () => {
    const headToken = await newToken(f.dash, pid, "head");
    for (const path of [...ENDPOINTS, "/v1/releases?head=1"]) {
      const r = await f.t.fetch(path, { method: "HEAD", headers: { authorization: `Bearer ${headToken}` } });
      expect(r.status, path).toBe(405);
      expect(r.headers.get("allow")).toBe("GET");
      expect(r.headers.get("x-ratelimit-limit")).toBe("600");
    }
    // Nothing was spent and nothing was cached: the first GET is a miss with the whole quota left but one.
    const get = await f.api.get("/v1/releases?head=1", headToken);
    expect(get.headers.get("x-cache")).toBe("miss");
    expect(get.headers.get("x-ratelimit-remaining")).toBe("599");
  });
});
