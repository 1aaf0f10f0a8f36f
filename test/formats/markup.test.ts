/**
 * Markup in values (docs/formats.md "Markup in values", "XLIFF"; docs/messages.md "Tags"), through the dashboard API in-process and the formats' own
 * tools. An Android string with `<xliff:g>` exported as XLIFF was not namespace-well-formed
 * (xmllint: "Namespace prefix xliff on g is not defined") and xliff2po converted nothing; `<b>`
 * was written raw into XLIFF 1.2; `&amp;` reached the editor as `&amp;`. Now stored values keep
 * tags as tags and a literal `<` as `&lt;`, references decoded; XLIFF carries the tags as inline
 * elements with their original code, and a file pushed back gives the same Android file.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FormatName } from "../../src/formats/registry.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { publish } from "../helpers/releases.ts";

let t: TestApp;
let admin: DashboardClient;
let work: string;
beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  work = mkdtempSync(join(tmpdir(), "phrasebook-markup-"));
});
afterAll(async () => {
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

function run(cmd: string[]): { code: number; out: string } {
  const r = Bun.spawnSync(cmd, { stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode ?? -1, out: `${r.stdout.toString()}${r.stderr.toString()}` };
}

function saved(name: string, text: string): string {
  const path = join(work, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

async function importFile(pid: string, format: FormatName, content: string, language_code?: string) {
  const r = await admin.post(`/projects/${pid}/import`, { format, content, ...(language_code ? { language_code } : {}) });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

async function exported(pid: string, rid: string, format: FormatName, query: string): Promise<string> {
  const r = await admin.download(`/projects/${pid}/releases/${rid}/export?format=${format}${query}`);
  expect(r.status, r.text).toBe(200);
  return r.text;
}

async function values(pid: string, code: string): Promise<Record<string, string>> {
  const list = await admin.get(`/projects/${pid}/keys?page_size=500`);
  return Object.fromEntries(list.body.items.filter((k: any) => k.translations[code]).map((k: any) => [k.key, k.translations[code].value]));
}

const ANDROID_EN = `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="amp">Terms &amp; Conditions &#233;t&#xE9; &lt;v2&gt; &quot;quoted&quot;</string>
    <string name="cdata"><![CDATA[<b>not markup</b> & raw]]></string>
    <string name="escaped">Less \\u003C more</string>
    <plurals name="files">
        <item quantity="one"><b>%d</b> file</item>
        <item quantity="other"><b>%d</b> files</item>
    </plurals>
    <string name="link">Read <a href="https://example.test/?a=1&amp;b=2">the terms</a><br/>now</string>
    <string name="markup">Tap <b>Save</b> to keep <xliff:g id="count" example="5">%d</xliff:g> items</string>
    <string name="time">It\\'s <xliff:g id="time">%1$s</xliff:g> o\\'clock</string>
</resources>
`;

describe("stored values: tags as tags, a literal < as &lt;, every other reference decoded", () => {
  test("an Android base file", async () => {
    const pid = await admin.project("Stored markup", "en");
    await importFile(pid, "android", ANDROID_EN, "en");
    expect(await values(pid, "en")).toEqual({
      // `"` is Android's quoting (aapt2 drops it), `&quot;` or not.
      amp: "Terms & Conditions été &lt;v2> quoted",
      cdata: "&lt;b>not markup&lt;/b> & raw",
      escaped: "Less &lt; more",
      files: "{count, plural, one {<b>%d</b> file} other {<b>%d</b> files}}",
      link: 'Read <a href="https://example.test/?a=1&amp;b=2">the terms</a><br/>now',
      markup: 'Tap <b>Save</b> to keep <xliff:g id="count" example="5">%d</xliff:g> items',
      time: 'It\'s <xliff:g id="time">%1$s</xliff:g> o\'clock',
    });
  });

  test("an XLIFF file's text likewise, and other tools' inline elements (<g>, <x/>) kept as written", async () => {
    const pid = await admin.project("Stored XLIFF markup", "en", ["de"]);
    const xliff = `<?xml version="1.0"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" target-language="de" datatype="plaintext" original="x"><body>
<trans-unit id="a"><source>Tom &amp; Jerry &lt;3</source><target>Tom &amp; Jerry &lt;3 caf&#xE9;</target></trans-unit>
<trans-unit id="b"><source>Tap <g id="1" ctype="bold">Save</g><x id="2"/></source><target>Tippe <g id="1" ctype="bold">Speichern</g><x id="2"/></target></trans-unit>
</body></file></xliff>`;
    await importFile(pid, "xliff", xliff);
    expect(await values(pid, "de")).toEqual({ a: "Tom & Jerry &lt;3 café", b: 'Tippe <g id="1" ctype="bold">Speichern</g><x id="2"/>' });
  });
});

describe("Android -> XLIFF 1.2 and 2.0 -> back: well-formed, read by translate-toolkit, the same Android file", () => {
  test("tags become inline elements; xmllint, xliff2po (every unit) and msgfmt take the files; pushed back, the Android export is byte for byte the same", async () => {
    const pid = await admin.project("Agency markup", "en", ["de"]);
    await importFile(pid, "android", ANDROID_EN, "en");
    const de = ANDROID_EN.replace("Tap <b>Save</b> to keep", "Tippe auf <b>Speichern</b>, um").replace("items", "Elemente zu behalten").replace("It\\'s <xliff:g", "Es ist <xliff:g").replace("o\\'clock", "Uhr");
    await importFile(pid, "android", de, "de");
    const release = await publish(admin, pid, "v1");
    const android = await exported(pid, release.id, "android", "&language=de");
    const compiled = run(["aapt2", "compile", saved("v1/res/values-de/strings.xml", android), "-o", join(work, "v1")]);
    expect(compiled.code, compiled.out).toBe(0);

    for (const version of ["1.2", "2.0"] as const) {
      const xliff = await exported(pid, release.id, "xliff", `&language=de&xliff_version=${version}`);
      // No raw Android markup: every tag is an inline element holding its original code.
      expect(xliff).not.toContain("<xliff:g");
      expect(xliff).not.toContain("<b>");
      const path = saved(`xliff/de-${version}.xlf`, xliff);
      const lint = run(["xmllint", "--noout", path]);
      expect(lint.code, lint.out).toBe(0);
      if (version === "1.2") {
        expect(xliff).toContain('<bpt id="2">&lt;xliff:g id="count" example="5"&gt;</bpt>%d<ept id="2">&lt;/xliff:g&gt;</ept>');
        const converted = run(["xliff2po", "--progress=none", "-i", path, "-o", `${path}.po`]);
        expect(converted.code, converted.out).toBe(0);
        const po = readFileSync(`${path}.po`, "utf8");
        // Every unit converted, its code shown as written.
        expect(po.match(/^#: /gm)).toHaveLength(7);
        expect(po.replace(/"\n"/g, "")).toContain('msgstr "Tippe auf <b>Speichern</b>, um <xliff:g id=\\"count\\" example=\\"5\\">%d</xliff:g> Elemente zu behalten"');
        const check = run(["msgfmt", "--check", "-o", "/dev/null", `${path}.po`]);
        expect(check.code, check.out).toBe(0);
      } else {
        checkXliff20Inline(xliff);
      }
      // A translator's tool sends it back as it is: the stored values and the Android file do not change.
      const again = await admin.post(`/projects/${pid}/import`, { format: "xliff", content: xliff, dry_run: true });
      expect(again.status).toBe(200);
      expect(again.body.source_differs, version).toBeUndefined();
      expect(again.body.updated_translations, version).toBe(0);
    }
    const edited = (await exported(pid, release.id, "xliff", "&language=de")).replace("Tippe auf <bpt", "Drücke auf <bpt");
    await importFile(pid, "xliff", edited);
    const v2 = await publish(admin, pid, "v2");
    const after = await exported(pid, v2.id, "android", "&language=de");
    expect(after).toBe(android.replace("Tippe auf <b>", "Drücke auf <b>"));
  });
});

/** XLIFF 2.0 core: inline `<pc>`/`<ph>` name codes of the unit's `<originalData>`, which comes before the segments; ids match between source and target. */
function checkXliff20Inline(text: string): void {
  for (const unit of text.split("<unit ").slice(1)) {
    const data = new Set([...unit.matchAll(/<data id="([^"]+)">/g)].map((m) => m[1]));
    const refs = [...unit.matchAll(/dataRef(?:Start|End)?="([^"]+)"/g)].map((m) => m[1]);
    for (const ref of refs) expect(data.has(ref), ref).toBe(true);
    if (data.size > 0) {
      expect(unit.indexOf("<originalData>")).toBeLessThan(unit.indexOf("<segment"));
      if (unit.includes("<notes>")) expect(unit.indexOf("<notes>")).toBeLessThan(unit.indexOf("<originalData>"));
    }
    const ids = (part: string) => [...(/<(source|target)[^>]*>([\s\S]*?)<\/\1>/.exec(unit.slice(unit.indexOf(`<${part}`))) ?? ["", "", ""])[2]!.matchAll(/<(?:pc|ph) id="(\d+)"/g)].map((m) => m[1]).sort();
    if (unit.includes("<target")) expect(ids("target")).toEqual(ids("source"));
  }
}

describe("values the writers cannot take as markup are text: every file stays well-formed", () => {
  test("an unclosed tag, a closing tag alone, <br> without its slash, a < in text, an undeclared prefix", async () => {
    const pid = await admin.project("Loose markup", "en");
    await importFile(pid, "json", JSON.stringify({ a: "Tap <b>Save", b: "Done</i> now", c: "Line<br>break", d: "a < b > c", e: "<foo:bar>x</foo:bar>", f: "<b>ok</b> & <a href='x?a=1&b=2'>link</a>" }), "en");
    const release = await publish(admin, pid, "v1");
    const android = await exported(pid, release.id, "android", "&language=en");
    expect(android).toContain("<string name=\"a\">Tap &lt;b&gt;Save</string>");
    expect(android).toContain("<string name=\"f\"><b>ok</b> &amp; <a href='x?a=1&amp;b=2'>link</a></string>");
    expect(run(["xmllint", "--noout", saved("loose/values/strings.xml", android)]).code).toBe(0);
    const compiled = run(["aapt2", "compile", join(work, "loose/values/strings.xml"), "-o", join(work, "loose")]);
    expect(compiled.code, compiled.out).toBe(0);
    for (const version of ["1.2", "2.0"]) {
      const xliff = await exported(pid, release.id, "xliff", `&language=en&xliff_version=${version}`);
      const lint = run(["xmllint", "--noout", saved(`loose/${version}.xlf`, xliff)]);
      expect(lint.code, lint.out).toBe(0);
    }
  });
});

describe("plural forms numbers rarely reach (docs/formats.md \"Plurals\"): never added by a writer", () => {
  const frAndroid = `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <plurals name="files">\n        <item quantity="one">%d fichier</item>\n        <item quantity="other">%d fichiers</item>\n    </plurals>\n</resources>\n`;

  test("a French Android plural without many: no plural_category problem, and no many in any export", async () => {
    const pid = await admin.project("French plurals", "en", ["fr", "it", "es"]);
    await importFile(pid, "android", frAndroid.replace(/fichier/g, "file"), "en");
    for (const code of ["fr", "it", "es"]) await importFile(pid, "android", frAndroid, code);
    const problems = (await admin.get(`/projects/${pid}/problems`)).body.items;
    expect(problems).toEqual([]);
    const release = await publish(admin, pid, "v1");
    for (const code of ["fr", "it", "es"]) {
      const android = await exported(pid, release.id, "android", `&language=${code}`);
      expect(android).not.toContain('quantity="many"');
      // Pushed back, nothing changes.
      const again = await admin.post(`/projects/${pid}/import`, { format: "android", content: android, language_code: code, dry_run: true });
      expect(again.body.updated_translations).toBe(0);
      expect(await exported(pid, release.id, "stringsdict", `&language=${code}`)).not.toContain("<key>many</key>");
      expect(await exported(pid, release.id, "po", `&language=${code}`)).not.toContain("msgstr[2]");
    }
    const catalog = JSON.parse(await exported(pid, release.id, "xcstrings", ""));
    expect(Object.keys(catalog.strings.files.localizations.fr.variations.plural)).toEqual(["one", "other"]);
  });

  test("a many the value has is kept", async () => {
    const pid = await admin.project("French many", "en", ["fr"]);
    await importFile(pid, "android", frAndroid.replace(/fichier/g, "file"), "en");
    await importFile(pid, "android", frAndroid.replace('<item quantity="other">', '<item quantity="many">%d de fichiers</item>\n        <item quantity="other">'), "fr");
    const release = await publish(admin, pid, "v1");
    expect(await exported(pid, release.id, "android", "&language=fr")).toContain('<item quantity="many">%d de fichiers</item>');
  });
});
