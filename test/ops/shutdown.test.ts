/**
 * Graceful shutdown of the real server process on SIGTERM (docs/deploy.md "Install and run"):
 * requests in flight finish, then it exits 0.
 */
import { describe, expect, test } from "bun:test";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startServer } from "../helpers/server.ts";

describe("graceful shutdown on SIGTERM", () => {
  test("requests in flight finish, then the process exits 0 and refuses new connections", async () => {
    const server = await startServer();
    const admin = await DashboardClient.loggedIn(server.url);
    const pid = await admin.project("Shutdown", "en", ["de", "fr"]);
    for (const code of ["en", "de", "fr"]) {
      const content = JSON.stringify(Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`key.${i}`, `${code} value ${i} `.repeat(4)])));
      const imported = await admin.post(`/projects/${pid}/import`, { language_code: code, format: "json", content });
      expect(imported.status).toBe(200);
    }
    const rel = await admin.post(`/projects/${pid}/releases`, { name: "Big", tag: "big" });

    let replied = false;
    const publishing = admin.post(`/projects/${pid}/releases/${rel.body.id}/publish`).then((r) => {
      replied = true;
      return r;
    });
    await Bun.sleep(20); // the publish is under way
    server.proc.kill("SIGTERM");
    const inFlight = !replied;
    const reply = await publishing;
    expect(inFlight, "the publish was still in flight at the signal").toBe(true);
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe("published");
    expect(await server.proc.exited).toBe(0);
    expect(server.output()).toContain('"msg":"shutting down"');
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  }, 60_000);
});
