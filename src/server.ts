import type { Server } from "bun";
import { clearUnfinishedPublishes, publishedReleaseIds } from "./releases/publish.ts";
import { startScheduledPublishing } from "./releases/schedule.ts";
import { bootstrapAdmin } from "./accounts/users.ts";
import { checkProviderAtStart } from "./accounts/sign-in/oidc-discovery.ts";
import { createApp, type App } from "./app.ts";
import { cleanStrayReleaseFiles } from "./bundles/files.ts";
import { Changes } from "./changes/changes.ts";
import { systemClock, type Clock } from "./common/clock.ts";
import { log } from "./common/log.ts";
import type { Settings } from "./config/settings.ts";
import type { AppDeps, HttpFetch } from "./deps.ts";
import { Observability } from "./observability/index.ts";
import { DATABASE_FILE, openDatabase, warnIfDataDirIsOpen, type Db } from "./storage/db.ts";
import { findLitestream, startReplicator } from "./replication/litestream.ts";
import { replicaLocation } from "./targets/replica.ts";
import { PublishTargets } from "./targets/registry.ts";
import { cdnRenderer } from "./delivery/cdn-renderer.ts";
import { MIRROR, type MirrorTarget } from "./targets/mirror.ts";
import { projectsWithoutSigningKey } from "./delivery/queries.ts";
import { join } from "node:path";
import { migrate } from "./storage/migrate.ts";
import { startWebhooks } from "./webhooks/runtime.ts";
import { startAuditRetentionJob } from "./audit/retention.ts";
import { startUncheckedValuesPass } from "./authoring/checks.ts";
import { startMemoryIndexPass } from "./memory/index-pass.ts";

export interface RunningServer {
  url: string;
  db: Db;
  stop(): Promise<void>;
}

/** The network as it is: Bun's fetch. */
export const systemFetch: HttpFetch = (input, init) => fetch(input, init);

/**
 * Request bodies above this are refused by Bun itself, before any handler runs: a bare 413
 * (no `{"error"}`), `Connection: close`, and the connection closed while the client is still
 * sending, after Bun's own `100 Continue` when the client asked for one, so a client may see EPIPE
 * and no answer at all (docs/deploy.md "Uploads refused from their headers"). Every route's own
 * limit is far below it (the import's 16 MB, dashboard-api/guards.ts): below this the app refuses
 * from the headers, with its answer, and Bun reads and throws away the rest of the body without
 * holding it (24 refused 60 MB uploads at once: 35 MB of memory), keeping the connection, so the
 * client finishes sending and reads the answer.
 */
export const MAX_REQUEST_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Everything start-up does before listening (docs/architecture.md "Start-up"): open storage, apply
 * migrations, create the bootstrap admin, clean what a killed process left behind, and build the
 * app. In-process tests start here too.
 */
export async function openApp(settings: Settings, clock: Clock = systemClock, httpFetch: HttpFetch = systemFetch): Promise<{ deps: AppDeps; app: App }> {
  const db = openDatabase(settings.dataDir, { replicated: settings.replicaUrl !== undefined });
  warnIfDataDirIsOpen(settings.dataDir);
  migrate(db.$client);
  const admin = await bootstrapAdmin(db, clock, settings.adminEmail, settings.adminPassword);
  if (admin) log.info("created bootstrap admin", { email: admin.email });

  // Nothing half-published is ever served (docs/product.md §3).
  clearUnfinishedPublishes(db);
  cleanStrayReleaseFiles(settings.dataDir, publishedReleaseIds(db));

  // Projects made before signing keys get their first (docs/delivery.md "Signatures"), before the
  // path record names keys.
  if (projectsWithoutSigningKey(db) > 0) {
    const made = (await import("./delivery/keys.ts")).ensureSigningKeys(db, clock);
    log.info("made signing keys for projects that had none", { projects: made });
  }
  const changes = new Changes(db, clock);
  // A database made before the path record gets one saying what it serves now (docs/architecture.md
  // "Publish targets"), before any target reads it.
  changes.paths.backfill();
  const deps: AppDeps = {
    settings,
    db,
    clock,
    changes,
    observability: new Observability({ logRequests: settings.logRequests }),
    fetch: httpFetch,
    targets: PublishTargets.fromSettings({ settings, db, clock, fetch: httpFetch, renderer: cdnRenderer({ settings, db, paths: changes.paths }) }, changes, clock),
  };
  // What the mirror has still to copy (docs/deploy.md "Monitoring"); only with a mirror.
  const mirror = deps.targets.target<MirrorTarget>(MIRROR);
  if (mirror) deps.observability.gauge("phrasebook_mirror_pending", "Objects waiting to be copied to or removed from the mirror's bucket", () => mirror.pending());
  return { deps, app: createApp(deps) };
}

