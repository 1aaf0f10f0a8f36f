/**
 * TMX 1.4b in and out (docs/translators.md "TMX"): the export of a project's base and
 * target pairs, an import into a project's memory (a worker thread's job, off the server's
 * thread), what a foreign file may hold (its DTD named, CDATA, inline codes, UTF-16), what is
 * refused (entities, broken XML, a foreign source language), and a round trip that loses nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { askWhileLocked, closeWriteLockProbe } from "../helpers/write-lock.ts";
import { readTmx, segmentText } from "../../src/memory/tmx.ts";

let t: TestApp;
let admin: DashboardClient;
let source: string;
let target: string;

/** Values a round trip must keep exactly (docs/translators.md "TMX"). */
const SAMPLE: Record<string, [string, string]> = {
  "plain": ["Save", "Speichern"],
  "amp & <tags>": ["Fish & chips <b>now</b>", "Fisch & Pommes <b>jetzt</b>"],
  "literal.lt": ["a &lt; b", "a &lt; b ist wahr"],
  'quote"key': ['Say "hi"', "Sag „hallo“"],
  "icu": ["{count, plural, one {# file} other {# files}}", "{count, plural, one {# Datei} other {# Dateien}}"],
  "apostrophe": ["It's '{'quoted'}'", "Es ist '{'zitiert'}'"],
  "lines": ["First line\nSecond line", "Erste Zeile\r\nZweite Zeile"],
  "spaces": ["  padded\t", " gepolstert  "],
  "emoji.rtl": ["Hi 👋 שלום", "Hallo 👋 שלום"],
  "cdata.end": ["ends with ]]> here", "endet mit ]]> hier"],
  "entities": ["&amp;nbsp; is text", "&amp;nbsp; ist Text"],
};

const xmllint = (text: string) => {
  const r = Bun.spawnSync(["xmllint", "--noout", "-"], { stdin: new TextEncoder().encode(text) });
  return { ok: r.exitCode === 0, stderr: r.stderr.toString() };
};

beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  source = await admin.project("Source", "en", ["de"]);
  for (const [key, [en, de]] of Object.entries(SAMPLE)) await admin.key(source, key, { en, de });
  target = await admin.project("Target", "en-US", ["de-DE", "fr"]);
});

afterAll(() => t.close());

const exportOf = async (pid: string, language: string, imported = false) => admin.download(`/projects/${pid}/tm.tmx?language=${language}${imported ? "&imported=true" : ""}`);

