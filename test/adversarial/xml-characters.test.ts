/**
 * Characters XML 1.0 cannot hold (docs/formats.md "Markup in values";
 * docs/formats.md "XML and bad files"): U+0000-U+0008, U+000B, U+000C, U+000E-U+001F, U+FFFE and U+FFFF (lone
 * surrogates had their own refusal already). On main 57466aa a translator could save one, or an
 * import bring one in as a JSON escape, and the Android and XLIFF exports carried it raw: expat
 * (and aapt2, and every XLIFF tool) refused the files, so one translator broke every Android build.
 * Now saving is a 400 naming the key, an import a 400 naming the line (raw in the file) or the key
 * (escaped), a key's context likewise; and a value stored before this, written into XML, has
 * U+FFFD in its place: the file is always well-formed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { publish } from "../helpers/releases.ts";

let t: TestApp;
let admin: DashboardClient;
let pid: string;
let keyId: string;
let work: string;
beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("XML characters", "en", ["de"]);
  keyId = await admin.key(pid, "greeting", { en: "Hello" });
  work = mkdtempSync(join(tmpdir(), "phrasebook-xml-chars-"));
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

const FORBIDDEN = ["\u0000", "\u0001", "\u0008", "\u000b", "\u000c", "\u000e", "\u001f", "\ufffe", "\uffff"];
const name = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;

const values = async () => Object.fromEntries((await admin.get(`/projects/${pid}/keys?page_size=500`)).body.items.map((k: any) => [k.key, k.translations.de?.value]));

describe("refused on save", () => {
  for (const c of FORBIDDEN) {
    test(`PUT translation with ${name(c)}: a 400 naming the key and the character; nothing stored`, async () => {
      const r = await admin.put(`/projects/${pid}/keys/${keyId}/translations/de`, { value: `Hal${c}lo` });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe(`invalid field "value": key "greeting": must not contain ${name(c)} (${c >= "\ufffe" ? "a noncharacter" : "a control character"}): XML 1.0 forbids it, so no Android or XLIFF file could carry it`);
      expect((await values()).greeting).toBeUndefined();
    });
  }

  test("tab, line feed and carriage return are text XML holds: saved", async () => {
    const r = await admin.put(`/projects/${pid}/keys/${keyId}/translations/de`, { value: "Hallo\tdu\r\nda" });
    expect(r.status).toBe(200);
  });

  test("a key's context, on create and on update, and a key name with U+FFFE", async () => {
    const created = await admin.post(`/projects/${pid}/keys`, { key: "ctx.new", context: "Shown \u0007 here" });
    expect(created.status).toBe(400);
    expect(created.body.error).toBe('invalid field "context": key "ctx.new": must not contain U+0007 (a control character): XML 1.0 forbids it, so no Android or XLIFF file could carry it');
    const updated = await admin.patch(`/projects/${pid}/keys/${keyId}`, { context: "Title\u000c" });
    expect(updated.status).toBe(400);
    expect(updated.body.error).toContain('invalid field "context": key "greeting": must not contain U+000C');
    const key = await admin.post(`/projects/${pid}/keys`, { key: "odd\ufffe" });
    expect(key.status).toBe(400);
    expect(key.body.error).toContain('invalid field "key": must not contain U+FFFE (a noncharacter)');
  });
});

describe("refused on import: the line when the file holds it, the key when an escape does", () => {
  const before = () => t.query<{ n: number }>("SELECT count(*) AS n FROM translations")[0]!.n;

  test("raw in a file of any format: a 400 naming line and column", async () => {
    const files: [string, string, string][] = [
      ["json", `{\n  "greeting": "Hal\ufffelo"\n}`, "line 2, column 19"],
      ["yaml", `greeting: Hallo\nother: "Hal\uffffo"\n`, "line 2, column 12"],
      ["po", `msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgid "greeting"\nmsgstr "Hal\u0001lo"\n`, "line 6, column 12"],
      ["android", `<resources>\n  <string name="greeting">Hal\u0008lo</string>\n</resources>`, "line 2, column 30"],
      ["strings", `"greeting" = "Hal\u001flo";\n`, "line 1, column 18"],
    ];
    for (const [format, content, where] of files) {
      const n = before();
      const r = await admin.post(`/projects/${pid}/import`, { format, content, language_code: "de" });
      expect(r.status, format).toBe(400);
      expect(r.body.error, format).toMatch(new RegExp(`^invalid field "content": ${where}: the file holds U\\+[0-9A-F]{4} \\(a (control character|noncharacter)\\), which no translation may hold`));
      expect(before(), format).toBe(n);
    }
  });

  test("as a character reference in XML (&#1;, &#xFFFE;): a 400 naming the line", async () => {
    for (const ref of ["&#1;", "&#x1F;", "&#xFFFE;", "&#65535;"]) {
      const r = await admin.post(`/projects/${pid}/import`, { format: "xliff", language_code: "de", content: `<xliff version="1.2"><file source-language="en" target-language="de"><body>\n<trans-unit id="greeting"><source>Hello</source><target>Hal${ref}lo</target></trans-unit></body></file></xliff>` });
      expect(r.status, ref).toBe(400);
      expect(r.body.error, ref).toBe(`invalid field "content": line 2, column 60: ${ref} is a character XML 1.0 cannot hold`);
    }
  });

  test("as an escape (JSON \\u0001, YAML \\x0B, ARB, a catalog, Android \\u000C): a 400 naming the key", async () => {
    const files: [string, string][] = [
      ["json", '{"greeting": "Hal\\u0001lo"}'],
      ["yaml", 'greeting: "Hal\\x0Blo"\n'],
      ["arb", '{"@@locale": "de", "greeting": "Hal\\uFFFFlo"}'],
      ["xcstrings", '{"sourceLanguage": "en", "strings": {"greeting": {"localizations": {"de": {"stringUnit": {"value": "Hal\\u0002lo"}}}}}}'],
      ["android", '<resources><string name="greeting">Hal\\u000Clo</string></resources>'],
    ];
    for (const [format, content] of files) {
      const r = await admin.post(`/projects/${pid}/import`, { format, content, language_code: "de" });
      expect(r.status, format).toBe(400);
      expect(r.body.error, format).toMatch(/^invalid field "content": entry "greeting": "value": must not contain U\+[0-9A-F]{4} \(a (control character|noncharacter)\): XML 1.0 forbids it/);
    }
    // A context (an ARB description) likewise.
    const described = await admin.post(`/projects/${pid}/import`, { format: "arb", language_code: "en", content: '{"@@locale": "en", "greeting": "Hello", "@greeting": {"description": "Top\\u0003"}}' });
    expect(described.status).toBe(400);
    expect(described.body.error).toContain('entry "greeting": "context": must not contain U+0003');
  });
});

describe("never written into an XML file", () => {
  test("a value stored before the rule is written with U+FFFD in its place: xmllint, aapt2 and xliff2po take the files", async () => {
    const stored = await admin.key(pid, "old.value", { en: "Old", de: "Alt" }, "Context");
    // As a build before this one could store it.
    t.query("UPDATE translations SET value = ? WHERE value = 'Alt'", "A\u0001l\ufffet");
    t.query("UPDATE translation_keys SET context = ? WHERE public_id = ?", "Con\u0002text", stored);
    const release = await publish(admin, pid, "v1");
    const files: [string, string][] = [
      ["android", "&language=de"],
      ["xliff", "&language=de"],
      ["xliff", "&language=de&xliff_version=2.0"],
    ];
    for (const [format, query] of files) {
      const r = await admin.download(`/projects/${pid}/releases/${release.id}/export?format=${format}${query}`);
      expect(r.status).toBe(200);
      expect(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(r.text), format).toBe(false);
      expect(r.text).toContain("A\ufffdl\ufffdt");
      const path = join(work, `${format}${query.length}.${format === "android" ? "xml" : "xlf"}`);
      writeFileSync(path, r.text);
      const lint = Bun.spawnSync(["xmllint", "--noout", path], { stderr: "pipe" });
      expect(lint.exitCode, lint.stderr.toString()).toBe(0);
      if (format === "android") {
        const dir = join(work, "res/values-de");
        Bun.spawnSync(["mkdir", "-p", dir]);
        writeFileSync(join(dir, "strings.xml"), r.text);
        const compiled = Bun.spawnSync(["aapt2", "compile", join(dir, "strings.xml"), "-o", work], { stderr: "pipe" });
        expect(compiled.exitCode, compiled.stderr.toString()).toBe(0);
      }
      if (format === "xliff" && !query.includes("2.0")) {
        const converted = Bun.spawnSync(["xliff2po", "-i", path, "-o", `${path}.po`], { stderr: "pipe", stdout: "pipe" });
        expect(converted.exitCode, converted.stderr.toString()).toBe(0);
      }
    }
  });
});
