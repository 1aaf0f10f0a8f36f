/**
 * Publishing is all or nothing (product §3), also when the process dies: the real server process
 * is killed with SIGKILL in the middle of a publish and started again on the same data dir. The
 * large projects are prepared in-process on that data dir first, so the process only publishes.
 * What start-up cleans is checked in-process.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RELEASE_MARKER, releaseMarkerText } from "../../src/bundles/files.ts";
import { testApp } from "../helpers/app.ts";
import { DashboardClient } from "../helpers/dashboard-client.ts";
import { startServer, tempDir, type TestServer } from "../helpers/server.ts";
import { importJson, projectSlug, publish } from "../helpers/releases.ts";
import { capturingStdout } from "../helpers/stdout.ts";

const LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "pl", "pt-BR"];
const KEYS = 4000;

function bundle(code: string): Record<string, string> {
  return Object.fromEntries(Array.from({ length: KEYS }, (_, i) => [`screen.${i % 40}.item_${i}`, `${code} text for item ${i} {count}`]));
}

/**
 * Starts the server process on the data dir. Given the admin of an earlier start, its session is
 * carried over (sessions live in the database) instead of hashing the password again.
 */
async function boot(dataDir: string, earlier?: DashboardClient): Promise<{ server: TestServer; admin: DashboardClient }> {
  const server = await startServer({ dataDir });
  if (!earlier) return { server, admin: await DashboardClient.loggedIn(server.url) };
  const admin = new DashboardClient(server.url);
  admin.cookie = earlier.cookie;
  admin.csrf = earlier.csrf;
  return { server, admin };
}

/** Runs `prepare` against the app in-process on the data dir, then closes it (the data dir stays). */
async function prepareInProcess<T>(dataDir: string, prepare: (admin: DashboardClient) => Promise<T>): Promise<T> {
  const t = await testApp({ dataDir });
  try {
    return await prepare(await t.login());
  } finally {
    await t.close();
  }
}

function releaseEntries(dataDir: string): string[] {
  const root = join(dataDir, "releases");
  return existsSync(root) ? readdirSync(root) : [];
}

/**
 * Kills the server once the publish has written `files` files into its staging folder. Returns
 * false when the publish finished first (a fast machine), so the caller can try again.
 */
async function killDuringPublish(server: TestServer, files: number, publishing: Promise<unknown>): Promise<boolean> {
  const root = join(server.dataDir, "releases");
  let finished = false;
  void publishing.then(() => (finished = true));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !finished) {
    const staging = releaseEntries(server.dataDir).find((e) => e.startsWith(".staging-"));
    if (staging && readdirSync(join(root, staging)).length >= files) {
      await server.kill("SIGKILL");
      return true;
    }
    await Bun.sleep(1);
  }
  if (!finished) throw new Error("the publish never started writing files");
  return false;
}

