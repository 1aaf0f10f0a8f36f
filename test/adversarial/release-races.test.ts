/**
 * Channels and schedules under truly parallel requests (docs/releases.md "Channels", "Scheduled
 * publish"): every request of a burst is complete in the same turn of the server's event loop
 * (burst.ts). The "only one" and "last one" rules must hold: one channel of a name, a channel on
 * exactly one release whose bytes the CDN serves, one publish of a draft however it is asked for
 * (a person and the schedule at once), one webhook event for it, and never a 500.
 *
 * What this sweep found: nothing broke. Every write of these routes runs in one synchronous
 * transaction (bun:sqlite) with the name unique in the schema and the draft claimed inside an
 * immediate transaction, and the CDN cache's generation drops a fill that raced a purge; these
 * tests keep it so.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startScheduledPublishing } from "../../src/releases/schedule.ts";
import type { TestApp } from "../helpers/app.ts";
import { ManualClock } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { listen, type Listening } from "../helpers/listen.ts";
import { cdnFixture, importJson, publish } from "../helpers/releases.ts";
import { burst, jsonRequest, statusCounts, type BurstRequest } from "./burst.ts";

let t: TestApp;
let admin: DashboardClient;
let clock: ManualClock;
let server: Listening;

beforeAll(async () => {
  // Subscribed, so the outbox holds the release_published events these tests count.
  ({ t, admin, clock } = await cdnFixture({ subscribeAll: true }));
  server = listen(t);
});
afterAll(async () => {
  await server.stop();
  await t.close();
});

/** The signed-in admin's headers, for raw requests. */
const asAdmin = () => ({ cookie: admin.cookie, "x-csrf-token": admin.csrf });
const api = (path: string) => `/dashboard/api${path}`;
const put = (path: string, body: unknown) => jsonRequest("PUT", api(path), body, asAdmin());
const del = (path: string): BurstRequest => ({ method: "DELETE", path: api(path), headers: asAdmin() });
const post = (path: string, body: unknown = {}) => jsonRequest("POST", api(path), body, asAdmin());

function noServerErrors(replies: { status: number; body: string }[]): void {
  for (const r of replies) expect(r.status, r.body.slice(0, 200)).toBeLessThan(500);
}

function count(sql: string, ...params: (string | number)[]): number {
  return t.query<{ n: number }>(sql, ...params)[0]!.n;
}

/** A project with two published releases whose `en` files differ. */
async function twoReleases(name: string) {
  const pid = await admin.project(name, "en");
  await importJson(admin, pid, "en", { greeting: "one" });
  const a = await publish(admin, pid, "v1");
  clock.advance(1000);
  await importJson(admin, pid, "en", { greeting: "two" });
  const b = await publish(admin, pid, "v2");
  const projectId = t.query<{ id: number }>("SELECT id FROM projects WHERE public_id = ?", pid)[0]!.id;
  return { pid, projectId, a: a.id as string, b: b.id as string };
}

