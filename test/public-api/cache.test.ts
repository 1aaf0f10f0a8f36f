/**
 * interface §4.2 rule 7, interface §8, product §2: the API response cache, against the app
 * in-process. The clock moves only when a test moves it, so quota comparisons never straddle a
 * window and entry lifetimes are checked to the millisecond.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ManualClock } from "../helpers/app.ts";
import { appFixture, newToken, published, type AppFixture } from "./api-client.ts";

const clock = new ManualClock();
let f: AppFixture;
let pid: string;
let token: string;

beforeAll(async () => {
  f = await appFixture({ clock });
  pid = await f.dash.project("Shop", "en", ["de"]);
  await f.dash.key(pid, "k", { en: "v" });
  token = await newToken(f.dash, pid);
});

afterAll(async () => {
  await f?.t.close();
  expect(f.api.checked).toBeGreaterThan(0);
});

const remaining = (h: Headers) => Number(h.get("x-ratelimit-remaining"));

/** Asks twice; returns whether the second answer was served from the cache (it cost no quota). */
async function secondIsCached(path: string, t = token): Promise<boolean> {
  const first = await f.api.get(path, t);
  const second = await f.api.get(path, t);
  expect(second.text).toBe(first.text);
  return remaining(second.headers) === remaining(first.headers);
}

describe("interface §4.2 rule 7: cached answers", () => {
  test("interface §4.2 rule 7: a repeated request is answered from the cache and costs no quota, on every endpoint", async () => {
    const rid = await published(f.dash, pid, "One", "v1");
    for (const path of ["/v1/projects", "/v1/releases?page_size=7", `/v1/releases/${rid}`, "/v1/releases/rel_missing", "/v1/project-languages"]) {
      const first = await f.api.get(path, token);
      expect(first.headers.get("x-cache")).toBe("miss");
      const second = await f.api.get(path, token);
      expect(second.status).toBe(first.status);
      expect(second.text).toBe(first.text);
      expect(remaining(second.headers), path).toBe(remaining(first.headers));
      expect(second.headers.get("x-cache")).toBe("hit");
      expect(second.headers.get("content-type")).toBe("application/json; charset=utf-8");
      const third = await f.api.get(`${path}${path.includes("?") ? "&" : "?"}other=1`, token);
      expect(remaining(third.headers)).toBe(remaining(first.headers) - 1); // a new literal URL is a miss
    }
  });

  test("interface §4.2 rule 7: reordering parameters makes a separate cache entry", async () => {
    const a = await f.api.get("/v1/releases?page=1&page_size=5", token);
    const b = await f.api.get("/v1/releases?page_size=5&page=1", token);
    expect(b.body).toEqual(a.body);
    expect(remaining(b.headers)).toBe(remaining(a.headers) - 1);
    expect(b.headers.get("x-cache")).toBe("miss");
  });

  test("product §2: a hit still needs a valid token", async () => {
    expect(await secondIsCached("/v1/releases?guarded=1")).toBe(true);
    expect((await f.api.get("/v1/releases?guarded=1", null)).status).toBe(401);
    expect((await f.api.get("/v1/releases?guarded=1", `pb_${"z".repeat(43)}`)).status).toBe(401);
  });

  test("product §2: entries are per project: another project's token never sees this project's cached answer", async () => {
    const other = await f.dash.project("Other", "fr");
    const otherToken = await newToken(f.dash, other);
    const mine = await f.api.get("/v1/projects", token);
    const theirs = await f.api.get("/v1/projects", otherToken);
    expect(mine.headers.get("x-cache")).toBe("hit");
    expect(mine.body.items[0].id).toBe(pid);
    expect(theirs.headers.get("x-cache")).toBe("miss");
    expect(theirs.body.items[0].id).toBe(other);
  });

  test("product §2: tokens of one project share the project's entries", async () => {
    const second = await newToken(f.dash, pid, "second");
    await f.api.get("/v1/releases?shared=1", token);
    const r = await f.api.get("/v1/releases?shared=1", second);
    expect(r.headers.get("x-cache")).toBe("hit");
    expect(remaining(r.headers)).toBe(600); // the hit is the second token's own quota, untouched
  });

  test("interface §8 / docs/public-api.md Speed: a hit answered from the entry's ready Response still carries the caller's quota as it is now", async () => {
    // A hit clones the Response made for the last hit on the entry when the quota headers are the
    // same; whenever they differ (another request spent quota, another token asks), it must not.
    const other = await newToken(f.dash, pid, "third");
    const path = "/v1/releases?ready=1";
    await f.api.get(path, token); // the miss fills the entry
    const first = await f.api.get(path, token);
    expect(first.headers.get("x-cache")).toBe("hit");
    const spent = await f.api.get("/v1/releases?ready=2", token); // a miss: one more request spent
    expect(remaining(spent.headers)).toBe(remaining(first.headers) - 1);
    const again = await f.api.get(path, token);
    expect(again.headers.get("x-cache")).toBe("hit");
    expect(remaining(again.headers)).toBe(remaining(spent.headers));
    expect(again.text).toBe(first.text);
    for (let i = 0; i < 3; i++) {
      const theirs = await f.api.get(path, other); // alternating callers on one entry
      const mine = await f.api.get(path, token);
      expect(remaining(theirs.headers)).toBe(600);
      expect(remaining(mine.headers)).toBe(remaining(spent.headers));
      expect(theirs.text).toBe(first.text);
      expect(mine.text).toBe(first.text);
    }
  });
});

