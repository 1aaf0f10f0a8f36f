/**
 * An upgrade (product §7, docs/messages.md "After an upgrade"): values stored by a build without
 * message checks have no findings. The server starts and answers at once, then checks them in
 * chunks; the process here is the real executable on the 0.1.0 fixture data dir.
 */
import { expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startServer, tempDir } from "../helpers/server.ts";
import { eventually } from "../helpers/wait.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "upgrade");

test("product §7: values of a 0.1.0 data dir are checked after start, without holding up start-up", async () => {
  const meta = JSON.parse(readFileSync(join(FIXTURES, "data-0.1.0.json"), "utf8"));
  const dataDir = join(tempDir("phrasebook-upgrade-checks-"), "data");
  mkdirSync(dataDir);
  expect(Bun.spawnSync(["tar", "-xf", join(FIXTURES, "data-0.1.0.tar"), "-C", dataDir]).exitCode).toBe(0);
  const server = await startServer({ dataDir, env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "", PHRASEBOOK_WEBHOOK_RETRY_DELAYS: "86400,86400,86400,86400" } });
  try {
    const unchecked = () => server.query<{ n: number }>("SELECT count(*) AS n FROM translations WHERE checked_at IS NULL")[0]!.n;
    // The pass writes its log line after its last commit, and the line comes through a pipe: wait for both.
    const logged = () => server.output().includes("message checks: checked values stored without findings");
    await eventually(() => unchecked() === 0 && logged(), { timeoutMs: 20_000, intervalMs: 50, what: () => `${unchecked()} values still unchecked, line logged: ${logged()}` });
    const admin = await DashboardClient.loggedIn(server.url, meta.email, meta.password);
    const problems = (await admin.get(`/projects/${meta.project_id}/problems`)).body.items;
    // The demo's Portuguese plurals have no `many` case, which only a million and its multiples
    // take (docs/messages.md "Plural categories"): no finding, and none counted.
    expect(problems).toEqual([]);
    const progress = (await admin.get(`/projects/${meta.project_id}/progress`)).body.languages;
    expect(progress.find((l: any) => l.code === "pt-BR")).toMatchObject({ errors: 0, warnings: 0 });
  } finally {
    await server.stop();
    rmSync(join(dataDir, ".."), { recursive: true, force: true });
  }
}, 60_000);