/** Start-up, then listen and start the background work. The caller owns signals. */
export async function startServer(settings: Settings, clock: Clock = systemClock): Promise<RunningServer> {
  // Found before anything starts, so a missing executable stops the start with one line.
  const litestream = settings.replicaUrl ? findLitestream(settings.litestreamBin) : undefined;
  const { deps, app } = await openApp(settings, clock);
  const { db } = deps;
  // Litestream starts once migrations ran: it needs the database in WAL mode (docs/deploy.md
  // "Continuous replication"); the release copies catch up beside it.
  const replica = replicaLocation(settings);
  const replicator = litestream && replica ? startReplicator(litestream, join(settings.dataDir, DATABASE_FILE), replica, settings.replicaSyncIntervalSeconds) : undefined;
  // Each target follows the path record from where it stopped (docs/architecture.md "Publish targets").
  deps.targets.start();
  // Asked only once a request is being answered, so `server` is set by then.
  const peer = (request: Request) => server.requestIP(request)?.address;
  const server: Server<undefined> = Bun.serve({
    hostname: settings.host,
    port: settings.port,
    maxRequestBodySize: MAX_REQUEST_BODY_BYTES,
    fetch: (request) => app.handle(request, peer),
  });
  const url = `http://${settings.host === "0.0.0.0" ? "127.0.0.1" : settings.host}:${server.port}`;
  const webhooks = startWebhooks(deps);
  // Drafts scheduled to publish; one that came due while the server was down runs now (docs/releases.md).
  const schedules = startScheduledPublishing(deps, settings.dataDir);
  const auditRetention = startAuditRetentionJob(db, clock);
  // Values stored before there were message checks get theirs, in chunks after start (docs/messages.md).
  const checks = startUncheckedValuesPass(db, () => clock.now());
  // The translation memory's index, brought up to date after the writes that change it (docs/translators.md).
  const memoryIndex = startMemoryIndexPass(db);
  // The address bound, as bound: 0.0.0.0 takes every interface, not only loopback (docs/deploy.md).
  const address = `${server.hostname?.includes(":") ? `[${server.hostname}]` : server.hostname}:${server.port}`;
  log.info("listening", { address, port: server.port, public_url: settings.publicUrl, cdn_url: settings.cdnUrl, data_dir: settings.dataDir });
  // Single sign-on's settings against the provider, once, in the background: a mistake is a
  // warning in the log now, not at the first person's sign-in; it never stops the start
  // (docs/deploy.md "Single sign-on").
  void checkProviderAtStart(settings, deps.fetch);

  return {
    url,
    db,
    async stop() {
      await server.stop();
      await schedules.stop(); // a publish under way finishes before the database closes
      await webhooks.stop(); // after HTTP, so no new event arrives; before the database closes
      await checks.stop();
      await memoryIndex.stop();
      auditRetention.stop();
      deps.observability.stop();
      await deps.targets.stop();
      db.$client.close();
      await replicator?.stop(); // last: it copies the final changes, then exits
    },
  };
}
