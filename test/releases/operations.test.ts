/**
 * Release operations end to end in-process (docs/releases.md): a roll back heard by a real HTTPS
 * receiver with its signature checked, `latest` purged at once; reviewed strings only; the diff's
 * limits; scheduled publishing on the real clock, blocked by message errors.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { systemClock } from "../../src/common/clock.ts";
import { DIFF_LIST_MAX } from "../../src/releases/limits.ts";
import { startReceiver } from "../helpers/https-receiver.ts";
import { cdnFixture, importJson, lang, latestUrl, projectSlug, publish } from "../helpers/releases.ts";
import { testApp } from "../helpers/app.ts";
import { eventually } from "../helpers/wait.ts";
import { addEndpoint, startWebhookApp } from "../webhooks/fixture.ts";

setDefaultTimeout(30_000);

const SECRET = "whsec_rollback_0123456789";

/** interface §6.3: HMAC-SHA256 over "<timestamp>.<raw body>". */
function signedBy(secret: string, headers: Record<string, string>, rawBody: string): boolean {
  const expected = Buffer.from("sha256=" + createHmac("sha256", secret).update(`${headers["x-service-timestamp"]}.${rawBody}`).digest("hex"));
  const got = Buffer.from(headers["x-service-signature"] ?? "");
  return got.length === expected.length && timingSafeEqual(got, expected);
}

const bytes = async (res: Response) => new Uint8Array(await res.arrayBuffer());

test("releases §Roll back: latest serves the old bytes at once, and release_published arrives signed at a real HTTPS receiver", async () => {
  const receiver = await startReceiver();
  const h = await startWebhookApp();
  try {
    const { client, pid, t } = h;
    await addEndpoint(h, receiver.url("/hooks"), ["release_published"], SECRET);
    await importJson(client, pid, "en", { greeting: "Hello" });
    await importJson(client, pid, "de", { greeting: "Hallo" });
    const good = await publish(client, pid, "v1");
    await importJson(client, pid, "de", { greeting: "Hallo KAPUTT" });
    await publish(client, pid, "v2");
    const slug = await projectSlug(client, pid);
    // latest is cached with the bad string now
    expect(await (await t.fetch(latestUrl(slug, "de"))).json()).toEqual({ greeting: "Hallo KAPUTT" });

    const back = await client.post(`/projects/${pid}/releases/${good.id}/republish`, { name: "Roll back to v1", tag: "v1-rollback" });
    expect(back.status).toBe(201);
    expect(back.body.republished_from).toBe(good.id);
    for (const code of ["en", "de"]) {
      for (const ext of ["json", "yaml", "arb"] as const) {
        const pinned = await bytes(await t.fetch(lang(good, code).download_urls[ext]));
        expect(await bytes(await t.fetch(latestUrl(slug, code, ext)))).toEqual(pinned);
        expect(await bytes(await t.fetch(lang(back.body, code).download_urls[ext]))).toEqual(pinned);
      }
    }
    // Every earlier URL still answers (nothing was deleted).
    expect((await t.fetch(lang(good, "de").download_urls.json)).status).toBe(200);

    await receiver.waitFor(3);
    const rollback = receiver.requests.find((r) => JSON.parse(r.body).data.release_id === back.body.id);
    expect(rollback).toBeDefined();
    expect(JSON.parse(rollback!.body)).toMatchObject({ event: "release_published", data: { release_id: back.body.id, name: "Roll back to v1", tag: "v1-rollback", status: "published" } });
    expect(signedBy(SECRET, rollback!.headers, rollback!.body)).toBe(true);
    expect(signedBy("another secret", rollback!.headers, rollback!.body)).toBe(false);
  } finally {
    await h.stop();
    await receiver.stop();
  }
});

