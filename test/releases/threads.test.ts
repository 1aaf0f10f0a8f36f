/**
 * docs/publishing.md §2 "Threads": a large publish checks and compiles its languages on worker
 * threads. What it ships and what it refuses must not depend on where the work ran: the files of a
 * publish on threads are byte-identical to those of the same snapshot compiled on the server's
 * thread, a refusal lists the same errors, and allow_errors writes the same files.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { findProject } from "../../src/authoring/projects.ts";
import { HttpError } from "../../src/common/errors.ts";
import { CompilingThreads } from "../../src/releases/compile-threads.ts";
import { publishRelease } from "../../src/releases/publish.ts";
import type { SnapshotView } from "../../src/releases/snapshot.ts";
import { createRelease } from "../../src/releases/releases.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import { importJson } from "../helpers/releases.ts";

const KEYS = 400;

/** A project with placeholders, plurals, selects, ARB metadata, a context and a key not to translate. */
async function project(t: TestApp, broken: boolean) {
  const admin = await t.login();
  const pid = await admin.project(`Threads ${broken}`, "en", ["de", "fr-CA", "ja", "ar"]);
  const arb: Record<string, unknown> = { "@@locale": "en" };
  for (let i = 0; i < KEYS; i++) {
    const key = `item_${String(i).padStart(4, "0")}`;
    arb[key] = i % 3 === 0 ? `{count, plural, =0{No items} one{One item} other{{count} items for {name}}}` : i % 3 === 1 ? `Hello {name}, you have {when}` : `Plain text ${i} "quoted" \u00e9\u{1F600}`;
    if (i % 3 === 1) arb[`@${key}`] = { description: `greeting ${i}`, placeholders: { name: { type: "String", example: "Ana" }, when: { type: "DateTime", format: "yMd" } } };
    if (i % 3 === 0) arb[`@${key}`] = { placeholders: { count: { type: "int" }, name: {} } };
  }
  const base = await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "arb", content: JSON.stringify(arb) });
  expect(base.status).toBe(200);
  for (const code of ["de", "fr-CA", "ja", "ar"]) {
    const values: Record<string, string> = {};
    for (let i = 0; i < KEYS; i += code === "ja" ? 2 : 1) {
      const key = `item_${String(i).padStart(4, "0")}`;
      values[key] =
        i % 3 === 0
          ? code === "ar"
            ? `{count, plural, zero{لا شيء} one{واحد} two{اثنان} few{{count} قليل} many{{count} كثير} other{{count} {name}}}`
            : `{count, plural, one{Ein ${code}} other{{count} ${code} {name}}}`
          : i % 3 === 1
            ? `${code} {name} {when}`
            : `${code} text ${i} \\ \u2028 end`;
    }
    // Errors the checks on save let through are not what this test is about: broken values
    // go in as the base language's placeholders unknown to it, which a save also flags.
    if (broken && (code === "de" || code === "ar")) values.item_0001 = `${code} {nobody} {when}`;
    await importJson(admin, pid, code, values);
  }
  return { admin, pid, row: findProject(t.deps.db, pid) };
}

/** Runs `body` on a new test app holding the project, and closes the app. */
async function withProject(broken: boolean, body: (t: TestApp, p: Awaited<ReturnType<typeof project>>) => Promise<void>): Promise<void> {
  const t = await testApp();
  try {
    await body(t, await project(t, broken));
  } finally {
    await t.close();
  }
}

/** Publishes a new draft (or `draft`) with `threads`; answers the release's files by name, or the refusal. */
async function publishWith(t: TestApp, row: ReturnType<typeof findProject>, tag: string, threads: number, allowErrors = false, draft = createRelease(t.deps, row, null, { name: tag, tag })) {
  try {
    const published = await publishRelease(t.deps, t.dataDir, row, draft.id, { threads, allowErrors });
    const dir = join(t.dataDir, "releases", published.publicId);
    const files = Object.fromEntries(
      readdirSync(dir)
        .filter((f) => !f.startsWith("."))
        .sort()
        .map((f) => [f, readFileSync(join(dir, f))]),
    );
    return { files, refusal: undefined };
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return { files: undefined, refusal: { status: err.status, body: JSON.parse(err.body!) } };
  }
}

