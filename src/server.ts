import type { Server } from "bun";
import { createApp } from "./app.ts";
import { systemClock, type Clock } from "./common/clock.ts";
import { rememberClientAddress, TrustedProxies } from "./common/client-address.ts";
import { log } from "./common/log.ts";
import { ProjectChanges } from "./common/project-changes.ts";
import { pathPrefix, type Settings } from "./config/settings.ts";
import { Observability } from "./observability/index.ts";
import { bootstrapAdmin } from "./authoring/users.ts";
import { createCdn } from "./cdn/handler.ts";
import { publicApiFor } from "./public-api/service.ts";
import { cleanStrayReleaseFiles } from "./publish/files.ts";
import { openDatabase, type Db } from "./storage/db.ts";
import { migrate } from "./storage/migrate.ts";
import { startWebhooks } from "./webhooks/runtime.ts";

export interface RunningServer {
  url: string;
  db: Db;
  stop(): Promise<void>;
}

function noteClientAddress(request: Request, srv: Server<unknown>, proxies: TrustedProxies): void {
  const peer = srv.requestIP(request)?.address;
  if (peer) rememberClientAddress(request, proxies.enabled ? proxies.resolve(peer, request.headers.get("x-forwarded-for")) : peer);
}

/** Opens storage, applies migrations, starts HTTP and background work. The caller owns signals. */
export async function startServer(settings: Settings, clock: Clock = systemClock): Promise<RunningServer> {
  const db = openDatabase(settings.dataDir);
  migrate(db.$client);
  const admin = await bootstrapAdmin(db, clock, settings.adminEmail, settings.adminPassword);
  if (admin) log.info("created bootstrap admin", { email: admin.email });

  cleanStrayReleaseFiles(db, settings.dataDir); // CONTRACTS 3: nothing half-published is ever served

  const changes = new ProjectChanges();
  const observability = new Observability({ logRequests: settings.logRequests, cdnPrefix: pathPrefix(settings.cdnUrl) });
  const deps = { settings, db, clock, changes, observability };
  const app = createApp(deps);
  const publicApi = publicApiFor(deps);
  const cdn = createCdn({ db, settings, changes, observability });
  const proxies = new TrustedProxies(settings.trustedProxies);
  observability.gauge("phrasebook_outbox_pending", "Webhook events and deliveries waiting to be sent", () =>
    Number(
      db.$client
        .query<{ n: number }, []>(
          "SELECT (SELECT count(*) FROM outbox_events WHERE dispatched_at IS NULL) + (SELECT count(*) FROM deliveries WHERE status = 'pending') AS n",
        )
        .get()?.n ?? 0,
    ),
  );

  const server = Bun.serve({
    hostname: settings.host,
    port: settings.port,
    maxRequestBodySize: 16 * 1024 * 1024,
    fetch(request, srv) {
      const started = performance.now();
      // The CDN path needs the address only for its log line; the app needs it for limits.
      if (settings.logRequests) noteClientAddress(request, srv, proxies);
      // CDN files first, outside the framework: issue 3's throughput goal (see docs/publishing.md).
      const file = cdn.handle(request);
      if (file !== undefined) {
        if (file instanceof Response) {
          observability.request(request, file, started);
          return file;
        }
        return file.then((res) => observability.request(request, res, started));
      }
      // The public API before the framework too: issue 4's throughput goal (see docs/public-api.md).
      const api = publicApi.hit(request);
      if (api !== undefined) return observability.request(request, api, started);
      if (!settings.logRequests) noteClientAddress(request, srv, proxies);
      return app.handle(request).then((res) => observability.request(request, res, started));
    },
  });
  const url = `http://${settings.host === "0.0.0.0" ? "127.0.0.1" : settings.host}:${server.port}`;
  const webhooks = startWebhooks({ db, clock, settings, observability });
  log.info("listening", { url, port: server.port, public_url: settings.publicUrl, cdn_url: settings.cdnUrl, data_dir: settings.dataDir });

  return {
    url,
    db,
    async stop() {
      await server.stop();
      await webhooks.stop(); // after HTTP, so no new event arrives; before the database closes
      observability.stop();
      db.$client.close();
    },
  };
}