test("releases §Roll back and §Channels: a language the chosen release did not ship is 404 on latest and on a channel, at once", async () => {
  const { t, admin, clock } = await cdnFixture();
  try {
    const pid = await admin.project("Grow", "en", ["de"]);
    await admin.key(pid, "greeting", { en: "Hello", de: "Hallo" });
    const v1 = await publish(admin, pid, "v1");
    clock.advance(1000);
    expect((await admin.post(`/projects/${pid}/languages`, { code: "fr" })).status).toBe(201);
    await importJson(admin, pid, "fr", { greeting: "Bonjour" });
    const v2 = await publish(admin, pid, "v2");
    const slug = await projectSlug(admin, pid);
    const channel = (await admin.put(`/projects/${pid}/channels/production`, { release_id: v2.id })).body;
    const channelUrl = (code: string) => `/cdn/p/${slug}/c/${channel.slug}/${code}.json`;
    // Both serve French now (and the CDN caches it).
    expect(await (await t.fetch(latestUrl(slug, "fr"))).json()).toEqual({ greeting: "Bonjour" });
    expect(await (await t.fetch(channelUrl("fr"))).json()).toEqual({ greeting: "Bonjour" });

    clock.advance(1000);
    const back = await admin.post(`/projects/${pid}/releases/${v1.id}/republish`, { name: "Back to v1", tag: "v1-back" });
    expect(back.status).toBe(201);
    expect(back.body.languages.map((l: any) => l.code)).toEqual(["de", "en"]);
    const gone = await t.fetch(latestUrl(slug, "fr"));
    expect(gone.status).toBe(404);
    expect(gone.headers.get("cache-control")).toBe("no-store");
    expect(await bytes(await t.fetch(latestUrl(slug, "de")))).toEqual(await bytes(await t.fetch(lang(v1, "de").download_urls.json)));

    expect((await admin.put(`/projects/${pid}/channels/production`, { release_id: back.body.id })).status).toBe(200);
    const channelGone = await t.fetch(channelUrl("fr"));
    expect(channelGone.status).toBe(404);
    expect(channelGone.headers.get("cache-control")).toBe("no-store");
    const de = await t.fetch(channelUrl("de"));
    expect(de.headers.get("cache-control")).toBe("public, max-age=60, must-revalidate");
    expect(await bytes(de)).toEqual(await bytes(await t.fetch(lang(v1, "de").download_urls.json)));
    // v2's pinned French file still answers: nothing was deleted.
    expect((await t.fetch(lang(v2, "fr").download_urls.json)).status).toBe(200);
  } finally {
    await t.close();
  }
});

