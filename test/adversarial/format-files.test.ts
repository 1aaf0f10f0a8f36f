/**
 * Hostile and broken files of the native formats (docs/formats.md "XML and bad files"):
 * an XML entity bomb, an external entity, any DOCTYPE of a file's own, a broken property list, a
 * PO whose Plural-Forms do not fit its language, a UTF-16 file without a byte order mark, deep
 * nesting and oversized plural forms. Each is a 400 naming the line and the problem, and nothing
 * is imported (no key, no event).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;
let pid: string;
beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Hostile files", "en", ["ru"]);
});
afterAll(async () => {
  await t.close();
});

function counts() {
  return {
    keys: t.query<{ n: number }>("SELECT count(*) AS n FROM translation_keys")[0]!.n,
    events: t.query<{ n: number }>("SELECT count(*) AS n FROM outbox_events")[0]!.n,
  };
}

async function refused(format: string, content: string, line: number | null, problem: RegExp, language_code = "en") {
  const before = counts();
  const r = await admin.post(`/projects/${pid}/import`, { language_code, format, content, dry_run: false });
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(400);
  expect(r.body.error).toMatch(problem);
  if (line !== null) expect(r.body.error).toMatch(new RegExp(`line ${line}[,:]`));
  expect(counts()).toEqual(before);
  return r.body.error as string;
}

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE resources [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<resources><string name="a">&lol9;</string></resources>
`;

describe("docs/formats.md Bad files: refused with the line and the problem, nothing imported", () => {
  test("an XML entity bomb (billion laughs) in strings.xml", async () => {
    await refused("android", BILLION_LAUGHS, 2, /DOCTYPE/);
  });

  test("an external entity (file:///etc/passwd) in XLIFF, and in a .stringsdict behind Apple's DOCTYPE", async () => {
    const xliff = `<?xml version="1.0"?>\n<!DOCTYPE xliff [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<xliff version="1.2"><file source-language="en"><body><trans-unit id="a"><source>&xxe;</source></trans-unit></body></file></xliff>`;
    const error = await refused("xliff", xliff, 2, /DOCTYPE/);
    expect(error).not.toContain("root:");
    const plist = `<?xml version="1.0"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<!ENTITY xxe SYSTEM "file:///etc/passwd">\n<plist version="1.0"><dict><key>a</key><string>&xxe;</string></dict></plist>`;
    await refused("stringsdict", plist, 3, /entity/i);
  });

  test("any DOCTYPE of the file's own, even without entities", async () => {
    await refused("android", `<?xml version="1.0"?>\n\n<!DOCTYPE resources SYSTEM "http://example.com/x.dtd">\n<resources/>`, 3, /DOCTYPE/);
  });

  test("a broken property list, and a plural rule without other", async () => {
    await refused("stringsdict", `<?xml version="1.0"?>\n<plist version="1.0">\n<dict>\n<key>a</key>\n<dict>\n</plist>`, 6, /not well-formed property list/);
    const noOther = `<plist version="1.0"><dict><key>n</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>one</key><string>x</string></dict></dict></dict></plist>`;
    await refused("stringsdict", noOther, null, /no "other" form/);
  });

  test("a PO whose Plural-Forms do not fit its language, and one that is not PO", async () => {
    const po = `msgid ""\nmsgstr ""\n"Language: ru\\n"\n"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n\nmsgctxt "f"\nmsgid "%d file"\nmsgid_plural "%d files"\nmsgstr[0] "%d файл"\nmsgstr[1] "%d файлов"\n`;
    const error = await refused("po", po, 4, /Plural-Forms do not fit ru/, "ru");
    expect(error).toMatch(/few.*many|many.*few/);
    await refused("po", `msgid ""\nmsgstr ""\n"Language: ru\\n"\n"Plural-Forms: nplurals=3; plural=(n%10==1 ? 0 : system(n));\\n"\n\nmsgctxt "f"\nmsgid "a"\nmsgid_plural "b"\nmsgstr[0] "x"\nmsgstr[1] "y"\nmsgstr[2] "z"\n`, 4, /plural expression/, "ru");
    await refused("po", `msgid "a"\nmsgstr "b\nc"\n`, 2, /not a valid PO file/);
  });

  test("a UTF-16 .strings file without a byte order mark", async () => {
    const utf16 = Buffer.from('"a" = "b";\n', "utf16le").toString("latin1").replace(/\u0000/g, "\u0000");
    await refused("strings", utf16, 1, /UTF-16 without a byte order mark/);
  });

  test("elements nested deeper than a translation file is", async () => {
    const deep = `<resources>${"<b>".repeat(40)}x${"</b>".repeat(40)}</resources>`;
    await refused("android", deep, 1, /nested deeper than 32 levels/);
  });

  test("huge plural forms: a form over the value limit, a category twice, a case that is no category", async () => {
    const huge = `<resources>\n<plurals name="p">\n<item quantity="one">${"x".repeat(120_000)}</item>\n<item quantity="other">y</item>\n</plurals>\n</resources>`;
    await refused("android", huge, null, /entry "p"/);
    const twice = `<resources>\n<plurals name="p">\n${'<item quantity="few">x</item>\n'.repeat(1000)}<item quantity="other">y</item>\n</plurals>\n</resources>`;
    await refused("android", twice, 2, /quantity="few" twice/);
    const catalog = JSON.stringify({ sourceLanguage: "en", strings: { p: { localizations: { en: { variations: { plural: { lots: { stringUnit: { value: "x" } }, other: { stringUnit: { value: "y" } } } } } } } } });
    await refused("xcstrings", catalog, null, /"lots" is no plural category/);
  });
});
