/**
 * Native app files through the compiled client (docs/formats.md, docs/automation.md): `push` of an
 * Android tree, Apple `.lproj` folders (a UTF-16 `.strings` among them), a String Catalog, PO and
 * XLIFF files, then `pull --format` of each, which must give back equivalent files: same keys,
 * strings, plural forms, placeholders and comments. A broken file stops the push before anything
 * is sent (exit 1 naming file, line and problem).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { readFile } from "../../src/formats/registry.ts";
import type { FormatName } from "../../src/formats/registry.ts";
import { clientBinary, deployment, gitRepo, phrasebook, writeFiles, type Deployment } from "./client.ts";

setDefaultTimeout(60_000);

const FIXTURES = join(import.meta.dir, "../fixtures/formats");

async function entries(format: FormatName, text: string) {
  const content = await readFile(format, text);
  return Object.fromEntries(content.languages.map((l) => [l.locale ?? "-", Object.fromEntries(l.entries.filter((e) => e.value !== "").map((e) => [e.key, e.value]))]));
}

describe("native files pushed and pulled with the client", () => {
  let d: Deployment;
  let repo: string;
  beforeAll(async () => {
    clientBinary();
    d = await deployment(["de", "ru", "fr"]);
    repo = gitRepo({ "README.md": "app\n" });
    cpSync(FIXTURES, join(repo, "fixtures"), { recursive: true });
  });
  afterAll(async () => {
    await d?.stop();
    if (repo) rmSync(repo, { recursive: true, force: true });
  });
  /** Each test pushes into a project of its own (their sample files share key names), with a token of its own. */
  let env: Record<string, string> = {};
  async function project(name: string, languages: string[]): Promise<void> {
    const pid = await d.admin.project(name, "en", languages);
    const made = await d.admin.post(`/projects/${pid}/tokens`, { name: "CI", scopes: ["read", "write", "publish"] });
    env = { ...d.env, PHRASEBOOK_TOKEN: made.body.token };
    d.pid = pid;
  }
  const run = (...args: string[]) => phrasebook(args, { cwd: repo, env });
  const publish = async (tag: string) => {
    const r = await run("publish", "--name", tag, "--tag", tag);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  };

  test("an Android tree: push values/ and values-de/, pull into {android} folders", async () => {
    await project("Android", ["de"]);
    expect(await run("push", "fixtures/android/values/strings.xml", "--language", "en")).toMatchObject({ code: 0, stdout: "fixtures/android/values/strings.xml: 8 created, 0 updated, 0 unchanged, 0 deleted\n" });
    expect((await run("push", "fixtures/android/values-de/strings.xml", "--language", "de")).code).toBe(0);
    await publish("v1");

    const pulled = await run("pull", "--out", "app/src/main/res/{android}/strings.xml", "--language", "en", "--language", "de");
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain("wrote app/src/main/res/values/strings.xml");
    expect(pulled.stdout).toContain("wrote app/src/main/res/values-de/strings.xml");
    for (const folder of ["values", "values-de"]) {
      const ours = await entries("android", readFileSync(join(repo, `app/src/main/res/${folder}/strings.xml`), "utf8"));
      const theirs = await entries("android", readFileSync(join(FIXTURES, `android/${folder}/strings.xml`), "utf8"));
      for (const [key, value] of Object.entries(theirs["-"]!)) expect(ours["-"]![key], key).toBe(value);
    }
    // translatable="false" comes back from the release's files (docs/formats.md "Not
    // translatable"), and aapt2 takes the tree.
    const values = readFileSync(join(repo, "app/src/main/res/values/strings.xml"), "utf8");
    expect(values).toContain('<string name="app_name" translatable="false">Phrasebook</string>');
    expect(values.match(/translatable=/g)).toHaveLength(1);
    for (const folder of ["values", "values-de"]) {
      const compiled = Bun.spawnSync(["aapt2", "compile", join(repo, `app/src/main/res/${folder}/strings.xml`), "-o", repo], { stderr: "pipe" });
      expect(compiled.exitCode, compiled.stderr.toString()).toBe(0);
    }
  });

  test("Apple: --format strings writes the keys without plurals, --format stringsdict the plural ones; a UTF-16 file stays UTF-16", async () => {
    await project("Apple", ["de"]);
    expect((await run("push", "fixtures/apple/en.lproj/Localizable.strings", "--language", "en")).code).toBe(0);
    expect((await run("push", "fixtures/apple/en.lproj/Localizable.stringsdict", "--language", "en")).code).toBe(0);
    // A UTF-16 file (with its byte order mark) is read as UTF-16.
    const utf16 = await run("push", "fixtures/apple/utf16.strings", "--language", "de", "--dry-run");
    expect(utf16.code, utf16.stderr).toBe(0);
    expect(utf16.stdout).toContain("~ menu.open");
    expect((await run("push", "fixtures/apple/de.lproj/Localizable.strings", "--language", "de")).code).toBe(0);
    await publish("v1");
    writeFiles(repo, { "ios/de.lproj/Localizable.strings": "" });
    cpSync(join(FIXTURES, "apple/utf16.strings"), join(repo, "ios/de.lproj/Localizable.strings"));
    const strings = await run("pull", "--format", "strings", "--out", "ios/{language}.lproj/Localizable.strings", "--language", "en", "--language", "de");
    expect(strings.code, strings.stderr).toBe(0);
    const en = readFileSync(join(repo, "ios/en.lproj/Localizable.strings"), "utf8");
    expect(await entries("strings", en)).toMatchObject(await entries("strings", readFileSync(join(FIXTURES, "apple/en.lproj/Localizable.strings"), "utf8")));
    expect(en).toContain("/* Title of the home screen */");
    expect(en).not.toContain("files.count");
    const de = readFileSync(join(repo, "ios/de.lproj/Localizable.strings"));
    expect([de[0], de[1]]).toEqual([0xff, 0xfe]);
    expect(new TextDecoder("utf-16le").decode(de.subarray(2))).toContain('"home.title" = "Willkommen, %@!";');
    const dict = await run("pull", "--format", "stringsdict", "--out", "ios/{language}.lproj/Localizable.stringsdict", "--language", "en");
    expect(dict.code, dict.stderr).toBe(0);
    const written = readFileSync(join(repo, "ios/en.lproj/Localizable.stringsdict"), "utf8");
    expect(await entries("stringsdict", written)).toEqual(await entries("stringsdict", readFileSync(join(FIXTURES, "apple/en.lproj/Localizable.stringsdict"), "utf8")));
  });

  test("multi-language files: a String Catalog and XLIFF push with no --language and pull as one file; XLIFF 2.0 on request", async () => {
    await project("Catalog", ["de", "fr"]);
    const catalog = await run("push", "fixtures/apple/Localizable.xcstrings");
    expect(catalog.code, catalog.stderr).toBe(0);
    expect(catalog.stdout).toContain("(en, de)");
    await publish("v2");
    const pulled = await run("pull", "--out", "ios/Localizable.xcstrings");
    expect(pulled.code, pulled.stderr).toBe(0);
    const ours = await entries("xcstrings", readFileSync(join(repo, "ios/Localizable.xcstrings"), "utf8"));
    const theirs = await entries("xcstrings", readFileSync(join(FIXTURES, "apple/Localizable.xcstrings"), "utf8"));
    for (const code of ["en", "de"]) for (const [key, value] of Object.entries(theirs[code]!)) expect(ours[code]![key], `${code} ${key}`).toBe(value);
    // The catalog's shouldTranslate: false comes back on its string.
    expect(JSON.parse(readFileSync(join(repo, "ios/Localizable.xcstrings"), "utf8")).strings.logo.shouldTranslate).toBe(false);
    // XLIFF from another tool, into a project of its own (its keys are the catalog's, with other base strings).
    await project("XLIFF", ["fr"]);
    const xliff = await run("push", "fixtures/xliff/fr-2.0.xlf");
    expect(xliff.code, xliff.stderr).toBe(0);
    expect(xliff.stdout).toContain("(en, fr)");
    await publish("x1");
    const v2 = await run("pull", "--format", "xliff", "--xliff-version", "2.0", "--out", "xliff/{language}.xlf", "--language", "fr");
    expect(v2.code, v2.stderr).toBe(0);
    const fr = readFileSync(join(repo, "xliff/fr.xlf"), "utf8");
    expect(fr).toContain('version="2.0" srcLang="en" trgLang="fr"');
    // The unit the tool marked translate="no" is marked so in the pulled file (XLIFF 2.0 core, on <unit>).
    expect(fr).toMatch(/<unit id="u\d+" name="brand" translate="no">/);
    const v12 = await run("pull", "--format", "xliff", "--out", "xliff/{language}-1.2.xlf", "--language", "fr");
    expect(v12.code, v12.stderr).toBe(0);
    const fr12 = join(repo, "xliff/fr-1.2.xlf");
    expect(readFileSync(fr12, "utf8")).toContain('<trans-unit id="brand" resname="brand" translate="no" xml:space="preserve">');
    const converted = Bun.spawnSync(["xliff2po", "-i", fr12, "-o", join(repo, "xliff/fr.po")], { stderr: "pipe" });
    expect(converted.exitCode, converted.stderr.toString()).toBe(0);
    expect((await entries("xliff", fr)).fr).toMatchObject((await entries("xliff", readFileSync(join(FIXTURES, "xliff/fr-2.0.xlf"), "utf8"))).fr!);
  });

  test("PO: push the base and a translation, pull them back; a broken file is refused before anything is sent", async () => {
    await project("PO", ["ru", "de"]);
    expect((await run("push", "fixtures/en.po")).code).toBe(0);
    expect((await run("push", "fixtures/ru.po")).code).toBe(0);
    await publish("v3");
    const pulled = await run("pull", "--format", "po", "--out", "po/{locale}.po", "--language", "ru");
    expect(pulled.code, pulled.stderr).toBe(0);
    const ru = readFileSync(join(repo, "po/ru.po"), "utf8");
    const theirs = await entries("po", readFileSync(join(FIXTURES, "ru.po"), "utf8"));
    expect((await entries("po", ru)).ru).toMatchObject(theirs.ru!);

    writeFiles(repo, { "bad/de.po": 'msgid ""\nmsgstr ""\n"Language: de\\n"\n"Plural-Forms: nplurals=3; plural=(n != 1);\\n"\n\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] "x"\nmsgstr[1] "y"\nmsgstr[2] "z"\n' });
    const keysBefore = (await d.admin.get(`/projects/${d.pid}/keys?page_size=500`)).body.items.length;
    const bad = await run("push", "bad/de.po");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^phrasebook: bad\/de\.po:4:1: the Plural-Forms do not fit de: nplurals=3, but no whole number picks msgstr\[2\]/);
    expect((await d.admin.get(`/projects/${d.pid}/keys?page_size=500`)).body.items.length).toBe(keysBefore);
  });
});
