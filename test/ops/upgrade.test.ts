import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { MIGRATIONS } from "../../src/storage/migrations/index.ts";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startServer, tempDir } from "../helpers/server.ts";

/**
 * Upgrades (docs/deploy.md "Upgrades"): a data dir made by an older build (test/fixtures/upgrade, written by
 * scripts/make-upgrade-fixture.ts and restored the documented way) opens in this build: pending
 * migrations apply, and every user, project, release file, token and pending delivery is intact.
 */
const FIXTURES = join(import.meta.dir, "..", "fixtures", "upgrade");
const fixtures = readdirSync(FIXTURES).filter((f) => f.endsWith(".json"));

describe("upgrades from older builds' data dirs", () => {
  test("there is at least one older data dir to upgrade from", () => {
    expect(fixtures.length).toBeGreaterThan(0);
  });

  for (const name of fixtures) {
    const meta = JSON.parse(readFileSync(join(FIXTURES, name), "utf8"));
    test(`a data dir written by ${meta.version} is upgraded and serves the same content`, async () => {
      const dataDir = join(tempDir("phrasebook-upgrade-"), "data");
      mkdirSync(dataDir);
      expect(Bun.spawnSync(["tar", "-xf", join(FIXTURES, name.replace(".json", ".tar")), "-C", dataDir]).exitCode).toBe(0);
      const files = readdirSync(join(dataDir, "releases"), { recursive: true }).filter((f) => String(f).endsWith(".json"));
      const server = await startServer({ dataDir, env: { PHRASEBOOK_ADMIN_EMAIL: "", PHRASEBOOK_ADMIN_PASSWORD: "", PHRASEBOOK_WEBHOOK_RETRY_DELAYS: "86400,86400,86400,86400" } });
      try {
        expect(server.query<{ n: number }>("SELECT count(*) AS n FROM __drizzle_migrations")[0]!.n).toBe(MIGRATIONS.length);
        const admin = await DashboardClient.loggedIn(server.url, meta.email, meta.password);
        const project = await admin.get(`/projects/${meta.project_id}`);
        expect(project.body.cdn_slug).toBe(meta.cdn_slug);
        expect((await admin.get(`/projects/${meta.project_id}/keys`)).body.page_info.total_count).toBeGreaterThan(40);

        const list = await fetch(`${server.url}/v1/releases`, { headers: { authorization: `Bearer ${meta.token}` } });
        expect(list.status).toBe(200);
        const releases = ((await list.json()) as any).items;
        expect(releases.length).toBe(1);
        const detail = (await (await fetch(`${server.url}/v1/releases/${releases[0].id}`, { headers: { authorization: `Bearer ${meta.token}` } })).json()) as any;
        expect(detail.languages.length).toBe(files.length);
        // docs/formats.md: a release published before releases recorded their formats shipped JSON,
        // YAML and ARB, and the migration records those; each is served as it lies on the disk.
        expect(server.query<{ formats: string }>("SELECT formats FROM releases WHERE status = 'published'").map((r) => JSON.parse(r.formats))).toEqual([["json", "yaml", "arb"]]);
        for (const lang of detail.languages) {
          expect(Object.keys(lang.download_urls)).toEqual(["json", "yaml", "arb"]);
          for (const [format, href] of Object.entries<string>(lang.download_urls)) {
            const served = await fetch(`${server.url}${new URL(href).pathname}`);
            expect(served.status).toBe(200);
            const onDisk = readFileSync(join(dataDir, "releases", releases[0].id, `${lang.code}.${format}`));
            expect(Buffer.from(await served.arrayBuffer()).equals(onDisk)).toBe(true);
          }
        }
        // docs/delivery.md: the project got its signing key at the start, and its release, published
        // before manifests, a manifest of its files as they lie on the disk, signed with that key.
        const key = (await admin.get(`/projects/${meta.project_id}/signing-key`)).body;
        expect(key.n).toBe(1);
        const manifest = await (await fetch(`${server.url}/cdn/p/${meta.cdn_slug}/r/latest/manifest.json`)).json();
        expect(manifest.release.id).toBe(releases[0].id);
        expect(manifest.sequence).toBeGreaterThan(0);
        for (const lang of detail.languages) {
          const entry = manifest.languages[lang.code].files.json;
          expect(entry.bytes).toBe(readFileSync(join(dataDir, "releases", releases[0].id, `${lang.code}.json`)).length);
        }
        expect((await fetch(`${server.url}/cdn/p/${meta.cdn_slug}/r/latest/manifest.json.minisig`)).status).toBe(200);
        const pending = server.query<{ status: string }>("SELECT status FROM deliveries");
        expect(pending.length).toBeGreaterThan(0);
        expect(pending.every((d) => d.status === "pending")).toBe(true);
      } finally {
        await server.stop();
        rmSync(join(dataDir, ".."), { recursive: true, force: true });
      }
    }, 60_000);
  }
});
