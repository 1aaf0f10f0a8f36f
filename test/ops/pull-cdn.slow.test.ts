/**
 * SLOW (about 62 s of real time, nearly all of it waiting): a publish shows on `latest` through a
 * pull CDN within about a minute. `latest` files say `Cache-Control: public, max-age=60,
 * must-revalidate` (interface §4.5 rule 3), so nginx's proxy_cache in front of a server process
 * (docs/deploy/nginx.conf) keeps serving the old file for those 60 s and then revalidates; there
 * is no clock to move in another process, so the test waits them out. It is alone in its file so
 * it can run in parallel with the rest of the suite. The other pull-cache checks are in
 * test/ops/proxy.test.ts.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startBehindNginx, type BehindNginx } from "../helpers/behind-nginx.ts";

let p: BehindNginx;

beforeAll(async () => {
  p = await startBehindNginx();
});

afterAll(async () => {
  await p?.stop();
});

test("interface §4.5 rule 3: the edge keeps the old latest for its 60 s, then revalidates and serves the new publish", async () => {
  const pid = (await p.api("POST", "/projects", { name: "Pull CDN", base_language_code: "en" })).body.id;
  const key = await p.api("POST", `/projects/${pid}/keys`, { key: "title" });
  await p.api("PUT", `/projects/${pid}/keys/${key.body.id}/translations/en`, { value: "First" });
  const first = await p.publishRelease(pid, "one");
  const pinned: string = first.languages[0].download_urls.json;
  const latest = pinned.replace(/\/r\/[^/]+\//, "/r/latest/");

  const status = async (url: string) => {
    const r = await p.tlsFetch(url);
    return { code: r.status, cache: r.headers.get("x-cache-status"), cacheControl: r.headers.get("cache-control"), body: await r.text() };
  };
  expect(await status(pinned)).toMatchObject({ code: 200, cache: "MISS" });
  // The edge stores `latest` after this request was sent and before its answer arrived, so its
  // copy goes stale no earlier than `sentAt` + max-age and no later than `cachedAt` + max-age
  // (nginx counts whole seconds: a second of slack each way). Both bounds come from the header and
  // the order of events, so a slow machine can only make the wait longer, never the test wrong.
  const sentAt = Date.now();
  const latestFirst = await status(latest);
  const cachedAt = Date.now();
  expect(latestFirst).toMatchObject({ code: 200, cache: "MISS" });
  expect(latestFirst.cacheControl).toBe("public, max-age=60, must-revalidate");
  const maxAgeMs = Number(/max-age=(\d+)/.exec(latestFirst.cacheControl!)![1]) * 1000;
  expect(JSON.parse(latestFirst.body)).toEqual({ title: "First" });
  expect(await status(latest)).toMatchObject({ code: 200, cache: "HIT" });

  await p.api("PUT", `/projects/${pid}/keys/${key.body.id}/translations/en`, { value: "Second" });
  await p.publishRelease(pid, "two");
  // The origin shows the publish at once; the edge keeps the old latest until its 60 s are up.
  expect(JSON.parse(await (await fetch(latest.replace(p.cdnUrl, p.server.url))).text())).toEqual({ title: "Second" });
  expect(JSON.parse((await status(latest)).body)).toEqual({ title: "First" });
  const staleBy = cachedAt + maxAgeMs + 1000;
  let fresh: Awaited<ReturnType<typeof status>> | undefined;
  while (!fresh) {
    const stale = Date.now() >= staleBy; // this request is sent after the old copy went stale
    const seen = await status(latest);
    if (JSON.parse(seen.body).title === "Second") fresh = seen;
    else {
      // Still the old file, from the edge's cache: only while the copy may be fresh.
      expect(stale, "the old file after its max-age").toBe(false);
      expect(seen).toMatchObject({ code: 200, cache: "HIT" });
      await Bun.sleep(Math.min(2000, Math.max(0, staleBy - Date.now())));
    }
  }
  // The new file only once the old one was past its max-age, never while it was fresh, and fetched
  // from the origin by the edge (revalidated: not a hit).
  expect(Date.now() - sentAt).toBeGreaterThanOrEqual(maxAgeMs - 1000);
  expect(fresh.code).toBe(200);
  expect(fresh.cache).not.toBe("HIT");
  // Pinned files (max-age of a year) of the first release are still served from the edge, unchanged.
  const pinnedAgain = await status(pinned);
  expect(pinnedAgain).toMatchObject({ code: 200, cache: "HIT" });
  expect(JSON.parse(pinnedAgain.body)).toEqual({ title: "First" });
}, 120_000);
