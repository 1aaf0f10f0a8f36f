/**
 * The app in-process (docs/architecture.md "Tests"): `createApp` on a temporary data dir with a
 * clock the test moves, answering `Request`s without a port. Real SQLite, real files, the real
 * routes and services; only the network and the process are left out. Tests of rules use this;
 * tests of the binary, signals, crashes, the CLI, the browser and nginx start a process instead
 * (test/helpers/server.ts).
 */
import { accessSync, constants, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { App } from "../../src/app.ts";
import type { Clock } from "../../src/common/clock.ts";
import { loadSettings } from "../../src/config/settings.ts";
import type { AppDeps, HttpFetch } from "../../src/deps.ts";
import { openApp } from "../../src/server.ts";
import { startWebhooks, type RunningWebhooks } from "../../src/webhooks/runtime.ts";
import { EVENT_TYPES } from "../../src/changes/events.ts";
import { startScheduledPublishing, type ScheduledPublishing } from "../../src/releases/schedule.ts";
import { DashboardClient } from "./dashboard-client.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./server.ts";

/** A clock that moves only when told to. Starts at 2026-01-01T00:00:00Z. */
export class ManualClock implements Clock {
  constructor(public ms = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}

/**
 * Where in-process tests keep their data dirs: a memory file system when the machine has one
 * (/dev/shm), else the temp dir. Real files either way; creating, copying and flushing the many
 * small data dirs of scenario tables just costs far less in memory.
 */
export const TEST_DIR_ROOT = (() => {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
})();

/** A new empty directory under TEST_DIR_ROOT. */
export function testDir(prefix = "phrasebook-test-"): string {
  return mkdtempSync(join(TEST_DIR_ROOT, prefix));
}

/** The origin in-process requests are addressed to (the default public URL of the test settings). */
export const ORIGIN = "http://localhost:8080";

export interface TestAppOptions {
  /** Settings as environment variables, on top of a temp data dir and the bootstrap admin. */
  env?: Record<string, string>;
  /** An existing data dir to open (it is not removed on close); default a new temp dir. */
  dataDir?: string;
  clock?: Clock;
  /** Start the webhook sender and retention job, as the server does (off unless asked). */
  webhooks?: boolean;
  /** Start scheduled publishing, as the server does (off unless asked; docs/releases.md). */
  schedules?: boolean;
  /** The TCP peer every request comes from (per-address limits, logs). */
  peer?: string;
  /** The app's outgoing HTTP (AppDeps.fetch); default the real fetch. */
  fetch?: HttpFetch;
  /**
   * Every project, those made later too, subscribed to every event (`subscribeAll`), for tests that
   * read the outbox: an event nobody subscribes to is not written.
   */
  subscribeAll?: boolean;
}

export interface TestApp {
  app: App;
  deps: AppDeps;
  dataDir: string;
  clock: Clock;
  /** The app's answer to a request for `path` (absolute URLs are answered too: download URLs). */
  fetch(pathOrUrl: string, init?: RequestInit, peer?: string): Promise<Response>;
  /** A dashboard API client talking to this app in-process, from `peer` (default the app's peer). */
  client(peer?: string): DashboardClient;
  /** A client signed in as the bootstrap admin, or as the given user. */
  login(email?: string, password?: string): Promise<DashboardClient>;
  /** Rows from the app's database. */
  query<T = Record<string, unknown>>(sql: string, ...params: (string | number | null)[]): T[];
  close(): Promise<void>;
}

export async function testApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? testDir();
  const clock = options.clock ?? new ManualClock();
  const settings = loadSettings({
    PHRASEBOOK_DATA_DIR: dataDir,
    PHRASEBOOK_PUBLIC_URL: ORIGIN,
    PHRASEBOOK_LOG_REQUESTS: "false",
    PHRASEBOOK_ADMIN_EMAIL: ADMIN_EMAIL,
    PHRASEBOOK_ADMIN_PASSWORD: ADMIN_PASSWORD,
    // The write budget counts in windows of the clock, which a test's clock rarely moves: tests
    // that set up hundreds of keys one by one would meet it. Its own tests set it
    // (test/adversarial/write-rate.test.ts).
    PHRASEBOOK_WRITE_RATE_LIMIT: "1000000",
    ...options.env,
  });
  const { deps, app } = await openApp(settings, clock, options.fetch);
  let webhooks: RunningWebhooks | undefined = options.webhooks ? startWebhooks(deps) : undefined;
  let schedules: ScheduledPublishing | undefined = options.schedules ? startScheduledPublishing(deps, dataDir) : undefined;
  const handle = async (request: Request, peer = options.peer ?? "127.0.0.1") => app.handle(request, () => peer);
  const transport = (request: Request, peer?: string) => handle(request, peer);
  const t: TestApp = {
    app,
    deps,
    dataDir,
    clock,
    fetch: (pathOrUrl, init, peer) => handle(new Request(pathOrUrl.startsWith("/") ? ORIGIN + pathOrUrl : pathOrUrl, init), peer),
    client: (peer) => new DashboardClient(ORIGIN, (request) => transport(request, peer)),
    login: (email = ADMIN_EMAIL, password = ADMIN_PASSWORD) => DashboardClient.loggedIn(ORIGIN, email, password, (request) => transport(request)),
    query: <T>(sql: string, ...params: (string | number | null)[]) => deps.db.$client.query(sql).all(...params) as T[],
    async close() {
      await webhooks?.stop();
      webhooks = undefined;
      await schedules?.stop();
      schedules = undefined;
      await deps.targets.stop();
      deps.observability.stop();
      // Prepared statements keep the connection open past close(), so the write-ahead log is folded
      // into the database file here: a copy of the data dir then holds everything.
      deps.db.$client.run("PRAGMA wal_checkpoint(TRUNCATE)");
      deps.db.$client.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  if (options.subscribeAll) {
    subscribeAll(t);
    // A temporary trigger lives on this connection only, the one the app creates projects on.
    deps.db.$client.run(`CREATE TEMP TRIGGER IF NOT EXISTS subscribe_new_projects AFTER INSERT ON main.projects BEGIN
      INSERT INTO webhook_endpoints (public_id, project_id, url, events, enabled, created_at)
      VALUES ('whk_all_' || NEW.id || '_' || hex(randomblob(6)), NEW.id, 'https://hooks.example.test/all', '${JSON.stringify(EVENT_TYPES)}', 1, 0);
    END`);
  }
  return t;
}

/**
 * A data dir prepared once and copied for each test that may change it: scenarios start from the
 * same state without paying for password hashing and set-up again. Close the app that built it
 * first (closing checkpoints the write-ahead log into the database file).
 */
export function copyDataDir(template: string): string {
  const dir = testDir("phrasebook-copy-");
  cpSync(template, dir, { recursive: true });
  return dir;
}

/**
 * Subscribes the project (a public id; every project when none) to every webhook event through an
 * enabled endpoint, written straight to the database: an event nobody subscribes to is not
 * written (docs/webhooks.md "Events nobody subscribes to"), and tests that read the outbox need
 * them written. The sender is off in tests unless asked, so nothing is delivered.
 */
export function subscribeAll(t: TestApp, projectPublicId?: string): void {
  const events = JSON.stringify(EVENT_TYPES);
  const projects = t.query<{ id: number }>(projectPublicId === undefined ? "SELECT id FROM projects" : "SELECT id FROM projects WHERE public_id = ?", ...(projectPublicId === undefined ? [] : [projectPublicId]));
  for (const { id } of projects) {
    t.deps.db.$client
      .query("INSERT INTO webhook_endpoints (public_id, project_id, url, events, enabled, created_at) VALUES (?, ?, 'https://hooks.example.test/all', ?, 1, 0)")
      .run(`whk_all_${id}_${Math.random().toString(36).slice(2)}`, id, events);
  }
}
