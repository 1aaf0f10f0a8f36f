/**
 * Hostile PO, .strings (UTF-8 and UTF-16), .stringsdict and .xcstrings files, through the
 * dashboard import and the client's push (docs/formats.md "Bad files", docs/publishing.md §6
 * "Limits"): thousands of plural forms, a 1 MB plural index, a monstrous Plural-Forms expression,
 * deep nesting, 10 MB files that never close a quote or a comment, lone surrogates, 100,000
 * languages, NUL characters. Each is a 400 (413 past a count) naming the line where there is one
 * and the problem, in a short reply, with nothing imported; the client exits 1 naming the file.
 *
 * What this sweep found: a PO file without its header entry (`msgid ""`) was a 500 (with or without
 * a NUL in it); lone surrogates were imported and then stored as U+FFFD, and the client decoded a
 * broken UTF-16 file the same way; a 9 MB key was echoed whole in the 400 (a 9.4 MB reply); PO
 * plural-count errors named no line.
 *
 * Every import runs on a worker thread, so none of these holds the server's thread: while they
 * are imported all at once, `/healthz` keeps answering (counted, not timed, as in
 * import-stall.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";
import { deployment, gitRepo, phrasebook, type Deployment } from "../cli/client.ts";

const MB = 1024 * 1024;
const RU_PLURALS = "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);";
const poHeader = (pluralForms = RU_PLURALS) => `msgid ""\nmsgstr ""\n"Language: ru\\n"\n"Plural-Forms: ${pluralForms}\\n"\n\n`;
const plist = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n${body}\n</plist>\n`;
const catalog = (strings: unknown) => JSON.stringify({ sourceLanguage: "en", version: "1.0", strings });

interface Hostile {
  name: string;
  format: string;
  content: () => string;
  status?: number;
  /** The line the error names, or null where the format has none (a JSON catalog names the path). */
  line: number | null;
  problem: RegExp;
}