describe("docs/releases.md Channels: parallel writes of one channel", () => {
  test("40 parallel creations of one channel name: one 201, the rest 200, one channel with one slug", async () => {
    const { pid, projectId, a, b } = await twoReleases("Create race");
    const replies = await burst(server.port, Array.from({ length: 40 }, (_, i) => put(`/projects/${pid}/channels/beta`, { release_id: i % 2 ? a : b })));
    noServerErrors(replies);
    expect(statusCounts(replies)).toEqual({ 200: 39, 201: 1 });
    expect(count("SELECT count(*) AS n FROM channels WHERE project_id = ? AND name = 'beta'", projectId)).toBe(1);
    expect(new Set(replies.map((r) => r.json.slug)).size).toBe(1);
    // The audit log says "created" once, and records every move.
    const audits = t.query<{ details: string }>("SELECT details FROM audit_log WHERE action = 'channel_moved' AND project_id = ?", projectId);
    expect(audits).toHaveLength(40);
    expect(audits.filter((r) => JSON.parse(r.details).created === true)).toHaveLength(1);
  });

  test("40 parallel promotions of two releases to one channel: it ends on exactly one, and the CDN serves that one's bytes", async () => {
    const { pid, a, b } = await twoReleases("Promote race");
    expect((await admin.put(`/projects/${pid}/channels/production`, { release_id: a })).status).toBe(201);
    const channelUrl = (await admin.get(`/projects/${pid}/channels/production`)).body.urls.en.json as string;
    expect(await (await t.fetch(channelUrl)).json()).toEqual({ greeting: "one" }); // now cached
    for (let round = 0; round < 3; round++) {
      // CDN reads of the channel in the same burst, so fills race the purges.
      const requests = Array.from({ length: 40 }, (_, i) => put(`/projects/${pid}/channels/production`, { release_id: (i + round) % 2 ? a : b }));
      const reads: BurstRequest[] = Array.from({ length: 20 }, () => ({ method: "GET", path: new URL(channelUrl).pathname }));
      const replies = await burst(server.port, [...requests, ...reads]);
      noServerErrors(replies);
      expect(replies.slice(0, 40).every((r) => r.status === 200)).toBe(true);
      for (const r of replies.slice(40)) expect([{ greeting: "one" }, { greeting: "two" }]).toContainEqual(r.json);
      const on = (await admin.get(`/projects/${pid}/channels/production`)).body.release_id;
      expect([a, b]).toContain(on);
      // The last move wins, and the CDN serves that release's bytes (not a fill from before the purge).
      const expected = on === a ? { greeting: "one" } : { greeting: "two" };
      expect(await (await t.fetch(channelUrl)).json()).toEqual(expected);
      expect(await (await t.fetch(channelUrl)).json()).toEqual(expected);
    }
  });

  test("a channel deleted while it is promoted: no 500, and the end state is whole (a channel on a release, or none and a 404)", async () => {
    const { pid, projectId, a, b } = await twoReleases("Delete race");
    for (let round = 0; round < 5; round++) {
      await admin.put(`/projects/${pid}/channels/staging`, { release_id: a });
      const channelUrl = (await admin.get(`/projects/${pid}/channels/staging`)).body.urls.en.json as string;
      const requests = Array.from({ length: 30 }, (_, i) => (i % 3 === round % 3 ? del(`/projects/${pid}/channels/staging`) : put(`/projects/${pid}/channels/staging`, { release_id: i % 2 ? a : b })));
      const replies = await burst(server.port, requests);
      noServerErrors(replies);
      for (const r of replies) expect([200, 201, 204, 404]).toContain(r.status);
      const rows = t.query<{ release_id: number; slug: string }>("SELECT release_id, slug FROM channels WHERE project_id = ? AND name = 'staging'", projectId);
      const view = await admin.get(`/projects/${pid}/channels/staging`);
      if (rows.length === 0) {
        expect(view.status).toBe(404);
        expect((await t.fetch(channelUrl)).status).toBe(404);
      } else {
        expect(view.status).toBe(200);
        const now = await t.fetch(view.body.urls.en.json);
        expect(now.status).toBe(200);
        expect(await now.json()).toEqual(view.body.release_id === a ? { greeting: "one" } : { greeting: "two" });
        // A deletion in the burst gave the channel a new slug when it was made again: the old URL is gone.
        if (view.body.urls.en.json !== channelUrl) expect((await t.fetch(channelUrl)).status).toBe(404);
        await admin.delete(`/projects/${pid}/channels/staging`);
      }
    }
  });
});

