import { describe, expect, test } from "bun:test";
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { ROOT, startServer, tempDir } from "../helpers/server.ts";

/** The executable under test: the one `make test` built, or a fresh build of the sources. */
function binary(): string {
  if (process.env.PHRASEBOOK_BIN) return process.env.PHRASEBOOK_BIN;
  const out = join(tempDir("phrasebook-build-"), "phrasebook");
  const build = Bun.spawnSync([process.execPath, "build", "--compile", "--minify", join(ROOT, "src", "main.ts"), "--outfile", out], { cwd: ROOT });
  if (build.exitCode !== 0) throw new Error(build.stderr.toString());
  return out;
}

describe("the single executable", () => {
  test("runs alone from any directory: embedded migrations, serves the dashboard API", async () => {
    // Copy the executable into an empty directory so nothing of the repository is near it.
    const lonely = tempDir("phrasebook-lonely-");
    const exe = join(lonely, "phrasebook");
    copyFileSync(binary(), exe);
    Bun.spawnSync(["chmod", "+x", exe]);
    const version = Bun.spawnSync([exe, "version"], { cwd: lonely });
    expect(version.stdout.toString()).toMatch(/^phrasebook \d+\.\d+\.\d+/);
    const prev = process.env.PHRASEBOOK_BIN;
    process.env.PHRASEBOOK_BIN = exe;
    const server = await startServer({ dataDir: join(lonely, "data") });
    try {
      const admin = await DashboardClient.loggedIn(server.url);
      const pid = await admin.project("From the binary", "en", ["fr"]);
      expect((await admin.get(`/projects/${pid}/languages`)).body.items).toHaveLength(2);
      expect(server.query<{ n: number }>("SELECT count(*) AS n FROM __drizzle_migrations")[0]!.n).toBeGreaterThan(0);
    } finally {
      process.env.PHRASEBOOK_BIN = prev;
      if (prev === undefined) delete process.env.PHRASEBOOK_BIN;
      await server.stop();
      rmSync(lonely, { recursive: true, force: true });
    }
  }, 60_000);
});