const HOSTILE: Hostile[] = [
  { name: "PO: 5,000 msgstr forms", format: "po", content: () => poHeader() + `msgid "a"\nmsgid_plural "as"\n` + Array.from({ length: 5000 }, (_, i) => `msgstr[${i}] "x"`).join("\n") + "\n", line: 14, problem: /column 1: msgstr\[6\]: an entry has at most 6 plural forms/ },
  { name: "PO: a 1 MB msgstr[n] index", format: "po", content: () => poHeader() + `msgid "a"\nmsgid_plural "as"\nmsgstr[${"9".repeat(MB)}] "x"\n`, line: 8, problem: /msgstr\[9{20}…\]: an entry has at most 6 plural forms/ },
  { name: "PO: a Plural-Forms of 200,000 nested parentheses", format: "po", content: () => poHeader(`nplurals=3; plural=${"(".repeat(200_000)}n${")".repeat(200_000)};`) + `msgid "a"\nmsgid_plural "as"\nmsgstr[0] "x"\nmsgstr[1] "y"\nmsgstr[2] "z"\n`, line: 4, problem: /Plural-Forms do not fit ru: the plural expression is longer than 500 characters/ },
  { name: "PO: a NUL in a msgstr", format: "po", content: () => poHeader() + `msgid "a"\nmsgstr "b\0c"\n`, line: 7, problem: /column 10: the file holds a NUL character/ },
  { name: "PO: a NUL in a file without a header", format: "po", content: () => `msgid "a\0"\nmsgstr "b"\n`, line: 1, problem: /column 9: the file holds a NUL character/ },
  { name: ".strings: a quote never closed, 10 MB", format: "strings", content: () => `"a" = "` + "x".repeat(10 * MB - 64), line: 1, problem: /column 7: the value that starts here is never closed/ },
  { name: ".strings: a comment never closed, 10 MB", format: "strings", content: () => `"a" = "b";\n/* ` + "x".repeat(10 * MB - 64), line: 2, problem: /a comment \/\* is never closed/ },
  { name: ".strings: a lone surrogate (a broken UTF-16 file decoded)", format: "strings", content: () => `"a" = "b";\n"c" = "\uD800d";\n`, line: null, problem: /^request body is not valid Unicode: content holds a lone UTF-16 surrogate/ },
  { name: ".strings: NUL characters (UTF-16 without a byte order mark)", format: "strings", content: () => Buffer.from('"a" = "b";\n', "utf16le").toString("latin1"), line: 1, problem: /UTF-16 without a byte order mark/ },
  { name: ".strings: a 9 MB key, answered without echoing it", format: "strings", content: () => `"${"k".repeat(9 * MB)}" = "x";\n`, line: null, problem: /entry "k{80}…": "key": at most 512 characters/ },
  { name: ".stringsdict: 100,000 nested dicts", format: "stringsdict", content: () => plist("<dict><key>a</key>".repeat(100_000) + "<string>x</string>" + "</dict>".repeat(100_000)), line: 3, problem: /nested deeper than 32 levels/ },
  { name: ".stringsdict: 50,000 plural forms", format: "stringsdict", content: () => plist(`<dict><key>k</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string><key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string><key>NSStringFormatValueTypeKey</key><string>d</string>` + Array.from({ length: 50_000 }, (_, i) => `<key>f${i}</key><string>x</string>`).join("") + `<key>other</key><string>y</string></dict></dict></dict>`), line: 3, problem: /"f0" is no plural category/ },
  { name: ".stringsdict: a 9 MB key, answered without echoing it", format: "stringsdict", content: () => plist(`<dict><key>${"k".repeat(9 * MB)}</key><string>x</string></dict>`), line: 3, problem: /"k+…$/ },
  { name: ".xcstrings: 100,000 languages", format: "xcstrings", status: 413, content: () => catalog({ k: { localizations: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`x-l${i}`, { stringUnit: { state: "translated", value: "v" } }])) } }), line: null, problem: /more than 100,000 entries/ },
  { name: ".xcstrings: 50,000 nested variations", format: "xcstrings", content: () => `{"sourceLanguage":"en","strings":{"k":{"localizations":{"en":{"variations":` + `{"plural":{"one":{"variations":`.repeat(50_000) + "null" + "}}}".repeat(50_000) + "}}}}}", line: null, problem: /has no "other" form|nest/ },
  { name: ".xcstrings: a million nested lists", format: "xcstrings", content: () => `{"sourceLanguage":"en","strings":` + "[".repeat(MB) + "]".repeat(MB) + "}", line: null, problem: /"strings" must be an object, not a list/ },
  { name: ".xcstrings: a lone surrogate as a JSON escape", format: "xcstrings", content: () => catalog({ k: { localizations: { en: { stringUnit: { state: "translated", value: "\\ud800" } } } } }).replace("\\\\ud800", "\\ud800"), line: null, problem: /entry "k": "value": must be valid Unicode/ },
  { name: ".xcstrings: a NUL in a key", format: "xcstrings", content: () => catalog({ "k\0": { localizations: { en: { stringUnit: { state: "translated", value: "v" } } } } }), line: null, problem: /"key": must not contain control characters/ },
];

let t: TestApp;
let admin: DashboardClient;
let pid: string;
beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Hostile", "en", ["ru"]);
});
afterAll(() => t.close());

function counts() {
  return {
    keys: t.query<{ n: number }>("SELECT count(*) AS n FROM translation_keys")[0]!.n,
    values: t.query<{ n: number }>("SELECT count(*) AS n FROM translations")[0]!.n,
    events: t.query<{ n: number }>("SELECT count(*) AS n FROM outbox_events")[0]!.n,
  };
}

