/**
 * The formats for native apps and migrations (docs/formats.md "Formats for native apps and
 * migrations"), through the dashboard API in-process: the sample files under
 * test/fixtures/formats/ (written for these tests) are imported, a release is published, and the
 * dashboard export gives each format back.
 * What we write is checked by the formats' own tools, not by our reading of it: `msgfmt --check`
 * (gettext), translate-toolkit (xliff2po, prop2po's `.strings` reader, its Android reader),
 * `aapt2 compile` (Android) and `plistutil` (`.stringsdict`); XLIFF 2.0 against the core structure.
 * The same export read back by our readers gives the same entries: an equivalent file.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readFile } from "../../src/formats/registry.ts";
import type { FormatName } from "../../src/formats/registry.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { publish } from "../helpers/releases.ts";

const FIXTURES = join(import.meta.dir, "../fixtures/formats");
const fixture = (path: string) => readFileSync(join(FIXTURES, path), "utf8");

let t: TestApp;
let admin: DashboardClient;
let work: string;
beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  work = mkdtempSync(join(tmpdir(), "phrasebook-formats-"));
});
afterAll(async () => {
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** Runs a tool of the format; its exit code and output. */
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

async function importFile(pid: string, format: FormatName, content: string, language_code?: string, extra: Record<string, unknown> = {}) {
  const r = await admin.post(`/projects/${pid}/import`, { format, content, ...(language_code ? { language_code } : {}), ...extra });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

async function exported(pid: string, rid: string, format: FormatName, language?: string, extra = ""): Promise<string> {
  const r = await admin.download(`/projects/${pid}/releases/${rid}/export?format=${format}${language ? `&language=${language}` : ""}${extra}`);
  expect(r.status, r.text).toBe(200);
  expect(r.headers.get("content-disposition")).toStartWith("attachment; filename=");
  return r.text;
}

type Read = { value: string; description?: string; translatable?: false };

/** Each language's entries as `key -> value`, with contexts and "do not translate" marks, for comparing two readings. */
async function entriesOf(format: FormatName, text: string): Promise<Record<string, Record<string, Read>>> {
  const content = await readFile(format, text);
  const out: Record<string, Record<string, Read>> = {};
  for (const l of content.languages) {
    out[l.locale ?? "-"] = Object.fromEntries(
      l.entries
        .filter((e) => e.value !== "")
        .map((e) => [e.key, { value: e.value, ...(e.description ? { description: e.description } : {}), ...(e.translatable === false ? { translatable: false as const } : {}) }]),
    );
  }
  return out;
}

async function values(pid: string, code: string): Promise<Record<string, string>> {
  const list = await admin.get(`/projects/${pid}/keys?page_size=500`);
  return Object.fromEntries(list.body.items.filter((k: any) => k.translations[code]).map((k: any) => [k.key, k.translations[code].value]));
}

describe("gettext PO", () => {
  test("msgctxt is the key, msgid the base string, Plural-Forms map msgstr[i] to ICU categories; the export passes msgfmt --check and reads back the same", async () => {
    const pid = await admin.project("PO", "en", ["ru"]);
    // The files name their language in the header: no language_code needed.
    expect((await importFile(pid, "po", fixture("en.po"))).created_keys).toBe(4);
    const ru = await importFile(pid, "po", fixture("ru.po"));
    expect(ru.updated_translations).toBe(3); // the fuzzy msgstr is no translation
    const stored = await values(pid, "ru");
    expect(stored["files.count"]).toBe("{count, plural, one {%d файл} few {%d файла} many {%d файлов} other {%d файлов}}");
    expect(stored["menu.open"]).toBeUndefined();
    const keys = (await admin.get(`/projects/${pid}/keys?page_size=500`)).body.items;
    expect(keys.find((k: any) => k.key === "files.count").context).toBe("Shown with the number of files in a folder");

    const release = await publish(admin, pid, "v1");
    for (const code of ["en", "ru"]) {
      const text = await exported(pid, release.id, "po", code);
      const path = saved(`po/${code}.po`, text);
      const check = run(["msgfmt", "--check", "-o", "/dev/null", path]);
      expect(check.code, check.out).toBe(0);
      // Equivalent to what was imported: the same keys, strings, plural forms and comments.
      const original = await entriesOf("po", fixture(`${code}.po`));
      const again = await entriesOf("po", text);
      expect(again).toEqual(original);
    }
    expect(await exported(pid, release.id, "po", "ru")).toContain('"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\\n"');
  });

  test("a msgid that differs from the stored base string is reported, not written", async () => {
    const pid = await admin.project("PO differs", "en", ["ru"]);
    await importFile(pid, "po", fixture("en.po"));
    await importFile(pid, "json", JSON.stringify({ "home.title": "Hello, %s!" }), "en");
    const r = await importFile(pid, "po", fixture("ru.po"));
    expect(r.source_differs).toEqual([{ key: "home.title", language_code: "ru", file_source: "Welcome, %s!", base_value: "Hello, %s!" }]);
    expect((await values(pid, "ru"))["home.title"]).toBeUndefined();
    expect((await values(pid, "ru"))["quote"]).toBeDefined();
  });
});

describe("Android strings.xml", () => {
  test("strings and plurals with Android's escaping and comments; aapt2 compiles the export and translate-toolkit reads the same strings", async () => {
    const pid = await admin.project("Android", "en", ["de", "pt-BR"]);
    await importFile(pid, "android", fixture("android/values/strings.xml"), "en");
    await importFile(pid, "android", fixture("android/values-de/strings.xml"), "de");
    const en = await values(pid, "en");
    expect(en["welcome"]).toBe("Welcome, %1$s! You're in.");
    expect(en["handle"]).toBe("@phrasebook ?maybe");
    expect(en["spaced"]).toBe("  two spaces  ");
    // docs/formats.md "Markup in values": &amp; is stored as &, a literal < as &lt;.
    expect(en["amp"]).toBe("Terms & Conditions &lt;v2>");
    expect(en["markup"]).toBe('Tap <b>Save</b> to keep <xliff:g id="count">%d</xliff:g> items & more');
    expect(en["files_count"]).toBe("{count, plural, one {%d file} other {%d files}}");
    // translatable="false" strings are the base language's only, and the key keeps the mark.
    expect((await values(pid, "de"))["app_name"]).toBeUndefined();
    const keys = (await admin.get(`/projects/${pid}/keys?page_size=500`)).body.items;
    expect(keys.find((k: any) => k.key === "app_name").translatable).toBe(false);
    expect(keys.find((k: any) => k.key === "welcome").translatable).toBeUndefined();
    await importFile(pid, "json", JSON.stringify({ welcome: "Bem-vindo, %1$s!" }), "pt-BR");
    const release = await publish(admin, pid, "v1");

    for (const [code, folder] of [["en", "values"], ["de", "values-de"], ["pt-BR", "values-pt-rBR"]] as const) {
      const text = await exported(pid, release.id, "android", code);
      const path = saved(`android/res/${folder}/strings.xml`, text);
      const compiled = run(["aapt2", "compile", path, "-o", join(work, "android")]);
      expect(compiled.code, compiled.out).toBe(0);
      // translatable="false" kept, in the file it came from (docs/formats.md "Not translatable").
      if (code === "en") expect(text).toContain('<string name="app_name" translatable="false">Phrasebook</string>');
      if (code === "pt-BR") continue;
      const original = await entriesOf("android", fixture(`android/${folder}/strings.xml`));
      const again = await entriesOf("android", text);
      // Every language's file carries the keys' contexts (the base file's comments) above its strings.
      const base = await entriesOf("android", fixture("android/values/strings.xml"));
      for (const [key, entry] of Object.entries(again["-"]!)) {
        expect(entry.description, key).toBe(base["-"]![key]!.description);
        if (original["-"]![key]) original["-"]![key]!.description = entry.description;
        delete original["-"]![key]?.description;
        delete entry.description;
      }
      expect(again).toEqual(original);
      // translate-toolkit's Android reader (the library behind Weblate and Pootle) sees our strings.
      const script = `import json,sys\nfrom translate.storage import aresource\ns=aresource.AndroidResourceFile.parsefile(sys.argv[1])\nprint(json.dumps({u.getid():str(u.target) for u in s.units if not u.hasplural()}))`;
      const toolkit = run(["/usr/bin/python3", "-c", script, path]);
      expect(toolkit.code, toolkit.out).toBe(0);
      // The toolkit prints its plurals while reading them: the answer is the last line.
      const read = JSON.parse(toolkit.out.trim().split("\n").at(-1)!) as Record<string, string>;
      for (const [key, { value }] of Object.entries(original["-"]!)) {
        // A stored `&lt;` is the `<` the app shows (docs/formats.md "Markup in values").
        if (!value.startsWith("{count") && key !== "markup") expect(read[key], key).toBe(value.replace(/&lt;/g, "<"));
      }
    }
  });
});

describe("Apple .strings, .stringsdict and .xcstrings", () => {
  test(".strings and .stringsdict set one project; the exports split plurals from the rest; prop2po and plistutil read them", async () => {
    const pid = await admin.project("Apple", "en", ["de"]);
    await importFile(pid, "strings", fixture("apple/en.lproj/Localizable.strings"), "en");
    await importFile(pid, "stringsdict", fixture("apple/en.lproj/Localizable.stringsdict"), "en");
    await importFile(pid, "strings", fixture("apple/de.lproj/Localizable.strings"), "de");
    const en = await values(pid, "en");
    expect(en["quote"]).toBe('She said "hi"\nand left \\ right');
    expect(en["unicode"]).toBe("Café — ok");
    expect(en["files.count"]).toBe("{files, plural, =0 {No files} one {%lld file} other {%lld files}}");
    expect(en["folder.summary"]).toBe("{items, plural, one {%d item} other {%d items}} in <%@>");
    const release = await publish(admin, pid, "v1");

    const strings = await exported(pid, release.id, "strings", "en");
    expect(await entriesOf("strings", strings)).toEqual(await entriesOf("strings", fixture("apple/en.lproj/Localizable.strings")));
    expect(strings).not.toContain("files.count");
    const stringsPath = saved("apple/en.strings", strings);
    const prop = run(["prop2po", "--personality=strings", "--encoding=utf-8", "-i", stringsPath, "-o", join(work, "apple/en-strings.po")]);
    expect(prop.code, prop.out).toBe(0);
    const po = readFileSync(join(work, "apple/en-strings.po"), "utf8");
    expect(po).toContain('msgid "Open %1$@ in %2$@"');
    expect(po).toContain('msgid "Café — ok"');

    const dict = await exported(pid, release.id, "stringsdict", "en");
    expect(dict).not.toContain("home.title");
    expect(await entriesOf("stringsdict", dict)).toEqual(await entriesOf("stringsdict", fixture("apple/en.lproj/Localizable.stringsdict")));
    const dictPath = saved("apple/en.stringsdict", dict);
    const binary = run(["plistutil", "-i", dictPath, "-o", join(work, "apple/en.bplist")]);
    expect(binary.code, binary.out).toBe(0);
    const back = run(["plistutil", "-i", join(work, "apple/en.bplist"), "-f", "xml"]);
    expect(back.code, back.out).toBe(0);
    expect(await entriesOf("stringsdict", back.out)).toEqual(await entriesOf("stringsdict", dict));
  });

  test(".xcstrings sets every language it holds and exports as one file", async () => {
    const pid = await admin.project("Catalog", "en", ["de"]);
    const r = await importFile(pid, "xcstrings", fixture("apple/Localizable.xcstrings"));
    expect(r.languages).toEqual(["en", "de"]);
    expect((await values(pid, "de"))["files.count"]).toBe("{count, plural, one {%lld Datei} other {%lld Dateien}}");
    expect((await values(pid, "en"))["inbox.summary"]).toBe("{messages, plural, one {%arg message} other {%arg messages}} in %@");
    const release = await publish(admin, pid, "v1");
    const text = await exported(pid, release.id, "xcstrings");
    const catalog = JSON.parse(text);
    expect(catalog.sourceLanguage).toBe("en");
    // shouldTranslate: false comes back on the string the catalog marked, and only there.
    expect(catalog.strings.logo.shouldTranslate).toBe(false);
    expect(Object.entries(catalog.strings).filter(([, s]: [string, any]) => "shouldTranslate" in s).map(([k]) => k)).toEqual(["logo"]);
    expect(await entriesOf("xcstrings", text)).toEqual(await entriesOf("xcstrings", fixture("apple/Localizable.xcstrings")));
  });
});

describe("XLIFF 1.2 and 2.0", () => {
  test("XLIFF 1.2 sets source and target languages; the export passes xliff2po, and its PO passes msgfmt --check", async () => {
    const pid = await admin.project("XLIFF", "en", ["de", "fr"]);
    const r = await importFile(pid, "xliff", fixture("xliff/de-1.2.xlf"));
    expect(r.languages).toEqual(["en", "de"]);
    expect((await values(pid, "de"))["terms"]).toBe("AGB & Bedingungen &lt;v2>");
    expect((await values(pid, "de"))["brand"]).toBeUndefined();
    await importFile(pid, "xliff", fixture("xliff/fr-2.0.xlf"), "fr");
    const release = await publish(admin, pid, "v1");
    const text = await exported(pid, release.id, "xliff", "de");
    const original = await entriesOf("xliff", fixture("xliff/de-1.2.xlf"));
    expect(await entriesOf("xliff", text)).toEqual(original);
    expect(original.en!.brand).toEqual({ value: "Phrasebook", translatable: false });
    expect(text).toContain('<trans-unit id="brand" resname="brand" translate="no" xml:space="preserve">');
    const path = saved("xliff/de.xlf", text);
    const converted = run(["xliff2po", "-i", path, "-o", join(work, "xliff/de.po")]);
    expect(converted.code, converted.out).toBe(0);
    const po = readFileSync(join(work, "xliff/de.po"), "utf8");
    expect(po).toContain('msgstr "Willkommen, {name}!"');
    const check = run(["msgfmt", "--check", "-o", "/dev/null", join(work, "xliff/de.po")]);
    expect(check.code, check.out).toBe(0);
    // Without a language: one file, a <file> per target language.
    const both = await entriesOf("xliff", await exported(pid, release.id, "xliff"));
    expect(Object.keys(both).sort()).toEqual(["de", "en", "fr"]);
  });

  test("an XLIFF source that differs from the base string is reported and not written; a source language other than the base is compared with nothing", async () => {
    const pid = await admin.project("XLIFF sources", "en", ["de", "fr"]);
    await importFile(pid, "json", JSON.stringify({ "home.title": "Hello, {name}!" }), "en");
    const r = await importFile(pid, "xliff", fixture("xliff/de-1.2.xlf"));
    expect(r.source_differs.map((d: any) => [d.key, d.language_code])).toEqual([["home.title", "en"], ["home.title", "de"]]);
    expect((await values(pid, "en"))["home.title"]).toBe("Hello, {name}!");
    expect((await values(pid, "de"))["home.title"]).toBeUndefined();
    expect((await values(pid, "de"))["terms"]).toBe("AGB & Bedingungen &lt;v2>");
    const german = `<?xml version="1.0"?><xliff version="1.2"><file source-language="de" target-language="fr"><body><trans-unit id="home.title"><source>Hallo, {name}!</source><target>Salut, {name} !</target></trans-unit></body></file></xliff>`;
    const other = await importFile(pid, "xliff", german);
    expect(other.languages).toEqual(["de", "fr"]);
    expect(other.source_differs).toBeUndefined();
    expect((await values(pid, "fr"))["home.title"]).toBe("Salut, {name} !");
  });

  test("XLIFF 2.0 export is well-formed and in the 2.0 core structure", async () => {
    const pid = await admin.project("XLIFF 2", "en", ["fr"]);
    await importFile(pid, "xliff", fixture("xliff/fr-2.0.xlf"));
    const release = await publish(admin, pid, "v1");
    const text = await exported(pid, release.id, "xliff", "fr", "&xliff_version=2.0");
    const { XMLParser, XMLValidator } = await import("fast-xml-parser");
    expect(XMLValidator.validate(text)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => ["file", "unit", "segment", "note"].includes(name) }).parse(text);
    const root = doc.xliff;
    expect(root.xmlns).toBe("urn:oasis:names:tc:xliff:document:2.0");
    expect(root.version).toBe("2.0");
    expect(root.srcLang).toBe("en");
    expect(root.trgLang).toBe("fr");
    // <xliff> > <file id> > <unit id> > (<notes>?) <segment> > <source> <target>?; ids unique NMTOKENs.
    const ids = new Set<string>();
    for (const file of root.file) {
      expect(file.id).toMatch(/^[\w.:-]+$/);
      for (const unit of file.unit) {
        expect(unit.id).toMatch(/^[\w.:-]+$/);
        expect(ids.has(unit.id)).toBe(false);
        ids.add(unit.id);
        expect(Object.keys(unit).filter((k) => !["id", "name", "translate", "notes", "segment"].includes(k))).toEqual([]);
        // XLIFF 2.0 core: `translate` is "yes" or "no" on a <unit>; only the unit marked so carries it.
        expect(unit.translate).toBe(unit.name === "brand" ? "no" : undefined);
        for (const segment of unit.segment) expect(segment.source).toBeDefined();
      }
    }
    // Within a unit, <notes> come before the segments (XLIFF 2.0 §4.3.1.3).
    for (const unit of text.split("<unit ").slice(1)) {
      if (unit.includes("<notes>")) expect(unit.indexOf("<notes>")).toBeLessThan(unit.indexOf("<segment"));
    }
    expect(await entriesOf("xliff", text)).toEqual(await entriesOf("xliff", fixture("xliff/fr-2.0.xlf")));
  });
});