test("releases §Reviewed strings only: the last approved value ships for every language but the base", async () => {
  const { t, admin } = await cdnFixture();
  try {
    const pid = await admin.project("Shop", "en", ["de"]);
    const approvedThenEdited = await admin.key(pid, "a.edited", { en: "Base draft", de: "Genehmigt" });
    const neverApproved = await admin.key(pid, "b.never", { en: "Only base", de: "Nie genehmigt" });
    const approved = await admin.key(pid, "c.approved", { en: "Approved base", de: "Auch genehmigt" });
    for (const k of [approvedThenEdited, approved]) expect((await admin.post(`/projects/${pid}/keys/${k}/translations/de/approve`)).status).toBe(200);
    expect((await admin.put(`/projects/${pid}/keys/${approvedThenEdited}/translations/de`, { value: "Nach der Genehmigung geändert" })).status).toBe(200);
    expect(neverApproved).toBeTruthy();
    // Approved twice, edited after each: the newer approval ships, not the first.
    const twice = await admin.key(pid, "d.twice", { en: "Twice", de: "Erste Fassung" });
    expect((await admin.post(`/projects/${pid}/keys/${twice}/translations/de/approve`)).status).toBe(200);
    expect((await admin.put(`/projects/${pid}/keys/${twice}/translations/de`, { value: "Zweite Fassung" })).status).toBe(200);
    expect((await admin.post(`/projects/${pid}/keys/${twice}/translations/de/approve`)).status).toBe(200);
    expect((await admin.put(`/projects/${pid}/keys/${twice}/translations/de`, { value: "Dritte Fassung, ungeprüft" })).status).toBe(200);

    const patched = await admin.patch(`/projects/${pid}`, { publish_approved_only: true });
    expect(patched.status).toBe(200);
    expect(patched.body.publish_approved_only).toBe(true);
    const draft = await admin.post(`/projects/${pid}/releases`, { name: "R", tag: "r1" });
    // The diff of the draft shows what would ship: the approved values.
    const diff = await admin.get(`/projects/${pid}/releases/${draft.body.id}/diff`);
    expect(diff.body.counts).toEqual({ added: 4, removed: 0, changed: 0 });
    const release = (await admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`)).body;
    expect(await (await t.fetch(lang(release, "de").download_urls.json)).json()).toEqual({ "a.edited": "Genehmigt", "c.approved": "Auch genehmigt", "d.twice": "Zweite Fassung" });
    // The base language as it is, approved or not.
    expect(await (await t.fetch(lang(release, "en").download_urls.json)).json()).toEqual({ "a.edited": "Base draft", "b.never": "Only base", "c.approved": "Approved base", "d.twice": "Twice" });

    expect((await admin.patch(`/projects/${pid}`, { publish_approved_only: false })).status).toBe(200);
    const all = await publish(admin, pid, "r2");
    expect(await (await t.fetch(lang(all, "de").download_urls.json)).json()).toEqual({ "a.edited": "Nach der Genehmigung geändert", "b.never": "Nie genehmigt", "c.approved": "Auch genehmigt", "d.twice": "Dritte Fassung, ungeprüft" });
    expect((await admin.patch(`/projects/${pid}`, { publish_approved_only: "yes" })).status).toBe(400);
  } finally {
    await t.close();
  }
});

test("releases §Diff: with nothing published everything is added; lists stop at 1,000 entries, the counts stay whole", async () => {
  const { t, admin, clock } = await cdnFixture();
  try {
    const pid = await admin.project("Big", "en", ["de"]);
    const n = DIFF_LIST_MAX + 200;
    const keys = Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${String(i).padStart(5, "0")}`, `v${i}`]));
    await importJson(admin, pid, "en", keys);
    const draft = (await admin.post(`/projects/${pid}/releases`, { name: "first", tag: "t1" })).body;
    const first = (await admin.get(`/projects/${pid}/releases/${draft.id}/diff`)).body;
    expect(first.counts).toEqual({ added: n, removed: 0, changed: 0 });
    expect(first.added).toHaveLength(DIFF_LIST_MAX);
    expect(first.added[0]).toBe("k00000");
    expect(first.truncated).toBe(true);
    expect(first.languages_added).toEqual(["de", "en"]);
    expect((await admin.post(`/projects/${pid}/releases/${draft.id}/publish`)).status).toBe(200);

    clock.advance(1000);
    await importJson(admin, pid, "de", Object.fromEntries(Object.keys(keys).map((k) => [k, `de ${k}`])));
    await importJson(admin, pid, "en", { extra: "x" });
    const second = await publish(admin, pid, "t2");
    const diff = (await admin.get(`/projects/${pid}/releases/${second.id}/diff?against=${draft.id}`)).body;
    expect(diff.counts).toEqual({ added: 1, removed: 0, changed: n });
    expect(diff.changed).toHaveLength(DIFF_LIST_MAX);
    expect(diff.changed[0]).toEqual({ key: "k00000", language_code: "de", before: null, after: "de k00000" });
    // The other way round: the key is removed and the values go back to none.
    const back = (await admin.get(`/projects/${pid}/releases/${draft.id}/diff?against=${second.id}`)).body;
    expect(back.removed).toEqual(["extra"]);
    expect(back.changed[0]).toEqual({ key: "k00000", language_code: "de", before: "de k00000", after: null });
  } finally {
    await t.close();
  }
});

test("releases §Scheduled publish: a draft publishes at its time; one blocked by message errors stays a draft with schedule_error", async () => {
  const t = await testApp({ clock: systemClock, schedules: true });
  try {
    const admin = await t.login();
    const pid = await admin.project("Shop", "en", ["de"]);
    await admin.key(pid, "greeting", { en: "Hello {name}", de: "Hallo {name}" });
    const draft = (await admin.post(`/projects/${pid}/releases`, { name: "Later", tag: "later" })).body;
    // Far enough ahead that the PUT is in time on a busy machine; the check below is a lower bound only (never before its time).
    const at = new Date(Date.now() + 3000).toISOString();
    const scheduled = await admin.put(`/projects/${pid}/releases/${draft.id}/schedule`, { at });
    expect(scheduled.body).toMatchObject({ status: "draft", scheduled_at: at });
    const published = await eventually(async () => {
      const r = (await admin.get(`/projects/${pid}/releases/${draft.id}`)).body;
      return r.status === "published" && r;
    });
    expect(published.scheduled_at).toBeUndefined();
    expect(Date.parse(published.published_at)).toBeGreaterThanOrEqual(Date.parse(at));
    const slug = await projectSlug(admin, pid);
    expect(await (await t.fetch(latestUrl(slug, "de"))).json()).toEqual({ greeting: "Hallo {name}" });

    // An error in a message blocks it like any publish.
    const keys = (await admin.get(`/projects/${pid}/keys`)).body.items;
    expect((await admin.put(`/projects/${pid}/keys/${keys[0].id}/translations/de`, { value: "Hallo {nam" })).status).toBe(200);
    const blocked = (await admin.post(`/projects/${pid}/releases`, { name: "Blocked", tag: "blocked" })).body;
    expect((await admin.put(`/projects/${pid}/releases/${blocked.id}/schedule`, { at: new Date(Date.now() + 1200).toISOString() })).status).toBe(200);
    const failed = await eventually(async () => {
      const r = (await admin.get(`/projects/${pid}/releases/${blocked.id}`)).body;
      return r.schedule_error !== undefined && r;
    });
    expect(failed.status).toBe("draft");
    expect(failed.schedule_error).toContain("1 error in a message blocks publishing");
  } finally {
    await t.close();
  }
});

