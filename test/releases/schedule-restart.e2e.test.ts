/**
 * docs/releases.md "Scheduled publish": a schedule survives a restart of the compiled binary, and
 * one that came due while the server was down runs at start.
 */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startServer, tempDir } from "../helpers/server.ts";
import { eventually } from "../helpers/wait.ts";

test("releases §Scheduled publish: killed before its time, started after it, the draft is published at start", async () => {
  const dataDir = tempDir();
  let server = await startServer({ dataDir });
  try {
    const admin = await DashboardClient.loggedIn(server.url);
    const pid = await admin.project("Shop", "en", ["de"]);
    await admin.key(pid, "greeting", { en: "Hello", de: "Hallo" });
    const draft = (await admin.post(`/projects/${pid}/releases`, { name: "Morning", tag: "morning" })).body;
    const at = Date.now() + 3000;
    expect((await admin.put(`/projects/${pid}/releases/${draft.id}/schedule`, { at: new Date(at).toISOString() })).status).toBe(200);
    await server.kill("SIGKILL");
    // Down while the time passes.
    await Bun.sleep(Math.max(0, at - Date.now()) + 500);
    server = await startServer({ dataDir });
    const again = await DashboardClient.loggedIn(server.url);
    const published = await eventually(async () => {
      const r = (await again.get(`/projects/${pid}/releases/${draft.id}`)).body;
      return r.status === "published" && r;
    });
    expect(published.scheduled_at).toBeUndefined();
    expect((await fetch(published.languages.find((l: any) => l.code === "de").download_urls.json)).status).toBe(200);
    await eventually(() => server.output().includes("scheduled release published"), { what: "the log line of the scheduled publish" });
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);

test("releases §Scheduled publish: a schedule still ahead when the binary restarts publishes at its time, not before", async () => {
  const dataDir = tempDir();
  let server = await startServer({ dataDir });
  try {
    const admin = await DashboardClient.loggedIn(server.url);
    const pid = await admin.project("Shop", "en", ["de"]);
    await admin.key(pid, "greeting", { en: "Hello", de: "Hallo" });
    const draft = (await admin.post(`/projects/${pid}/releases`, { name: "Evening", tag: "evening" })).body;
    // Far enough ahead to outlive the restart on a busy machine.
    const at = Date.now() + 8000;
    expect((await admin.put(`/projects/${pid}/releases/${draft.id}/schedule`, { at: new Date(at).toISOString() })).status).toBe(200);
    await server.stop();
    server = await startServer({ dataDir });
    expect(Date.now()).toBeLessThan(at);
    const again = await DashboardClient.loggedIn(server.url);
    const waiting = (await again.get(`/projects/${pid}/releases/${draft.id}`)).body;
    expect(waiting).toMatchObject({ status: "draft", scheduled_at: new Date(at).toISOString() });
    const published = await eventually(
      async () => {
        const r = (await again.get(`/projects/${pid}/releases/${draft.id}`)).body;
        return r.status === "published" && r;
      },
      { timeoutMs: 30_000 },
    );
    expect(Date.parse(published.published_at)).toBeGreaterThanOrEqual(at);
    expect((await fetch(published.languages.find((l: any) => l.code === "de").download_urls.json)).status).toBe(200);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
