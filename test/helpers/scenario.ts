/**
 * Table-driven tests of the dashboard API (docs/architecture.md "Tests"), after PocketBase's
 * ApiScenario: each row names a request, who sends it and what must come back (status, content,
 * and the webhook events the request wrote). Every row runs on its own copy of one prepared data
 * dir, in-process, so a row that deletes or publishes never disturbs the next.
 *
 * A world is prepared once per process and `prepare` function (and options), however many tables
 * and files use it: preparing hashes passwords, copying a data dir does not. The rows of a table
 * run concurrently (each has its own data dir, app, clock and in-memory state), so a row must touch
 * nothing but its own context.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DashboardClient, type Reply } from "./dashboard-client.ts";
import { copyDataDir, ORIGIN, subscribeAll, TEST_DIR_ROOT, testApp, testDir, type TestApp, type TestAppOptions } from "./app.ts";

/**
 * The API tokens a scenario can send its request with (`Authorization: Bearer`, no cookie), by the
 * scopes they hold (docs/product.md §6); `token:other` is a token of another project, with every scope.
 */
export type TokenWho = "token:read" | "token:write" | "token:publish" | "token:other";

/**
 * Users holding one project role each in the roles world (test/dashboard-api/roles-world.ts,
 * docs/dashboard-api.md "Project roles"); `outsider` holds none.
 */
export type RoleWho = "viewer" | "translator" | "reviewer" | "developer" | "publisher" | "project-admin" | "outsider";

/** The people (and tokens) a scenario can send its request as. */
export type Who = "admin" | "member" | "anonymous" | "admin-without-csrf" | TokenWho | RoleWho;

/** The signed-in users a world can hold. */
export type SessionWho = "admin" | "member" | RoleWho;

export interface World {
  /** Ids made while preparing the data dir, by name (`pid`, `keyId`, `releaseId`, ...). */
  ids: Record<string, string>;
  /** The signed-in sessions, as cookie and CSRF token. */
  sessions: Partial<Record<SessionWho, { cookie: string; csrf: string }>>;
  /** Token values for the `token:*` callers, when the world made them. */
  tokens?: Partial<Record<TokenWho, string>>;
}

export interface ScenarioContext {
  t: TestApp;
  ids: Record<string, string>;
  /** A client signed in as `who` (from `peer` when given, else the app's default peer). */
  as(who: Who, peer?: string): DashboardClient;
}

export interface Scenario {
  name: string;
  method: string;
  /** Path under /dashboard/api; `:name` parts are replaced by the world's ids. */
  url: string;
  /** The JSON body; `:name` parts of its strings are replaced by the world's ids too. A file route's body (bytes, or text with `headers["content-type"]`) goes as it is. */
  body?: unknown;
  as?: Who;
  /** Extra request headers; `:name` parts of their values are replaced by the world's ids too. */
  headers?: Record<string, string>;
  /** The client address the request comes from (per-address limits). */
  peer?: string;
  status: number;
  /** Substrings the response body (or its error message, unescaped) must contain. */
  contains?: string[];
  /** Substrings it must not contain. */
  notContains?: string[];
  /** Webhook events the request must write to the outbox, in order (default: checked only if given). */
  events?: string[];
  before?: (ctx: ScenarioContext) => unknown | Promise<unknown>;
  after?: (ctx: ScenarioContext, body: any, reply: Reply) => unknown | Promise<unknown>;
}

/** Replaces `:name` parts of a path with the world's ids (unknown names stay as written). */
export function fillIds(template: string, ids: Record<string, string>): string {
  return template.replace(/:([A-Za-z]+)/g, (whole, name: string) => ids[name] ?? whole);
}

function clientFor(t: TestApp, world: World, who: Who, peer?: string): DashboardClient {
  const client = t.client(peer);
  if (who === "anonymous") return client;
  if (who.startsWith("token:")) {
    const token = world.tokens?.[who as TokenWho];
    if (!token) throw new Error(`the world has no ${who}`);
    client.bearer = token;
    return client;
  }
  const session = world.sessions[who === "admin-without-csrf" ? "admin" : (who as SessionWho)];
  if (!session) throw new Error(`the world has no ${who} session`);
  client.cookie = session.cookie;
  client.csrf = who === "admin-without-csrf" ? "" : session.csrf;
  return client;
}

interface Template {
  dir: string;
  world: World;
}

// One template per prepare function and options, shared by every file of the run (bun runs all
// test files in one process with one module registry). `bun test` has no hook at the end of a run,
// so a template's name carries the pid of its run, and the next run removes those of runs that
// have ended.
const templates = new Map<string, Promise<Template>>();
const prepareIds = new Map<Function, number>();
const TEMPLATE_PREFIX = "phrasebook-template-";

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

for (const name of readdirSync(TEST_DIR_ROOT)) {
  const pid = Number(/^phrasebook-template-(\d+)-/.exec(name)?.[1]);
  if (pid && pid !== process.pid && !isRunning(pid)) rmSync(join(TEST_DIR_ROOT, name), { recursive: true, force: true });
}

function templateKey(prepare: Function, options: TestAppOptions): string {
  if (options.dataDir) throw new Error("a world is prepared in a data dir of its own");
  if (!prepareIds.has(prepare)) prepareIds.set(prepare, prepareIds.size);
  return JSON.stringify([prepareIds.get(prepare), options.env ?? {}, options.webhooks ?? false, options.peer ?? ""]);
}