describe("docs/releases.md Scheduled publish: the schedule and a person at once", () => {
  test("the scheduled publish fires while a manual publish of the same draft runs: one release published, one webhook event, no 500", async () => {
    const schedules = startScheduledPublishing(t.deps, t.dataDir);
    try {
      const pid = await admin.project("Schedule race", "en", ["de", "fr"]);
      const projectId = t.query<{ id: number }>("SELECT id FROM projects WHERE public_id = ?", pid)[0]!.id;
      await importJson(admin, pid, "en", Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, `value ${i}`])));
      for (let round = 0; round < 4; round++) {
        const draft = (await admin.post(`/projects/${pid}/releases`, { name: `Race ${round}`, tag: `race-${round}` })).body.id as string;
        expect((await admin.put(`/projects/${pid}/releases/${draft}/schedule`, { at: new Date(clock.now() + 60_000).toISOString() })).status).toBe(200);
        const eventsBefore = count("SELECT count(*) AS n FROM outbox_events WHERE project_id = ? AND event = 'release_published'", projectId);
        clock.advance(60_000);
        // The job's run and a burst of manual publishes of the same draft: the job first in the
        // first round, later in the next ones, so it starts while a manual publish checks and
        // writes its files (the burst lands about 20 ms after it is started).
        const manual = burst(server.port, Array.from({ length: 10 }, () => post(`/projects/${pid}/releases/${draft}/publish`)));
        // What the draft says once the job is done, maybe while a person's publish still runs:
        // overtaken by that publish is no failure of the schedule (it said "release is already
        // being published" until that publish ended, and for good if it failed).
        const job = Bun.sleep([0, 22, 30, 45][round]!)
          .then(() => schedules.runDue())
          .then(() => t.query<{ e: string | null }>("SELECT schedule_error AS e FROM releases WHERE public_id = ?", draft)[0]!.e);
        const [replies, errorAfterJob] = await Promise.all([manual, job]);
        expect(errorAfterJob).toBeNull();
        noServerErrors(replies);
        const counts = statusCounts(replies);
        expect(Object.keys(counts).every((s) => s === "200" || s === "409")).toBe(true);
        expect(counts[200] ?? 0).toBeLessThanOrEqual(1);
        const row = t.query<{ status: string; slug: string | null; publishing_since: number | null; scheduled_at: number | null; schedule_error: string | null }>(
          "SELECT status, slug, publishing_since, scheduled_at, schedule_error FROM releases WHERE public_id = ?",
          draft,
        )[0]!;
        expect(row).toMatchObject({ status: "published", publishing_since: null, scheduled_at: null, schedule_error: null });
        expect(count("SELECT count(*) AS n FROM outbox_events WHERE project_id = ? AND event = 'release_published'", projectId) - eventsBefore).toBe(1);
        expect(count("SELECT count(*) AS n FROM release_languages WHERE release_id = (SELECT id FROM releases WHERE public_id = ?)", draft)).toBe(3);
        expect(count("SELECT count(*) AS n FROM audit_log WHERE action = 'release_published' AND target_id = ?", draft)).toBe(1);
      }
      expect(schedules.armedAt()).toBeNull();
    } finally {
      await schedules.stop();
    }
  }, 120_000);

  test("40 parallel schedule sets and cancels: no 500, and the draft holds what the last one said", async () => {
    const pid = await admin.project("Schedule set race", "en");
    const draft = (await admin.post(`/projects/${pid}/releases`, { name: "Later", tag: "later" })).body.id as string;
    const times = Array.from({ length: 40 }, (_, i) => new Date(clock.now() + (i + 1) * 60_000).toISOString());
    const replies = await burst(
      server.port,
      times.map((at, i) => (i % 4 === 3 ? del(`/projects/${pid}/releases/${draft}/schedule`) : put(`/projects/${pid}/releases/${draft}/schedule`, { at }))),
    );
    noServerErrors(replies);
    expect(replies.every((r) => r.status === 200 || r.status === 204)).toBe(true);
    // One audit entry per answer, in the order they were written; the draft holds the last one's time.
    const audits = t.query<{ details: string }>("SELECT details FROM audit_log WHERE action = 'release_scheduled' AND target_id = ? ORDER BY id", draft);
    expect(audits).toHaveLength(40);
    const last = JSON.parse(audits.at(-1)!.details).at as string | null;
    const detail = (await admin.get(`/projects/${pid}/releases/${draft}`)).body;
    expect(detail.scheduled_at ?? null).toBe(last);
  });

  test("a schedule on a draft deleted before it fires: nothing is published, nothing fails, the job is disarmed", async () => {
    const schedules = startScheduledPublishing(t.deps, t.dataDir);
    try {
      const pid = await admin.project("Schedule delete race", "en");
      const projectId = t.query<{ id: number }>("SELECT id FROM projects WHERE public_id = ?", pid)[0]!.id;
      const drafts: string[] = [];
      for (let i = 0; i < 10; i++) {
        const id = (await admin.post(`/projects/${pid}/releases`, { name: `Gone ${i}`, tag: `gone-${i}` })).body.id as string;
        expect((await admin.put(`/projects/${pid}/releases/${id}/schedule`, { at: new Date(clock.now() + 30_000).toISOString() })).status).toBe(200);
        drafts.push(id);
      }
      await Bun.sleep(50); // croner is loaded a turn after start
      expect(schedules.armedAt()).toBe(clock.now() + 30_000);
      clock.advance(30_000);
      // Deleted in the same burst as the job runs: before it, or between its publishes.
      const deleting = burst(server.port, drafts.map((id) => del(`/projects/${pid}/releases/${id}`)));
      const [replies] = await Promise.all([deleting, schedules.runDue()]);
      noServerErrors(replies);
      // A draft the job published first is deleted as a published release (also a 204): each ends
      // deleted, never half published and never left claimed.
      for (const r of replies) expect([204, 404]).toContain(r.status);
      expect(count("SELECT count(*) AS n FROM releases WHERE project_id = ?", projectId)).toBe(0);
      expect(count("SELECT count(*) AS n FROM releases WHERE project_id = ? AND publishing_since IS NOT NULL", projectId)).toBe(0);
      await schedules.runDue();
      expect(schedules.armedAt()).toBeNull();
    } finally {
      await schedules.stop();
    }
  });
});