describe("publishing on worker threads (docs/publishing.md §2)", () => {
  test("two threads, one thread and the server's thread write byte-identical files", async () => {
    await withProject(false, async (t, { row }) => {
      const inline = await publishWith(t, row, "inline", 0);
      const two = await publishWith(t, row, "two", 2);
      const one = await publishWith(t, row, "one", 1);
      expect(Object.keys(inline.files!)).toEqual(["ar.arb", "ar.json", "ar.yaml", "de.arb", "de.json", "de.yaml", "en.arb", "en.json", "en.yaml", "fr-CA.arb", "fr-CA.json", "fr-CA.yaml", "ja.arb", "ja.json", "ja.yaml"]);
      for (const [name, bytes] of Object.entries(inline.files!)) {
        expect(two.files![name]!.equals(bytes)).toBe(true);
        expect(one.files![name]!.equals(bytes)).toBe(true);
      }
      // The files are what the project holds: metadata, plurals and the missing half of Japanese.
      const ja = JSON.parse(inline.files!["ja.json"]!.toString());
      expect(Object.keys(ja).length).toBe(KEYS / 2);
      const en = JSON.parse(inline.files!["en.arb"]!.toString());
      expect(en["@item0001"].placeholders.when).toEqual({ type: "DateTime", format: "yMd" });
      // No staging folder is left behind by any of them.
      expect(readdirSync(join(t.dataDir, "releases")).filter((f) => f.startsWith("."))).toEqual([]);
    });
  });

  test("a refusal on threads lists the same errors as one on the server's thread, and nothing of it stays", async () => {
    await withProject(true, async (t, { row, admin, pid }) => {
      const inline = await publishWith(t, row, "inline", 0);
      const two = await publishWith(t, row, "two", 2);
      expect(inline.refusal!.status).toBe(409);
      expect(inline.refusal!.body.error_count).toBe(2);
      expect(inline.refusal!.body.problems.map((p: any) => `${p.key} ${p.language_code} ${p.code}`)).toEqual(["item_0001 ar placeholder_unknown", "item_0001 de placeholder_unknown"]);
      expect(two.refusal).toEqual(inline.refusal);
      const drafts = (await admin.get(`/projects/${pid}/releases`)).body.items.map((r: any) => r.status);
      expect(drafts).toEqual(["draft", "draft"]);
      expect(readdirSync(join(t.dataDir, "releases"))).toEqual([]);
      // An admin's allow_errors ships the errors as they are, the same from either thread.
      const forcedInline = await publishWith(t, row, "forced-inline", 0, true);
      const forcedTwo = await publishWith(t, row, "forced-two", 2, true);
      expect(Object.keys(forcedTwo.files!).length).toBe(15);
      for (const [name, bytes] of Object.entries(forcedInline.files!)) expect(forcedTwo.files![name]!.equals(bytes)).toBe(true);
      expect(JSON.parse(forcedTwo.files!["de.json"]!.toString()).item_0001).toBe("de {nobody} {when}");
    });
  });

  test("every thread reads the same moment: a value another connection rewrites in every language at once, without pause, comes out the same in all of them", async () => {
    await withProject(false, async (t, { row }) => {
      const keyId = t.deps.db.$client.query<{ id: number }, [number]>("SELECT id FROM translation_keys WHERE project_id = ? AND key = 'item_0002'").get(row.id)!.id;
      // A writer on a thread and a connection of its own: one statement changes the value in every
      // language, so any moment of the database has one number in all of them. It commits without
      // pause, between any two reads of the threads that are not taken under the write lock. (It
      // runs only while the threads open their copies: a writer without pause starves every other
      // writer, SQLite not queueing them, the publish's own claim included.)
      const stop = new Int32Array(new SharedArrayBuffer(8));
      const writer = new Worker(
        URL.createObjectURL(
          new Blob([
            `import { Database } from "bun:sqlite";
             self.onmessage = ({ data: { path, keyId, stop } }) => {
               const db = new Database(path);
               db.run("PRAGMA busy_timeout = 5000");
               const write = db.prepare("UPDATE translations SET value = 'tick ' || ? WHERE key_id = ?");
               for (let n = 1; Atomics.load(stop, 0) === 0; n++) { write.run(n, keyId); Atomics.store(stop, 1, n); }
               db.close();
               postMessage("done");
             };`,
          ]),
        ),
      );
      const done = new Promise((resolve) => writer.addEventListener("message", resolve));
      writer.postMessage({ path: join(t.dataDir, "phrasebook.db"), keyId, stop });
      const pools: CompilingThreads[] = [];
      const views: SnapshotView[] = [];
      try {
        while (Atomics.load(stop, 1) < 10) await new Promise((r) => setTimeout(r, 5));
        for (let round = 0; round < 6; round++) {
          const pool = await CompilingThreads.start(2);
          pools.push(pool);
          views.push((await pool.openSnapshots(t.deps.db, row.id))!);
        }
      } finally {
        Atomics.store(stop, 0, 1);
        await done;
        writer.terminate();
      }
      expect(Atomics.load(stop, 1)).toBeGreaterThan(100);
      const ticks = new Set<string>();
      for (const [round, pool] of pools.entries()) {
        try {
          const dir = mkdtempSync(join(t.dataDir, "round-"));
          await pool.compile(views[round]!, dir, true);
          const seen = new Set(["en", "de", "fr-CA", "ja", "ar"].map((code) => JSON.parse(readFileSync(join(dir, `${code}.json`), "utf8")).item_0002 as string));
          expect([...seen]).toHaveLength(1);
          ticks.add([...seen][0]!);
        } finally {
          await pool.close();
        }
      }
      expect(ticks.size).toBeGreaterThan(1); // the writer did move between rounds
    });
  });

  test("a write lock held elsewhere (a long import) makes the publish wait for it without holding up the server's thread", async () => {
    await withProject(false, async (t, { row }) => {
      const draft = createRelease(t.deps, row, null, { name: "waits", tag: "waits" });
      const other = new Database(join(t.dataDir, "phrasebook.db"));
      other.run("BEGIN IMMEDIATE");
      other.run("UPDATE translations SET value = 'committed while the publish waited' WHERE key_id = (SELECT id FROM translation_keys WHERE project_id = ? AND key = 'item_0002')", [row.id]);
      let settled = false;
      const publishing = publishWith(t, row, "waits", 2, false, draft).finally(() => (settled = true));
      // The server's thread runs timers (and so answers requests) while the publish waits for the
      // lock: were it waiting inside SQLite, no timer would run until the lock was free, and the
      // lock is freed by this very thread below.
      for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 20));
      expect(settled).toBe(false);
      other.run("COMMIT");
      other.close();
      const { files } = await publishing;
      // It took its snapshot after the commit, in every language.
      for (const code of ["en", "de", "fr-CA", "ar"]) expect(JSON.parse(files![`${code}.json`]!.toString()).item_0002).toBe("committed while the publish waited");
    });
  });
});