describe("docs/formats.md Bad files: hostile native files are a short 400 naming the line and the problem, nothing imported", () => {
  for (const h of HOSTILE) {
    test(h.name, async () => {
      const before = counts();
      const language_code = h.format === "po" ? "ru" : "en";
      const r = await admin.post(`/projects/${pid}/import`, { language_code, format: h.format, content: h.content() });
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(h.status ?? 400);
      expect(r.body.error).toMatch(h.problem);
      if (h.line !== null) expect(r.body.error).toMatch(new RegExp(`: line ${h.line}[,:]`));
      expect(JSON.stringify(r.body).length).toBeLessThan(1024);
      expect(counts()).toEqual(before);
    });
  }

  test("a PO file without a header entry is read (it was a 500), and a plural entry in one is a 400 naming its line", async () => {
    const plain = await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "po", content: `msgid "hello"\nmsgstr "Hello"\n`, dry_run: true });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body.created_keys).toBe(1);
    const plural = await admin.post(`/projects/${pid}/import`, { language_code: "en", format: "po", content: `msgid "a"\nmsgid_plural "as"\nmsgstr[0] "x"\nmsgstr[1] "y"\n`, dry_run: true });
    expect(plural.status).toBe(400);
    expect(plural.body.error).toMatch(/^invalid field "content": line 2, column 1: not a valid PO file: Plural forms range error/);
  });

  test("while all of them are imported at once, the server's thread keeps answering", async () => {
    // Several callers, so the per-caller share of the import queue does not turn them away.
    const clients = await Promise.all(Array.from({ length: 4 }, async (_, i) => {
      const client = t.client();
      client.bearer = (await admin.post(`/projects/${pid}/tokens`, { name: `CI ${i}`, scopes: ["write"] })).body.token;
      return client;
    }));
    let running = true;
    let answers = 0;
    const probing = (async () => {
      while (running) {
        expect((await t.fetch("/healthz")).status).toBe(200);
        answers++;
        await Bun.sleep(2);
      }
    })();
    // The slowest of them (seconds each on the worker), one per caller.
    const heavy = HOSTILE.filter((h) => h.name.includes("10 MB") || h.name.includes("50,000 plural forms"));
    expect(heavy).toHaveLength(3);
    const before = counts();
    const replies = await Promise.all(
      heavy.map((h, i) =>
        clients[i % clients.length]!.post(`/projects/${pid}/import`, { language_code: h.format === "po" ? "ru" : "en", format: h.format, content: h.content() }),
      ),
    );
    running = false;
    await probing;
    expect(replies.map((r) => r.status)).toEqual([400, 400, 400]);
    expect(counts()).toEqual(before);
    // Some seconds of parsing on a worker: on the server's thread there would be none in between.
    expect(answers, `${heavy.length} hostile imports`).toBeGreaterThanOrEqual(50);
  }, 120_000);
});

describe("docs/automation.md: the client's push refuses hostile files with one line naming the file, exit 1", () => {
  let d: Deployment;
  let repo: string;
  beforeAll(async () => {
    d = await deployment(["ru"]);
    repo = gitRepo({ "phrasebook.yaml": "files:\n  - source: en.json\n    translations: out/{language}.json\n", "en.json": '{"a": "A"}' });
  });
  afterAll(() => d?.stop());

  const cases: { file: string; bytes: () => Uint8Array; language: string; message: RegExp }[] = [
    { file: "utf16-lone.strings", language: "en", bytes: () => new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('"a" = "b";\n"c" = "', "utf16le"), Buffer.from([0x00, 0xd8]), Buffer.from('d";\n', "utf16le")])), message: /^phrasebook: utf16-lone\.strings: not valid UTF-16 \(a lone surrogate, or an odd number of bytes\)/ },
    { file: "nul.po", language: "ru", bytes: () => new TextEncoder().encode(poHeader() + `msgid "a"\nmsgstr "b\0c"\n`), message: /^phrasebook: nul\.po:7:10: the file holds a NUL character/ },
    { file: "open.strings", language: "en", bytes: () => new TextEncoder().encode(`"a" = "` + "x".repeat(9 * MB)), message: /^phrasebook: open\.strings:1:7: the value that starts here is never closed/ },
    { file: "forms.po", language: "ru", bytes: () => new TextEncoder().encode(poHeader() + `msgid "a"\nmsgid_plural "as"\n` + Array.from({ length: 5000 }, (_, i) => `msgstr[${i}] "x"`).join("\n") + "\n"), message: /^phrasebook: forms\.po:14:1: msgstr\[6\]: an entry has at most 6 plural forms/ },
    { file: "few-forms.po", language: "ru", bytes: () => new TextEncoder().encode(poHeader() + `msgid "a"\nmsgid_plural "as"\nmsgstr[0] "x"\n`), message: /^phrasebook: few-forms\.po:7:1: not a valid PO file: Plural forms range error: Expected to find 3 forms but got 1/ },
  ];
  for (const c of cases) {
    test(c.file, async () => {
      writeFileSync(join(repo, c.file), c.bytes());
      const before = (await d.admin.get(`/projects/${d.pid}/keys`)).body.page_info;
      const run = await phrasebook(["push", c.file, "--language", c.language], { cwd: repo, env: d.env });
      expect(run.code, run.stderr + run.stdout).toBe(1);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(c.message);
      expect((await d.admin.get(`/projects/${d.pid}/keys`)).body.page_info).toEqual(before);
    });
  }
});