/** The data dir `prepare` builds (once per process), and the world it describes. */
export function prepared(prepare: (t: TestApp) => Promise<World>, options: TestAppOptions = {}): Promise<Template> {
  const key = templateKey(prepare, options);
  let template = templates.get(key);
  if (!template) {
    template = (async () => {
      const dir = testDir(`${TEMPLATE_PREFIX}${process.pid}-`);
      const t = await testApp({ ...options, dataDir: dir });
      try {
        return { dir, world: await prepare(t) };
      } finally {
        await t.close(); // checkpoints the write-ahead log into the database file the copies take
      }
    })();
    templates.set(key, template);
  }
  return template;
}

export interface WorldApp extends ScenarioContext {
  world: World;
  close(): Promise<void>;
}

/**
 * The app on a fresh copy of a prepared world, for tests that are no row: a sequence of requests,
 * concurrency, a sweep over every route. Close it when done.
 */
export async function openWorld(
  prepare: (t: TestApp) => Promise<World>,
  options: TestAppOptions & { /** Settings of the opened copy only, on top of `env` (the world is prepared without them). */ appEnv?: Record<string, string> } = {},
): Promise<WorldApp> {
  const { clock, appEnv, ...worldOptions } = options;
  const { dir: template, world } = await prepared(prepare, worldOptions);
  const dataDir = copyDataDir(template);
  const t = await testApp({ ...worldOptions, env: { ...worldOptions.env, ...appEnv }, clock, dataDir });
  return {
    t,
    world,
    ids: world.ids,
    as: (who, peer) => clientFor(t, world, who, peer),
    async close() {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Rows written by this connection so far: equal before and after means the request wrote nothing. */
function totalChanges(t: TestApp): number {
  return t.query<{ n: number }>("SELECT total_changes() AS n")[0]!.n;
}

/**
 * Runs a table. `prepare` builds the world once in an app of its own (whose data dir becomes the
 * template); each scenario then runs on a copy. Besides what a row asks, every refused request
 * (status 400 and up) must have written nothing at all: no row, no event.
 */
export function scenarios(title: string, prepare: (t: TestApp) => Promise<World>, table: Scenario[], options: TestAppOptions = {}): void {
  let world: World;
  let template: string;
  beforeAll(async () => {
    ({ dir: template, world } = await prepared(prepare, options));
  });

  describe(title, () => {
    for (const s of table) {
      test.concurrent(`${s.method} ${s.url}: ${s.name}`, async () => {
        const dataDir = copyDataDir(template);
        const t = await testApp({ ...options, dataDir });
        try {
          const ctx: ScenarioContext = { t, ids: world.ids, as: (who, peer) => clientFor(t, world, who, peer) };
          await s.before?.(ctx);
          // Events are written only for a subscribed endpoint (docs/webhooks.md "Events nobody subscribes to").
          if (s.events) subscribeAll(t);
          const eventsBefore = t.query<{ n: number }>("SELECT coalesce(max(id), 0) AS n FROM outbox_events")[0]!.n;
          const changesBefore = totalChanges(t);
          const auditBefore = t.query<{ n: number }>("SELECT coalesce(max(id), 0) AS n FROM audit_log")[0]!.n;
          const headers = Object.fromEntries(Object.entries(s.headers ?? {}).map(([name, value]) => [name, fillIds(value, world.ids)]));
          // `:name` parts of the body's strings too (a release id in `{"release_id": ":releaseId"}`).
          const body = s.body === undefined || s.body instanceof Uint8Array ? s.body : JSON.parse(fillIds(JSON.stringify(s.body), world.ids));
          const reply = await ctx.as(s.as ?? "admin", s.peer).request(s.method, fillIds(s.url, world.ids), body, headers);
          // The body as sent, and an error's message unescaped, so a row can say `'"name"'` for the field named.
          const text = (typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body)) + (typeof reply.body?.error === "string" ? "\n" + reply.body.error : "");
          expect({ status: reply.status, body: reply.body }).toMatchObject({ status: s.status });
          for (const part of s.contains ?? []) expect(text).toContain(fillIds(part, world.ids));
          for (const part of s.notContains ?? []) expect(text).not.toContain(fillIds(part, world.ids));
          if (s.events) {
            const written = t.query<{ event: string }>("SELECT event FROM outbox_events WHERE id > ? ORDER BY id", eventsBefore).map((r) => r.event);
            expect(written).toEqual(s.events);
          }
          if (s.status >= 400) {
            expect(typeof reply.body?.error, "a refused request answers {\"error\"}").toBe("string");
            // ...but a refused sign-in's audit entry (failed sign-ins are logged: docs/dashboard-api.md
            // "Audit log").
            const logged = t.query<{ action: string }>("SELECT action FROM audit_log WHERE id > ?", auditBefore).map((r) => r.action);
            expect(logged.filter((a) => a !== "sign_in_failed"), "a refused request logs no action but a failed sign-in").toEqual([]);
            expect(totalChanges(t) - logged.length, "a refused request writes nothing").toBe(changesBefore);
          }
          await s.after?.(ctx, reply.body, reply);
        } finally {
          await t.close();
          rmSync(dataDir, { recursive: true, force: true });
        }
      });
    }
  });
}

export { ORIGIN };