describe("a string marked not to be translated (translatable=\"false\" kept; docs/formats.md \"Not translatable\")", () => {
  const androidBase = (marked: boolean) =>
    `<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="app_name"${marked ? ' translatable="false"' : ""}>Phrasebook</string>\n    <plurals name="files"${marked ? ' translatable="false"' : ""}>\n        <item quantity="one">%d file</item>\n        <item quantity="other">%d files</item>\n    </plurals>\n    <string name="hello">Hello</string>\n</resources>\n`;
  const mark = async (pid: string) =>
    Object.fromEntries((await admin.get(`/projects/${pid}/keys?page_size=500`)).body.items.map((k: any) => [k.key, k.translatable ?? true]));
  const baseArb = async (release: any) => JSON.parse(await (await t.fetch(release.languages.find((l: any) => l.code === "en").download_urls.arb)).text());
  const progressOf = async (pid: string, code: string) => (await admin.get(`/projects/${pid}/progress`)).body.languages.find((l: any) => l.code === code);

  test("a base push sets the mark, the release's ARB carries it, and every format with a place for it writes it back; the formats' tools accept the files", async () => {
    const pid = await admin.project("Not translatable", "en", ["de"]);
    const pushed = await importFile(pid, "android", androidBase(true), "en");
    expect(pushed.created_keys).toBe(3);
    expect(await mark(pid)).toEqual({ app_name: false, files: false, hello: true });
    await importFile(pid, "json", JSON.stringify({ hello: "Hallo" }), "de");
    const release = await publish(admin, pid, "v1");

    // The release's base ARB (the CDN file pull builds from) carries the mark; gen-l10n ignores x- attributes.
    const arb = await baseArb(release);
    expect(arb["@appName"]).toEqual({ "x-translatable": false });
    expect(arb["@files"]).toEqual({ placeholders: { count: { type: "num" } }, "x-translatable": false });
    expect(arb["@hello"]).toBeUndefined();

    const android = await exported(pid, release.id, "android", "en");
    expect(android).toContain('<string name="app_name" translatable="false">Phrasebook</string>');
    expect(android).toContain('<plurals name="files" translatable="false">');
    expect(android).toContain('<string name="hello">Hello</string>');
    expect(await entriesOf("android", android)).toEqual(await entriesOf("android", androidBase(true)));
    const compiled = run(["aapt2", "compile", saved("marked/res/values/strings.xml", android), "-o", join(work, "marked")]);
    expect(compiled.code, compiled.out).toBe(0);

    const xliff12 = await exported(pid, release.id, "xliff", "de");
    expect(xliff12).toContain('<trans-unit id="app_name" resname="app_name" translate="no" xml:space="preserve">');
    expect(xliff12).toContain('<trans-unit id="hello" resname="hello" xml:space="preserve">');
    const converted = run(["xliff2po", "-i", saved("marked/de.xlf", xliff12), "-o", join(work, "marked/de.po")]);
    expect(converted.code, converted.out).toBe(0);
    const check = run(["msgfmt", "--check", "-o", "/dev/null", join(work, "marked/de.po")]);
    expect(check.code, check.out).toBe(0);
    expect((await entriesOf("xliff", xliff12)).en!.app_name).toEqual({ value: "Phrasebook", translatable: false });

    const xliff20 = await exported(pid, release.id, "xliff", "de", "&xliff_version=2.0");
    expect(xliff20).toMatch(/<unit id="u\d+" name="app_name" translate="no">/);
    expect(xliff20).toMatch(/<unit id="u\d+" name="hello">/);
    expect((await entriesOf("xliff", xliff20)).en!.files).toMatchObject({ translatable: false });

    const catalog = await exported(pid, release.id, "xcstrings");
    const strings = JSON.parse(catalog).strings;
    expect([strings.app_name.shouldTranslate, strings.files.shouldTranslate, strings.hello.shouldTranslate]).toEqual([false, false, undefined]);
    // Xcode's order of a string's fields: by name, so shouldTranslate after localizations.
    expect(Object.keys(strings.app_name)).toEqual(["extractionState", "localizations", "shouldTranslate"]);
    expect((await entriesOf("xcstrings", catalog)).en!.app_name).toEqual({ value: "Phrasebook", translatable: false });
  });

  test("it needs no value in other languages: progress, key counts and the missing filter leave it out there, not in the base language", async () => {
    const pid = await admin.project("Not translatable counts", "en", ["de"]);
    await importFile(pid, "android", androidBase(true), "en");
    await importFile(pid, "json", JSON.stringify({ hello: "Hallo" }), "de");
    expect(await progressOf(pid, "de")).toMatchObject({ total_keys: 1, translated: 1 });
    expect(await progressOf(pid, "en")).toMatchObject({ total_keys: 3, translated: 3 });
    expect((await admin.get(`/projects/${pid}/key-counts?language=de`)).body).toMatchObject({ total: 3, missing: 0, translated: 1 });
    expect((await admin.get(`/projects/${pid}/key-counts?language=de&search=a`)).body).toMatchObject({ missing: 0 });
    expect((await admin.get(`/projects/${pid}/keys?status=missing&language=de`)).body.items).toEqual([]);
    // A value given anyway counts once, and never beyond the keys the language needs.
    await importFile(pid, "json", JSON.stringify({ app_name: "Phrasebook" }), "de");
    expect(await progressOf(pid, "de")).toMatchObject({ total_keys: 1, translated: 1 });
    expect((await admin.get(`/projects/${pid}/key-counts?language=de`)).body).toMatchObject({ total: 3, missing: 0, translated: 2 });

    // The base file is the truth: pushed without the mark, the keys need German again.
    await importFile(pid, "android", androidBase(false), "en");
    expect(await mark(pid)).toEqual({ app_name: true, files: true, hello: true });
    expect(await progressOf(pid, "de")).toMatchObject({ total_keys: 3, translated: 2 });
    expect((await admin.get(`/projects/${pid}/key-counts?language=de`)).body).toMatchObject({ total: 3, missing: 1 });
    expect((await admin.get(`/projects/${pid}/keys?status=missing&language=de`)).body.items.map((k: any) => k.key)).toEqual(["files"]);
  });

  test("a base push in a format without the mark leaves it; one with it (ARB's x-translatable too) sets and clears it; a dry run changes nothing", async () => {
    const pid = await admin.project("Not translatable pushes", "en", ["de"]);
    await importFile(pid, "android", androidBase(true), "en");
    // JSON and PO have no such mark: the flag stays.
    await importFile(pid, "json", JSON.stringify({ app_name: "Phrasebook!", hello: "Hello" }), "en");
    expect((await mark(pid)).app_name).toBe(false);
    // A dry run of a base file without the mark reports the key updated and changes nothing.
    const dry = await importFile(pid, "android", androidBase(false), "en", { dry_run: true });
    expect(dry.changes).toContainEqual({ key: "files", change: "updated" });
    expect((await mark(pid)).files).toBe(false);
    // The catalog's shouldTranslate, the XLIFF source's translate="no", and the template's x-translatable.
    const catalog = { sourceLanguage: "en", strings: { hello: { localizations: { en: { stringUnit: { state: "translated", value: "Hello" } } } }, app_name: { shouldTranslate: false, localizations: { en: { stringUnit: { state: "translated", value: "Phrasebook!" } } } } }, version: "1.0" };
    await importFile(pid, "xcstrings", JSON.stringify(catalog));
    expect(await mark(pid)).toMatchObject({ app_name: false, hello: true });
    await importFile(pid, "xliff", `<?xml version="1.0"?><xliff version="1.2"><file source-language="en" target-language="de"><body><trans-unit id="hello" translate="no"><source>Hello</source><target>Hallo</target></trans-unit></body></file></xliff>`);
    expect((await mark(pid)).hello).toBe(false);
    expect((await values(pid, "de")).hello).toBeUndefined();
    await importFile(pid, "arb", JSON.stringify({ "@@locale": "en", hello: "Hello", appName: "Phrasebook!", "@appName": { description: "Launcher", "x-translatable": false } }), "en");
    expect(await mark(pid)).toMatchObject({ app_name: false, hello: true });
    const release = await publish(admin, pid, "v1");
    const arb = await baseArb(release);
    // The template's entry as pushed, with the key's mark now.
    expect(arb["@appName"]).toEqual({ description: "Launcher", "x-translatable": false });
    // Every language's ARB carries the mark; pushed back, a translation file's value is still imported.
    await importFile(pid, "arb", JSON.stringify({ "@@locale": "de", appName: "Phrasebook", "@appName": { "x-translatable": false } }), "de");
    expect((await values(pid, "de")).app_name).toBe("Phrasebook");
    // Cleared by another base file: the stored entry is written without it.
    await importFile(pid, "android", androidBase(false), "en");
    const again = await baseArb(await publish(admin, pid, "v2"));
    expect(again["@appName"]).toEqual({ description: "Launcher" });
    const refused = await admin.post(`/projects/${pid}/import`, { format: "arb", language_code: "en", content: JSON.stringify({ hello: "Hello", "@hello": { "x-translatable": "no" } }) });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('"@hello".x-translatable must be true or false');
  });
});

