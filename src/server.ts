import { createApp } from "./app.ts";
import { systemClock, type Clock } from "./common/clock.ts";
import { rememberClientAddress } from "./common/client-address.ts";
import { log } from "./common/log.ts";
import { ProjectChanges } from "./common/project-changes.ts";
import type { Settings } from "./config/settings.ts";
import { bootstrapAdmin } from "./authoring/users.ts";
import { createCdn } from "./cdn/handler.ts";
import { cleanStrayReleaseFiles } from "./publish/files.ts";
import { openDatabase, type Db } from "./storage/db.ts";
import { migrate } from "./storage/migrate.ts";
import { startWebhooks } from "./webhooks/runtime.ts";

export interface RunningServer {
  url: string;
  db: Db;
  stop(): Promise<void>;
}

/** Opens storage, applies migrations, starts HTTP and background work. The caller owns signals. */
export async function startServer(settings: Settings, clock: Clock = systemClock): Promise<RunningServer> {
  const db = openDatabase(settings.dataDir);
  migrate(db.$client);
  const admin = await bootstrapAdmin(db, clock, settings.adminEmail, settings.adminPassword);
  if (admin) log.info("created bootstrap admin", { email: admin.email });

  cleanStrayReleaseFiles(db, settings.dataDir); // CONTRACTS 3: nothing half-published is ever served

  const changes = new ProjectChanges();
  const app = createApp({ settings, db, clock, changes });
  const cdn = createCdn({ db, settings, changes });

  const server = Bun.serve({
    hostname: settings.host,
    port: settings.port,
    maxRequestBodySize: 16 * 1024 * 1024,
    fetch(request, srv) {
      // CDN files first, outside the framework: issue 3's throughput goal (see docs/publishing.md).
      const file = cdn.handle(request);
      if (file !== undefined) return file;
      rememberClientAddress(request, srv.requestIP(request)?.address);
      return app.handle(request);
    },
  });
  const url = `http://${settings.host === "0.0.0.0" ? "127.0.0.1" : settings.host}:${server.port}`;
  const webhooks = startWebhooks({ db, clock, settings });
  log.info("listening", { url, port: server.port, public_url: settings.publicUrl, cdn_url: settings.cdnUrl, data_dir: settings.dataDir });

  return {
    url,
    db,
    async stop() {
      await server.stop();
      await webhooks.stop(); // after HTTP, so no new event arrives; before the database closes
      db.$client.close();
    },
  };
}
