/**
 * Files: the data dir was once 0755 and phrasebook.db and backup archives 0644, so any local user
 * could read webhook secrets and password hashes. Every file Phrasebook creates must be 0600 and
 * every folder 0700, the backup archive and what it unpacks to included, and the start warns in one
 * line when the data dir is open to others (docs/deploy.md "Security notes"). Start-up once deleted
 * everything it did not know in `<data>/releases/`, an operator's folder included, and later still
 * any folder named like a release id with no published row, so an operator's folder of that name
 * vanished with its contents; it may remove only what it left behind itself, as the marker a
 * publish writes into its folder shows, never by name (docs/architecture.md "Start-up").
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RELEASE_MARKER, releaseMarkerText } from "../../src/bundles/files.ts";
import { backup } from "../../src/ops/backup.ts";
import { testApp, testDir } from "../helpers/app.ts";
import { capturingStdout } from "../helpers/stdout.ts";

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** Every file and folder under `dir` with its mode, as `relative/path: 600`. */
function modes(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    out.push(`${path.slice(base.length + 1)}: ${modeOf(path)}`);
    if (statSync(path).isDirectory()) out.push(...modes(path, base));
  }
  return out;
}

/** The entries of a ustar archive: name and mode. */
function tarEntries(path: string): { name: string; mode: string }[] {
  const bytes = readFileSync(path);
  const entries: { name: string; mode: string }[] = [];
  for (let at = 0; at + 512 <= bytes.length; ) {
    const header = bytes.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const text = (from: number, length: number) => header.subarray(from, from + length).toString("latin1").replace(/\0.*$/s, "");
    const name = (text(345, 155) ? text(345, 155) + "/" : "") + text(0, 100);
    const size = parseInt(text(124, 12), 8);
    entries.push({ name, mode: parseInt(text(100, 8), 8).toString(8) });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

describe("deploy.md Security notes, files: what Phrasebook writes is its owner's only (deploy.md Security notes)", () => {
  test("a new data dir is 0700; the database, its WAL and every release file are 0600, their folders 0700", async () => {
    const parent = testDir();
    const dataDir = join(parent, "data");
    try {
      const t = await testApp({ dataDir });
      try {
        const admin = await t.login();
        const pid = await admin.project("Modes", "en", ["de"]);
        await admin.key(pid, "a", { en: "A".repeat(5000), de: "B".repeat(5000) });
        const release = await admin.post(`/projects/${pid}/releases`, { name: "v1", tag: "v1" });
        const published = await admin.post(`/projects/${pid}/releases/${release.body.id}/publish`);
        // Compressed copies are written on first request (docs/cdn.md).
        for (const encoding of ["gzip", "br"]) expect((await t.fetch(published.body.languages[0].download_urls.json, { headers: { "accept-encoding": encoding } })).status).toBe(200);
        expect(modeOf(dataDir)).toBe("700");
        const found = modes(dataDir);
        expect(found).toContain("phrasebook.db: 600");
        expect(found).toContain("phrasebook.db-wal: 600");
        expect(found).toContain("phrasebook.db-shm: 600");
        expect(found.some((m) => m.endsWith(".json.br: 600"))).toBe(true);
        expect(found.some((m) => m.endsWith(".json.gz: 600"))).toBe(true);
        const loose = found.filter((m) => !m.endsWith(": 600") && !m.endsWith(": 700"));
        expect(loose).toEqual([]);
        const dirs = found.filter((m) => statSync(join(dataDir, m.split(": ")[0]!)).isDirectory());
        expect(dirs.every((m) => m.endsWith(": 700"))).toBe(true);
      } finally {
        await t.close();
      }
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  test("the backup archive is 0600 and its entries unpack as 0600 files in 0700 folders", async () => {
    const t = await testApp();
    const out = testDir();
    try {
      const admin = await t.login();
      const pid = await admin.project("Backup", "en");
      await admin.key(pid, "a", { en: "A" });
      await admin.post(`/projects/${pid}/webhooks`, { url: "https://hooks.example.test/in", events: ["key_created"], secret: "webhook-secret" });
      const release = await admin.post(`/projects/${pid}/releases`, { name: "v1", tag: "v1" });
      await admin.post(`/projects/${pid}/releases/${release.body.id}/publish`);
      const file = join(out, "backup.tar");
      await backup(t.dataDir, file);
      expect(modeOf(file)).toBe("600");
      const entries = tarEntries(file);
      expect(entries.length).toBeGreaterThanOrEqual(4);
      for (const e of entries) expect(`${e.name}: ${e.mode}`).toBe(`${e.name}: ${e.name.endsWith("/") ? "700" : "600"}`);
      // Nothing else is left beside the archive (the scratch folder is gone).
      expect(readdirSync(out)).toEqual(["backup.tar"]);
    } finally {
      await t.close();
      rmSync(out, { recursive: true, force: true });
    }
  });

  test("a database an older version left 0644 is made 0600 at start", async () => {
    const dataDir = testDir();
    try {
      await (await testApp({ dataDir })).close();
      for (const name of readdirSync(dataDir)) chmodSync(join(dataDir, name), 0o644);
      const { result: t, lines } = await capturingStdout(() => testApp({ dataDir }));
      await t.close();
      expect(modeOf(join(dataDir, "phrasebook.db"))).toBe("600");
      expect(lines.filter((l) => l.msg === "made a database file readable by its owner only").length).toBeGreaterThanOrEqual(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("a data dir open to other users gets one warning line at start, a private one none", async () => {
    const dataDir = testDir();
    try {
      chmodSync(dataDir, 0o755);
      const open = await capturingStdout(() => testApp({ dataDir }));
      await open.result.close();
      const warnings = open.lines.filter((l) => l.level === "warn" && l.msg.includes("data dir"));
      expect(warnings).toEqual([expect.objectContaining({ msg: "the data dir is open to other users of this machine; run chmod 700 on it", mode: "755", data_dir: dataDir })]);
      expect(modeOf(dataDir)).toBe("755"); // the operator's folder: warned about, not changed
      chmodSync(dataDir, 0o700);
      const closed = await capturingStdout(() => testApp({ dataDir }));
      await closed.result.close();
      expect(closed.lines.filter((l) => l.level === "warn" && l.msg.includes("data dir"))).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("architecture.md Start-up: the start removes only what Phrasebook left behind (architecture.md Start-up)", () => {
  test("an operator's folders and files in releases/ survive a start; stray staging folders, unpublished release folders and temporary files go", async () => {
    const dataDir = testDir();
    try {
      const t = await testApp({ dataDir });
      const admin = await t.login();
      const pid = await admin.project("Strays", "en");
      await admin.key(pid, "a", { en: "A" });
      const release = await admin.post(`/projects/${pid}/releases`, { name: "v1", tag: "v1" });
      const published = (await admin.post(`/projects/${pid}/releases/${release.body.id}/publish`)).body;
      const draft = (await admin.post(`/projects/${pid}/releases`, { name: "v2", tag: "v2" })).body;
      await t.close();

      const root = join(dataDir, "releases");
      // What a killed publish leaves: its folders carry the marker naming their release.
      const ours: [string, string][] = [[`.staging-${draft.id}-abcdefgh`, draft.id], [draft.id, draft.id], ["rel_DeletedRelease000001", "rel_DeletedRelease000001"]];
      for (const [dir, id] of ours) {
        mkdirSync(join(root, dir));
        writeFileSync(join(root, dir, "en.json"), "{");
        writeFileSync(join(root, dir, RELEASE_MARKER), releaseMarkerText(id));
      }
      writeFileSync(join(root, published.id, ".tmp-abcdefgh-en.json.br"), "partial");
      const theirs = ["notes", "rel_short", ".staging-something-else", "archive-2025", "README.txt", "rel_DeletedRelease000002.txt"];
      mkdirSync(join(root, "notes", "deep"), { recursive: true });
      writeFileSync(join(root, "notes", "deep", "keep.md"), "an operator's notes");
      mkdirSync(join(root, "rel_short"));
      mkdirSync(join(root, ".staging-something-else"));
      mkdirSync(join(root, "archive-2025"));
      writeFileSync(join(root, "README.txt"), "mine");
      writeFileSync(join(root, "rel_DeletedRelease000002.txt"), "a file, not a folder");
      closeSync(openSync(join(root, published.id, "operator-note.txt"), "w"));

      const { result: again, lines } = await capturingStdout(() => testApp({ dataDir }));
      await again.close();
      const left = readdirSync(root).sort();
      expect(left).toEqual([...theirs, published.id].sort());
      expect(existsSync(join(root, "notes", "deep", "keep.md"))).toBe(true);
      expect(readdirSync(join(root, published.id)).filter((f) => f.startsWith("."))).toEqual([RELEASE_MARKER]);
      expect(existsSync(join(root, published.id, "operator-note.txt"))).toBe(true);
      expect(lines.find((l) => l.msg === "removed stray release files")).toMatchObject({ count: 4 });
      expect(lines.find((l) => l.msg === "left entries in the releases folder that Phrasebook did not write")).toMatchObject({ count: theirs.length });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("an operator's folders named like a release id or a staging folder, with no release row and no marker of ours, survive a start with their contents", async () => {
    const dataDir = testDir();
    try {
      const t = await testApp({ dataDir });
      const admin = await t.login();
      const pid = await admin.project("Lookalikes", "en");
      await admin.key(pid, "a", { en: "A" });
      const draft = (await admin.post(`/projects/${pid}/releases`, { name: "v1", tag: "v1" })).body;
      await t.close();

      const root = join(dataDir, "releases");
      // No row at all, a draft's id, a staging name, and a marker naming another release.
      const lookalikes: [string, string | null][] = [
        ["rel_OperatorsFolder00001", null],
        [draft.id, null],
        [`.staging-${draft.id}-opera123`, null],
        ["rel_OperatorsFolder00002", releaseMarkerText("rel_SomeOtherRelease0001")],
      ];
      for (const [dir, marker] of lookalikes) {
        mkdirSync(join(root, dir, "deep"), { recursive: true });
        writeFileSync(join(root, dir, "deep", "keep.md"), "an operator's notes");
        if (marker !== null) writeFileSync(join(root, dir, RELEASE_MARKER), marker);
      }

      const { result: again, lines } = await capturingStdout(() => testApp({ dataDir }));
      await again.close();
      for (const [dir] of lookalikes) expect(readFileSync(join(root, dir, "deep", "keep.md"), "utf8")).toBe("an operator's notes");
      expect(lines.find((l) => l.msg === "removed stray release files")).toBeUndefined();
      expect(lines.find((l) => l.msg === "left entries in the releases folder that Phrasebook did not write")).toMatchObject({ count: lookalikes.length });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
