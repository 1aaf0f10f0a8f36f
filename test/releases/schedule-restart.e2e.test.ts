/**
 * docs/releases.md "Scheduled publish": a schedule survives a restart of the compiled binary, and
 * one that came due while the server was down runs at start. No assertion here depends on how fast
 * the machine restarts the server: the overdue case waits until the time has passed, and the case
 * still ahead is an hour ahead and proven armed by the server's own log line (the firing itself
 * at its time is tested in process, test/releases/operations.test.ts).
 */
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startServer, tempDir, type TestServer } from "../helpers/server.ts";
import { eventually } from "../helpers/wait.ts";

/** A project with one key and a draft scheduled for `at`, on `server`. */
async function scheduledDraft(server: TestServer, tag: string, at: number): Promise<{ pid: string; draftId: string }> {
  const admin = await DashboardClient.loggedIn(server.url);
  const pid = await admin.project("Shop", "en", ["de"]);
  await admin.key(pid, "greeting", { en: "Hello", de: "Hallo" });
  const draft = (await admin.post(`/projects/${pid}/releases`, { name: tag, tag })).body;
  expect((await admin.put(`/projects/${pid}/releases/${draft.id}/schedule`, { at: new Date(at).toISOString() })).status).toBe(200);
  return { pid, draftId: draft.id };
}

test("releases §Scheduled publish: killed before its time, started after it, the draft is published at start", async () => {
  const dataDir = tempDir();
  let server = await startServer({ dataDir });
  try {
    const at = Date.now() + 3000;
    const { pid, draftId } = await scheduledDraft(server, "morning", at);
    await server.kill("SIGKILL");
    // Down while the time passes.
    await Bun.sleep(Math.max(0, at - Date.now()) + 500);
    server = await startServer({ dataDir });
    const again = await DashboardClient.loggedIn(server.url);
    const published = await eventually(async () => {
      const r = (await again.get(`/projects/${pid}/releases/${draftId}`)).body;
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

test("releases §Scheduled publish: a schedule still ahead when the binary restarts is armed at start for its time", async () => {
  const dataDir = tempDir();
  let server = await startServer({ dataDir });
  try {
    // Seconds are dropped, as a person's schedule has none; an hour ahead outlives any restart.
    const at = Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000;
    const { pid, draftId } = await scheduledDraft(server, "evening", at);
    await server.stop();
    server = await startServer({ dataDir });
    // Armed by the start itself: no request has touched the schedule since.
    const armed = `"msg":"scheduled publish armed","at":"${new Date(at).toISOString()}"`;
    await eventually(() => server.output().includes(armed), { what: "the restarted server arming the schedule" });
    const again = await DashboardClient.loggedIn(server.url);
    expect((await again.get(`/projects/${pid}/releases/${draftId}`)).body).toMatchObject({ status: "draft", scheduled_at: new Date(at).toISOString() });
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