test("releases §Diff: one language at a time, each read once per side (never per key), changes in key then language order", async () => {
  const { compareSides } = await import("../../src/releases/diff.ts");
  const side = (languages: string[], keys: number, value: (code: string, i: number) => string) => {
    const loads: string[] = [];
    return {
      loads,
      languages,
      async values(code: string) {
        loads.push(code);
        return Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${String(i).padStart(6, "0")}`, value(code, i)]));
      },
    };
  };
  const codes = Array.from({ length: 12 }, (_, i) => `l${String.fromCharCode(97 + i)}`);
  for (const keys of [500, 5000]) {
    const before = side(codes, keys, (c, i) => `${c} ${i}`);
    const after = side(codes, keys, (c, i) => (i % 2 === 0 ? `${c} ${i}` : `${c} new ${i}`));
    const diff = await compareSides(before, after);
    expect(diff.counts).toEqual({ added: 0, removed: 0, changed: (keys / 2) * codes.length });
    expect(diff.changed).toHaveLength(Math.min(DIFF_LIST_MAX, (keys / 2) * codes.length));
    expect(diff.changed[0]).toEqual({ key: "k000001", language_code: "la", before: "la 1", after: "la new 1" });
    expect(diff.changed[1]!.language_code).toBe("lb"); // key order first, then language
    // Each language of each side is read once: never all at once, never per key.
    for (const s of [before, after]) expect(s.loads).toEqual(codes);
  }
});

test("publishing §2: an error the findings kept on save do not show (an approved value fixed since) still refuses the publish, and nothing of it stays", async () => {
  const { t, admin } = await cdnFixture();
  try {
    const pid = await admin.project("Stale", "en", ["de"]);
    const key = await admin.key(pid, "greeting", { en: "Hello {name}", de: "Hallo {nam}" });
    expect((await admin.post(`/projects/${pid}/keys/${key}/translations/de/approve`)).status).toBe(200);
    // Fixed, not approved again: the kept findings say no error; the approved value still has one.
    expect((await admin.put(`/projects/${pid}/keys/${key}/translations/de`, { value: "Hallo {name}" })).status).toBe(200);
    expect((await admin.get(`/projects/${pid}/problems`)).body.items).toEqual([]);
    expect((await admin.patch(`/projects/${pid}`, { publish_approved_only: true })).status).toBe(200);
    const draft = (await admin.post(`/projects/${pid}/releases`, { name: "R", tag: "r1" })).body;
    const refused = await admin.post(`/projects/${pid}/releases/${draft.id}/publish`);
    expect(refused.status).toBe(409);
    expect(refused.body.error_count).toBe(1);
    expect(refused.body.problems).toMatchObject([{ key: "greeting", language_code: "de", severity: "error" }]);
    // The draft is a draft again, with no folder of files, staging or other.
    expect((await admin.get(`/projects/${pid}/releases/${draft.id}`)).body.status).toBe("draft");
    expect(readdirSync(join(t.dataDir, "releases"))).toEqual([]);
    // Approving the fixed value lets it through.
    expect((await admin.post(`/projects/${pid}/keys/${key}/translations/de/approve`)).status).toBe(200);
    const published = await admin.post(`/projects/${pid}/releases/${draft.id}/publish`);
    expect(published.status).toBe(200);
    expect(await (await t.fetch(lang(published.body, "de").download_urls.json)).json()).toEqual({ greeting: "Hallo {name}" });
  } finally {
    await t.close();
  }
});