describe("native placeholders are checked like ICU arguments", () => {
  test("a translation must use the base string's %1$s, %@, %lld: another is placeholder_unknown, a missing one placeholder_missing", async () => {
    const pid = await admin.project("Placeholders", "en", ["de"]);
    await importFile(pid, "json", JSON.stringify({ a: "Hi %1$s, you have %2$lld", b: "Open %@", c: "50% off" }), "en");
    const r = await importFile(pid, "json", JSON.stringify({ a: "Hallo %1$s, du hast %2$d", b: "Öffnen", c: "50% Rabatt" }), "de");
    expect(r.problems).toBe(2);
    const problems = (await admin.get(`/projects/${pid}/problems?language=de`)).body.items.map((p: any) => [p.key, p.code, p.severity]);
    expect(problems).toContainEqual(["a", "placeholder_unknown", "error"]);
    expect(problems).toContainEqual(["a", "placeholder_missing", "warning"]);
    expect(problems).toContainEqual(["b", "placeholder_missing", "warning"]);
    expect(problems.filter((p: string[]) => p[0] === "c")).toEqual([]);
  });
});

describe("the CDN and download_urls stay JSON, YAML and ARB", () => {
  test("a project fed from strings.xml publishes the spec's three formats, and a draft has nothing to export", async () => {
    const pid = await admin.project("Fed from Android", "en");
    await importFile(pid, "android", fixture("android/values/strings.xml"), "en");
    const draft = (await admin.post(`/projects/${pid}/releases`, { name: "d", tag: "d1" })).body;
    expect((await admin.download(`/projects/${pid}/releases/${draft.id}/export?format=po&language=en`)).status).toBe(409);
    const release = await publish(admin, pid, "v1");
    expect(Object.keys(release.languages[0].download_urls)).toEqual(["json", "yaml", "arb"]);
    const r = await admin.download(`/projects/${pid}/releases/${release.id}/export?format=android`);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).error).toContain('"language"');
  });
});
