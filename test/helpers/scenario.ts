/**
 * Table-driven tests of the dashboard API (docs/architecture.md "Tests"), after PocketBase's
 * ApiScenario: each row names a request, who sends it and what must come back (status, content,
 * and the webhook events the request wrote). Every row runs on its own copy of one prepared data
 * dir, in-process, so a row that deletes or publishes never disturbs the next.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { DashboardClient } from "./dashboard-client.ts";
import { copyDataDir, ORIGIN, testApp, type TestApp, type TestAppOptions } from "./app.ts";
import { tempDir } from "./server.ts";

/** The people a scenario can send its request as. */
export type Who = "admin" | "member" | "anonymous" | "admin-without-csrf";

export interface World {
  /** Ids made while preparing the data dir, by name (`pid`, `keyId`, `releaseId`, ...). */
  ids: Record<string, string>;
  /** The signed-in sessions, as cookie and CSRF token. */
  sessions: Partial<Record<"admin" | "member", { cookie: string; csrf: string }>>;
}

export interface ScenarioContext {
  t: TestApp;
  ids: Record<string, string>;
  as(who: Who): DashboardClient;
}

export interface Scenario {
  name: string;
  method: string;
  /** Path under /dashboard/api; `:name` parts are replaced by the world's ids. */
  url: string;
  body?: unknown;
  as?: Who;
  headers?: Record<string, string>;
  status: number;
  /** Substrings the response body must contain. */
  contains?: string[];
  /** Substrings it must not contain. */
  notContains?: string[];
  /** Webhook events the request must write to the outbox, in order (default: checked only if given). */
  events?: string[];
  before?: (ctx: ScenarioContext) => unknown | Promise<unknown>;
  after?: (ctx: ScenarioContext, body: any) => unknown | Promise<unknown>;
}

/** Replaces `:name` parts of a path with the world's ids (unknown names stay as written). */
export function fillIds(template: string, ids: Record<string, string>): string {
  return template.replace(/:([A-Za-z]+)/g, (whole, name: string) => ids[name] ?? whole);
}

function clientFor(t: TestApp, world: World, who: Who): DashboardClient {
  const client = t.client();
  if (who === "anonymous") return client;
  const session = world.sessions[who === "admin-without-csrf" ? "admin" : who];
  if (!session) throw new Error(`the world has no ${who} session`);
  client.cookie = session.cookie;
  client.csrf = who === "admin-without-csrf" ? "" : session.csrf;
  return client;
}

/**
 * Runs a table. `prepare` builds the world once in an app of its own (whose data dir becomes the
 * template); each scenario then runs on a copy.
 */
export function scenarios(title: string, prepare: (t: TestApp) => Promise<World>, table: Scenario[], options: TestAppOptions = {}): void {
  let template: string;
  let world: World;
  beforeAll(async () => {
    template = tempDir("phrasebook-template-");
    const t = await testApp({ ...options, dataDir: template });
    world = await prepare(t);
    await t.close(); // checkpoints the write-ahead log into the database file the copies take
  });
  afterAll(() => rmSync(template, { recursive: true, force: true }));

  describe(title, () => {
    for (const s of table) {
      test(`${s.method} ${s.url}: ${s.name}`, async () => {
        const dataDir = copyDataDir(template);
        const t = await testApp({ ...options, dataDir });
        try {
          const ctx: ScenarioContext = { t, ids: world.ids, as: (who) => clientFor(t, world, who) };
          await s.before?.(ctx);
          const eventsBefore = t.query<{ n: number }>("SELECT coalesce(max(id), 0) AS n FROM outbox_events")[0]!.n;
          const reply = await ctx.as(s.as ?? "admin").request(s.method, fillIds(s.url, world.ids), s.body, s.headers);
          const text = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body);
          expect({ status: reply.status, body: reply.body }).toMatchObject({ status: s.status });
          for (const part of s.contains ?? []) expect(text).toContain(fillIds(part, world.ids));
          for (const part of s.notContains ?? []) expect(text).not.toContain(fillIds(part, world.ids));
          if (s.events) {
            const written = t.query<{ event: string }>("SELECT event FROM outbox_events WHERE id > ? ORDER BY id", eventsBefore).map((r) => r.event);
            expect(written).toEqual(s.events);
          }
          await s.after?.(ctx, reply.body);
        } finally {
          await t.close();
          rmSync(dataDir, { recursive: true, force: true });
        }
      });
    }
  });
}

export { ORIGIN };