describe("product §2: any change to the project drops its entries", () => {
  test("product §2: publishing drops the cached list at once (never older than the CDN)", async () => {
    const before = await f.api.get("/v1/releases", token);
    expect((await f.api.get("/v1/releases", token)).headers.get("x-cache")).toBe("hit");
    clock.advance(1_000); // so the new release is the newest by created_at
    const rid = await published(f.dash, pid, "Fresh", "v-fresh");
    const after = await f.api.get("/v1/releases", token);
    expect(after.body.items[0].id).toBe(rid);
    expect(after.body.page_info.total_count).toBe(before.body.page_info.total_count + 1);
  });

  test("product §2: renaming or deleting a release, rotating its slug, renaming the project, adding a language all show at once", async () => {
    const rid = await published(f.dash, pid, "Changing", "v-change");
    const detail = () => f.api.get(`/v1/releases/${rid}`, token);
    await detail();
    expect((await detail()).headers.get("x-cache")).toBe("hit");
    expect((await f.dash.patch(`/projects/${pid}/releases/${rid}`, { name: "Changed" })).status).toBe(200);
    expect((await detail()).body.name).toBe("Changed");

    const urlBefore = (await detail()).body.languages[0].download_urls.json;
    const rotated = await f.dash.post(`/projects/${pid}/releases/${rid}/rotate-slug`);
    expect(rotated.status).toBe(200);
    expect((await detail()).body.languages[0].download_urls.json).not.toBe(urlBefore);
    expect((await detail()).body.languages[0].download_urls.json).toContain(`/r/${rotated.body.slug}/`);

    await f.api.get("/v1/projects", token);
    expect((await f.dash.patch(`/projects/${pid}`, { name: "Shop renamed" })).status).toBe(200);
    expect((await f.api.get("/v1/projects", token)).body.items[0].name).toBe("Shop renamed");

    await f.api.get("/v1/project-languages", token);
    expect((await f.dash.post(`/projects/${pid}/languages`, { code: "it" })).status).toBe(201);
    expect((await f.api.get("/v1/project-languages", token)).body.items.map((l: any) => l.code)).toContain("it");

    expect((await f.dash.delete(`/projects/${pid}/releases/${rid}`)).status).toBe(204);
    expect((await detail()).status).toBe(404);
  });

  test("product §2: a deleted token gets 401 even for a URL that is cached", async () => {
    const created = await f.dash.post(`/projects/${pid}/tokens`, { name: "doomed" });
    expect(await secondIsCached("/v1/releases?doomed=1", created.body.token)).toBe(true);
    expect((await f.dash.delete(`/projects/${pid}/tokens/${created.body.id}`)).status).toBe(204);
    expect((await f.api.get("/v1/releases?doomed=1", created.body.token)).status).toBe(401);
  });
});

describe("interface §8: the cache lifetime", () => {
  test("interface §8: entries live PHRASEBOOK_API_CACHE_TTL seconds, to the millisecond", async () => {
    const own = new ManualClock();
    const short = await appFixture({ clock: own, env: { PHRASEBOOK_API_CACHE_TTL: "2" } });
    try {
      const p = await short.dash.project("S", "en");
      const t = await newToken(short.dash, p);
      const cachedAt = own.now();
      const a = await short.api.get("/v1/releases", t);
      own.set(cachedAt + 1_999);
      const again = await short.api.get("/v1/releases", t);
      expect(again.headers.get("x-cache")).toBe("hit");
      expect(remaining(again.headers)).toBe(remaining(a.headers));
      own.set(cachedAt + 2_000);
      const expired = await short.api.get("/v1/releases", t);
      expect(expired.headers.get("x-cache")).toBe("miss");
      expect(remaining(expired.headers)).toBe(remaining(a.headers) - 1);
    } finally {
      await short.t.close();
    }
  });

  test("interface §8: by default an entry lives 60 seconds", async () => {
    const cachedAt = clock.now();
    await f.api.get("/v1/releases?default-ttl=1", token);
    clock.set(cachedAt + 59_999);
    expect((await f.api.get("/v1/releases?default-ttl=1", token)).headers.get("x-cache")).toBe("hit");
    clock.set(cachedAt + 60_000);
    expect((await f.api.get("/v1/releases?default-ttl=1", token)).headers.get("x-cache")).toBe("miss");
  });

  test("interface §8: PHRASEBOOK_API_CACHE_TTL=0 turns the cache off", async () => {
    const off = await appFixture({ env: { PHRASEBOOK_API_CACHE_TTL: "0" } });
    try {
      const p = await off.dash.project("O", "en");
      const t = await newToken(off.dash, p);
      const b = await off.api.get("/v1/releases", t);
      const c = await off.api.get("/v1/releases", t);
      expect(remaining(c.headers)).toBe(remaining(b.headers) - 1);
      expect(c.headers.get("x-cache")).toBe("miss");
    } finally {
      await off.t.close();
    }
  });
});