describe("crash safety (product §3: all or nothing)", () => {
  test("product §3: a SIGKILL in the middle of publishing a large release leaves a draft, and nothing half-made is served after restart", async () => {
    const dataDir = tempDir();
    try {
      const { pid, first, slug } = await prepareInProcess(dataDir, async (admin) => {
        const pid = await admin.project("Crash", "en", LANGUAGES.slice(1));
        await importJson(admin, pid, "en", { only: "first release" });
        const first = await publish(admin, pid, "v1");
        for (const code of LANGUAGES) await importJson(admin, pid, code, bundle(code));
        return { pid, first, slug: await projectSlug(admin, pid) };
      });
      let { server, admin } = await boot(dataDir);
      let draft: { body: { id: string } } | undefined;
      for (let attempt = 1; attempt <= 5 && !draft; attempt++) {
        const candidate = await admin.post(`/projects/${pid}/releases`, { name: "Big", tag: `v2-${attempt}` });
        const publishing = admin.post(`/projects/${pid}/releases/${candidate.body.id}/publish`).catch((err: unknown) => err);
        if (await killDuringPublish(server, 6, publishing)) draft = candidate;
        await publishing;
        // A publish that won the race is complete and published; delete it and try again.
        if (!draft) expect((await admin.delete(`/projects/${pid}/releases/${candidate.body.id}`)).status).toBe(204);
      }
      if (!draft) throw new Error("every publish finished before the kill");
      expect(releaseEntries(dataDir).some((e) => e.startsWith(".staging-"))).toBe(true); // it really was half-way

      ({ server, admin } = await boot(dataDir, admin));
      try {
        expect(releaseEntries(dataDir).sort()).toEqual([first.id]);
        const row = server.query<{ status: string; slug: string | null }>("SELECT status, slug FROM releases WHERE public_id = ?", draft!.body.id)[0]!;
        expect(row).toEqual({ status: "draft", slug: null });
        expect(server.query("SELECT 1 FROM outbox_events WHERE event = 'release_published' AND payload LIKE ?", `%${draft!.body.id}%`)).toEqual([]);
        expect(await (await fetch(`${server.url}/cdn/p/${slug}/r/latest/en.json`)).json()).toEqual({ only: "first release" });
        expect(await (await fetch(`${server.url}/cdn/p/${slug}/r/latest/de.json`)).json()).toEqual({}); // v1 had no German yet
        // The draft publishes normally now, completely.
        const done = await admin.post(`/projects/${pid}/releases/${draft!.body.id}/publish`);
        expect(done.status).toBe(200);
        const de = await (await fetch(`${server.url}/cdn/p/${slug}/r/latest/de.json`)).json();
        expect(Object.keys(de).length).toBe(KEYS);
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  test("product §3: kills at any moment of a publish leave either a complete published release or a draft with no files", async () => {
    const dataDir = tempDir();
    try {
      const { pid, slug } = await prepareInProcess(dataDir, async (admin) => {
        const pid = await admin.project("Crash timing", "en", LANGUAGES.slice(1, 4));
        for (const code of LANGUAGES.slice(0, 4)) await importJson(admin, pid, code, bundle(code));
        return { pid, slug: await projectSlug(admin, pid) };
      });
      let { server, admin } = await boot(dataDir);
      const outcomes = new Set<string>();
      for (const delayMs of [0, 15, 40, 80, 150, 400]) {
        const draft = await admin.post(`/projects/${pid}/releases`, { name: `Kill after ${delayMs} ms`, tag: `kill-${delayMs}` });
        const publishing = admin.post(`/projects/${pid}/releases/${draft.body.id}/publish`).catch((err: unknown) => err);
        await Bun.sleep(delayMs);
        await server.kill("SIGKILL");
        await publishing;
        ({ server, admin } = await boot(dataDir, admin));
        const row = server.query<{ id: number; status: string; slug: string | null }>("SELECT id, status, slug FROM releases WHERE public_id = ?", draft.body.id)[0]!;
        const entries = releaseEntries(dataDir);
        expect(entries.filter((e) => e.startsWith("."))).toEqual([]);
        if (row.status === "draft") {
          outcomes.add("draft");
          expect(row.slug).toBeNull();
          expect(entries).not.toContain(draft.body.id);
        } else {
          outcomes.add("published");
          const shipped = server.query<{ code: string }>("SELECT code FROM release_languages WHERE release_id = ?", row.id).map((l) => l.code);
          expect(shipped.sort()).toEqual(LANGUAGES.slice(0, 4).sort());
          for (const code of shipped) {
            const res = await fetch(`${server.url}/cdn/p/${slug}/r/${row.slug}/${code}.json`);
            expect(res.status).toBe(200);
            expect(Object.keys(await res.json()).length).toBe(KEYS);
          }
        }
      }
      await server.stop();
      expect(outcomes.has("draft")).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  test("product §3: at start, stray staging folders, folders of unpublished releases and temporary files are removed and never served", async () => {
    const dataDir = tempDir();
    try {
      const { pid, published, draftId } = await prepareInProcess(dataDir, async (admin) => {
        const pid = await admin.project("Strays", "en");
        await importJson(admin, pid, "en", { a: "A" });
        const published = await publish(admin, pid, "v1");
        const draft = await admin.post(`/projects/${pid}/releases`, { name: "Draft", tag: "v2" });
        return { pid, published, draftId: draft.body.id as string };
      });
      // What a kill between the rename and the commit, or during compression, leaves behind.
      const root = join(dataDir, "releases");
      mkdirSync(join(root, draftId));
      writeFileSync(join(root, draftId, RELEASE_MARKER), releaseMarkerText(draftId));
      writeFileSync(join(root, draftId, "en.json"), '{"a": "half"}');
      mkdirSync(join(root, `.staging-${draftId}-abcdefgh`));
      writeFileSync(join(root, `.staging-${draftId}-abcdefgh`, RELEASE_MARKER), releaseMarkerText(draftId));
      writeFileSync(join(root, `.staging-${draftId}-abcdefgh`, "en.json"), "{");
      writeFileSync(join(root, published.id, ".tmp-abcdefgh-en.json.br"), "partial");
      // A kill between a staging folder's mkdir and its marker's flush: empty, or a marker cut short.
      mkdirSync(join(root, `.staging-${draftId}-emptyfld`));
      mkdirSync(join(root, `.staging-${draftId}-cutshort`));
      writeFileSync(join(root, `.staging-${draftId}-cutshort`, RELEASE_MARKER), releaseMarkerText(draftId).slice(0, 6));
      // Named like a staging folder but holding something else: not provably ours, left alone.
      mkdirSync(join(root, `.staging-${draftId}-operator`));
      writeFileSync(join(root, `.staging-${draftId}-operator`, "keep.txt"), "an operator's file");
      writeFileSync(join(dataDir, "notes.txt"), "an operator's file"); // outside releases/: left alone
      const { result: t, output } = await capturingStdout(() => testApp({ dataDir }));
      try {
        expect(releaseEntries(dataDir).sort()).toEqual([`.staging-${draftId}-operator`, published.id].sort());
        expect(readFileSync(join(root, `.staging-${draftId}-operator`, "keep.txt"), "utf8")).toBe("an operator's file");
        expect(readdirSync(join(root, published.id)).filter((f) => f.startsWith("."))).toEqual([RELEASE_MARKER]);
        expect(existsSync(join(dataDir, "notes.txt"))).toBe(true);
        const warning = output.split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line)).find((l) => l.msg === "removed stray release files");
        expect(warning).toMatchObject({ level: "warn", count: 5 });
        const admin = await t.login();
        expect(await (await t.fetch(`/cdn/p/${await projectSlug(admin, pid)}/r/latest/en.json`)).json()).toEqual({ a: "A" });
      } finally {
        await t.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