describe("translators.md: TMX", () => {
  test("the export is TMX 1.4b: well-formed, one unit per key with both values, the key as tuid", async () => {
    const file = await exportOf(source, "de");
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("application/x-tmx+xml");
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="Source.en-de.tmx"');
    expect(xmllint(file.text)).toEqual({ ok: true, stderr: "" });
    expect(file.text).toContain('<tmx version="1.4">');
    expect(file.text).toMatch(/<header creationtool="Phrasebook" creationtoolversion="[^"]+" segtype="block" o-tmf="Phrasebook" adminlang="en" srclang="en" datatype="plaintext" creationdate="\d{8}T\d{6}Z"\/>/);
    const read = await readTmx(file.text);
    expect(read.units).toHaveLength(Object.keys(SAMPLE).length);
    for (const u of read.units) expect(u.variants).toEqual([{ lang: "en", text: SAMPLE[u.tuid!]![0] }, { lang: "de", text: SAMPLE[u.tuid!]![1] }]);
  });

  test("round trip: exported, imported into another project (en-US, de-DE) and exported again, every unit is the same", async () => {
    const first = await exportOf(source, "de");
    const imported = await admin.upload("POST", `/projects/${target}/tm/import`, first.text, "application/xml");
    expect(imported.status).toBe(200);
    expect(imported.body).toMatchObject({ imported: Object.keys(SAMPLE).length, skipped: 0 });
    const again = await exportOf(target, "de-DE", true);
    const a = await readTmx(first.text);
    const b = await readTmx(again.text);
    expect(b.units.map((u) => [u.tuid, u.variants.map((v) => v.text)])).toEqual(a.units.map((u) => [u.tuid, u.variants.map((v) => v.text)]));
    // The body, byte for byte, but for the language codes and the header's date.
    const body = (text: string) => text.slice(text.indexOf("<body>")).replace(/xml:lang="[^"]+"/g, "");
    expect(body(again.text)).toBe(body(first.text));
  });

  test("a foreign file: its DTD named, comments, CDATA, inline codes put back, languages matched to the project's, TMX 1.1's lang", async () => {
    const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE tmx SYSTEM "tmx14.dtd">
<tmx version="1.4"><header creationtool="OmegaT" creationtoolversion="6" segtype="sentence" o-tmf="OmegaT" adminlang="EN-US" srclang="EN-US" datatype="plaintext"/>
<body>
  <!-- <tu><tuv xml:lang="en-US"><seg>commented out</seg></tuv><tuv xml:lang="de"><seg>nein</seg></tuv></tu> -->
  <tu tuid="1"><tuv xml:lang="EN-US"><seg>Click <bpt i="1">&lt;b&gt;</bpt>here<ept i="1">&lt;/b&gt;</ept> <ph>{name}</ph></seg></tuv><tuv xml:lang="de-de"><seg>Klicke <bpt i="1">&lt;b&gt;</bpt>hier<ept i="1">&lt;/b&gt;</ept> <ph>{name}</ph></seg></tuv></tu>
  <tu><tuv lang="en-US"><seg><![CDATA[a < b & c]]></seg></tuv><tuv lang="fr-FR"><seg><hi type="x">a &lt; b</hi> &amp; c</seg></tuv></tu>
  <tu><tuv xml:lang="en-US"><seg>Only English</seg></tuv><tuv xml:lang="ja"><seg>日本語</seg></tuv></tu>
  <tu><tuv xml:lang="en-US"><seg>   </seg></tuv><tuv xml:lang="de"><seg>leer</seg></tuv></tu>
  <tu tuid="1"><tuv xml:lang="EN-US"><seg>Click <bpt i="1">&lt;b&gt;</bpt>here<ept i="1">&lt;/b&gt;</ept> <ph>{name}</ph></seg></tuv><tuv xml:lang="de-de"><seg>Klicke <bpt i="1">&lt;b&gt;</bpt>hier<ept i="1">&lt;/b&gt;</ept> <ph>{name}</ph></seg></tuv></tu>
</body></tmx>`;
    const r = await admin.upload("POST", `/projects/${target}/tm/import?name=OmegaT`, tmx, "text/xml; charset=utf-8");
    expect(r.body).toMatchObject({ imported: 2, skipped: 3 }); // no target in the project, a blank source, a duplicate
    const units = t.query<{ source: string; language_code: string; text: string }>(
      "SELECT u.source, t.language_code, t.text FROM memory_units u JOIN memory_targets t ON t.unit_id = u.id JOIN memory_imports i ON i.id = u.import_id WHERE i.name = 'OmegaT' ORDER BY u.id, t.language_code",
    );
    expect(units).toEqual([
      { source: "Click <b>here</b> {name}", language_code: "de-DE", text: "Klicke <b>hier</b> {name}" },
      { source: "a < b & c", language_code: "fr", text: "a < b & c" },
    ]);
  });

  test("UTF-16 with a byte order mark, as some tools write it", async () => {
    const text = `<?xml version="1.0" encoding="UTF-16"?><tmx version="1.4"><header srclang="en" creationtool="x" creationtoolversion="1" segtype="sentence" o-tmf="x" adminlang="en" datatype="plaintext"/><body><tu><tuv xml:lang="en"><seg>Größe</seg></tuv><tuv xml:lang="fr"><seg>Taille</seg></tuv></tu></body></tmx>`;
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes.set([0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      bytes[2 + i * 2] = text.charCodeAt(i) & 0xff;
      bytes[3 + i * 2] = text.charCodeAt(i) >> 8;
    }
    const r = await admin.upload("POST", `/projects/${target}/tm/import`, bytes, "application/x-tmx+xml");
    expect(r.body).toMatchObject({ imported: 1, skipped: 0 });
  });

  test("refused with the line: an entity declaration, broken XML, no TMX, another source language, bytes that are no UTF-8", async () => {
    const cases: [string | Uint8Array<ArrayBuffer>, string][] = [
      ['<?xml version="1.0"?>\n<!DOCTYPE tmx [<!ENTITY lol "lol">]>\n<tmx version="1.4"><body/></tmx>', "invalid TMX file: line 2"],
      ['<tmx version="1.4"><header srclang="en"/><body><tu><tuv xml:lang="en"><seg>x</tuv></tu></body></tmx>', "invalid TMX file: line 1, column"],
      ["<xliff/>", "no <tmx> element"],
      ['<tmx version="1.4"><header srclang="fr"/><body/></tmx>', "its source language (srclang) is fr, not this project's base language en-US"],
      [new Uint8Array([0x3c, 0x74, 0xff, 0xfe, 0x3e]), "not valid UTF-8"],
    ];
    for (const [body, error] of cases) {
      const r = await admin.upload("POST", `/projects/${target}/tm/import`, body, "application/xml");
      expect({ status: r.status, error: r.body.error }).toEqual({ status: 400, error: expect.stringContaining(error) });
    }
    expect(t.query<{ n: number }>("SELECT count(*) AS n FROM memory_imports WHERE units = 0")[0]!.n).toBe(0);
  });

  test("a body that is not XML is a 415; one declared past the limit a 413 before it is read", async () => {
    expect((await admin.upload("POST", `/projects/${target}/tm/import`, "<tmx/>", "text/plain")).status).toBe(415);
    const res = await t.fetch(`/dashboard/api/projects/${target}/tm/import`, {
      method: "POST",
      headers: { cookie: admin.cookie, "x-csrf-token": admin.csrf, "content-type": "application/xml", "content-length": String(65 * 1024 * 1024) },
      body: "<tmx/>",
    });
    expect(res.status).toBe(413);
  });

  test("an import runs on a worker thread: the server answers while the import holds the write lock", async () => {
    const units = Array.from({ length: 20_000 }, (_, i) => `<tu><tuv xml:lang="en"><seg>Unit number ${i} of many</seg></tuv><tuv xml:lang="fr"><seg>Unité ${i}</seg></tuv></tu>`);
    const file = `<tmx version="1.4"><header srclang="en"/><body>${units.join("\n")}</body></tmx>`;
    let finished = false;
    const importing = admin.upload("POST", `/projects/${target}/tm/import?name=Big`, file, "application/xml").finally(() => (finished = true));
    // Answers given while the import's own connection holds the lock: never, were it this thread's.
    const path = join(t.dataDir, "phrasebook.db");
    const { whileLocked } = await askWhileLocked(path, () => finished, async () => {
      expect((await admin.get(`/projects/${target}/tm/imports`)).status).toBe(200);
    });
    closeWriteLockProbe(path);
    expect((await importing).body).toMatchObject({ imported: 20_000, skipped: 0 });
    expect(whileLocked).toBeGreaterThan(0);
  });

  test("segment text: tags dropped, native code and CDATA kept, references decoded once", () => {
    expect(segmentText('a <ph x="1">&lt;br/&gt;</ph> <it pos="begin">&lt;i&gt;</it>b <sub>note</sub>')).toBe("a <br/> <i>b note");
    expect(segmentText("&amp;lt; <![CDATA[<raw>&amp;]]>")).toBe("&lt; <raw>&amp;");
  });
});
