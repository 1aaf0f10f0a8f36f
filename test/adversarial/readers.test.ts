/**
 * Hostile files against the readers (docs/formats.md "XML and bad files"): every
 * reader is linear in its input, every malformed file is a 400 naming the fault, and no key name
 * reaches an object's prototype. Linear is proved by counting the readers' work (WorkCounter:
 * each character a search reads, each token) as the file doubles, never by timing.
 *
 * What the review found on the readers of main 57466aa, each held here:
 * - the XML safety pass searched for the closer of `<?`, `<!--` or `<![CDATA[` again from every
 *   opener: a 400 KB XLIFF of `<?` took 28 s (and `push` ran the same pass locally);
 * - YAML anchors repeated on one node (`&a &a …`), `{a: ` and `a: |` cost the square of the file
 *   before the reader refused it (240 KB: 14.9 s; a hostile server's `de.yaml` held `pull`);
 * - the 32-level XML nesting limit read `<group x="/>">` as self-closing (60 levels passed; 100
 *   and more reached the parser's own limit, a 500);
 * - an XML element or attribute named `__proto__` or `constructor` was a 500, and so was a JSON
 *   file of 40,000 `[` (the scanner that finds an error's position recursed per level);
 * - a PO `msgid "__proto__"` was refused as a duplicate.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFile, type FormatName } from "../../src/formats/registry.ts";
import { IMPORT_LIMITS } from "../../src/formats/read.ts";
import { testApp, type TestApp } from "../helpers/app.ts";
import type { DashboardClient } from "../helpers/dashboard-client.ts";

let t: TestApp;
let admin: DashboardClient;
let pid: string;
beforeAll(async () => {
  t = await testApp();
  admin = await t.login();
  pid = await admin.project("Hostile readers", "en", ["de"]);
});
afterAll(() => t.close());

/** What reading `content` costs in counted steps, and how it ended (the error's message, or "read"). */
async function counted(format: FormatName, content: string): Promise<{ steps: number; outcome: string }> {
  const work = { steps: 0 };
  try {
    await readFile(format, content, work);
    return { steps: work.steps, outcome: "read" };
  } catch (err) {
    return { steps: work.steps, outcome: `${(err as { status?: number }).status ?? 500} ${(err as Error).message}` };
  }
}

/** Reads the file made for n and for 2n units: the work at most doubles (and a little), and each ends as `outcome`. */
async function linear(format: FormatName, make: (n: number) => string, n: number, outcome: RegExp): Promise<void> {
  const one = await counted(format, make(n));
  const two = await counted(format, make(2 * n));
  expect(one.outcome).toMatch(outcome);
  expect(two.outcome).toMatch(outcome);
  expect(one.steps).toBeGreaterThan(0);
  expect(two.steps / one.steps).toBeLessThan(2.2);
}

async function imported(format: FormatName, content: string, language_code = "en") {
  return admin.post(`/projects/${pid}/import`, { format, content, language_code });
}

describe("XML: the safety pass before the parser is linear, and finds each closer once", () => {
  const head = `<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" datatype="plaintext" original="x"><body>\n`;
  for (const [opener, what] of [["<?", "a processing instruction"], ["<!--", "a comment"], ["<![CDATA[", "a CDATA section"]] as const) {
    test(`${opener} repeated without its closer: refused where the first opens, in work that doubles with the file`, async () => {
      await linear("xliff", (n) => head + opener.repeat(n), 50_000, new RegExp(`^400 invalid field "content": line 3, column 1: ${what} \\(${opener.replace(/[[\]?]/g, "\\$&")}\\) is never closed`));
      await linear("android", (n) => `<resources>\n<string name="a">x</string>\n${`${opener} x `.repeat(n)}`, 50_000, /^400 .*line 3, column 1: .* is never closed/);
    });
  }

  test("closers that do come, many of them, and attribute values with > and /> inside: linear too", async () => {
    const units = (n: number) => head + `<?pi x?><!-- c --><group id="g" x="/>"></group>`.repeat(n) + `<trans-unit id="k"><source>v</source></trans-unit></body></file></xliff>`;
    await linear("xliff", units, 5_000, /^read$/);
  });

  test("a 400 KB XLIFF of <? over HTTP: a 400 naming the fault", async () => {
    const r = await imported("xliff", head + "<?".repeat(200_000));
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid field "content": line 3, column 1: a processing instruction (<?) is never closed with ?>');
  });
});

describe("YAML: no shape costs the square of the file before the reader refuses it", () => {
  test("anchors repeated on one node (&a &a …): refused at the second, linear", async () => {
    await linear("yaml", (n) => "a: " + "&a ".repeat(n) + "x\n", 40_000, /^400 .*line 1, column 7: a node with two anchors/);
    await linear("yaml", (n) => "a: " + "!t ".repeat(n) + "x\n", 40_000, /^400 .*a node with two tags/);
  });

  test("more than 100 anchors in a file: refused from the tokens, before any document is composed", async () => {
    await linear("yaml", (n) => Array.from({ length: n }, (_, i) => `k${i}: &a${i} v`).join("\n"), 1_000, new RegExp(`^400 .*line ${IMPORT_LIMITS.yamlAliases + 1}, column \\d+: more than 100 anchors`));
  });

  test("{a: {a: … and - - - …: nested deeper than 32 levels, refused where it goes too deep", async () => {
    await linear("yaml", (n) => "{a: ".repeat(n), 40_000, /^400 .*line 1, column 129: collections are nested deeper than 32 levels/);
    await linear("yaml", (n) => "- ".repeat(n) + "x", 40_000, /^400 .*collections are nested deeper than 32 levels/);
    await linear("yaml", (n) => Array.from({ length: n }, (_, i) => `${" ".repeat(i % 200)}k:`).join("\n"), 400, /^400 .*line 34, column 34: collections are nested deeper than 32 levels/);
  });

  test("a: | repeated, and errors by the thousand on one line: linear", async () => {
    await linear("yaml", (n) => "a: |\n".repeat(n), 5_000, /^400 .*line 2, column 1: key "a" appears twice/);
    await linear("yaml", (n) => "a: | x\n".repeat(n), 5_000, /^400 .*not valid YAML/);
    await linear("yaml", (n) => "a: " + "b: ".repeat(n), 10_000, /^400 .*not valid YAML/);
  }, 30_000);

  test("a 240 KB de.yaml of &a over HTTP: a 400 naming the fault", async () => {
    const r = await imported("yaml", "a: " + "&a ".repeat(80_000) + "x\n", "de");
    expect(r.status).toBe(400);
    expect(r.body.error).toBe('invalid field "content": line 1, column 7: a node with two anchors: a node has at most one');
  });
});

describe("XML nesting is counted over whole tags, attribute values read within their quotes", () => {
  const group = (n: number) => `<?xml version="1.0"?><xliff version="1.2"><file source-language="en" datatype="plaintext" original="x"><body>${'<group x="/>">'.repeat(n)}<trans-unit id="k"><source>v</source></trans-unit>${"</group>".repeat(n)}</body></file></xliff>`;
  for (const n of [60, 150]) {
    test(`${n} <group x="/>"> levels: a 400 naming the nesting (60 were let through; 100 and more were a 500)`, async () => {
      const r = await imported("xliff", group(n));
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(new RegExp(`^invalid field "content": line 1, column \\d+: elements are nested deeper than ${IMPORT_LIMITS.depth} levels$`));
    });
  }

  test("within the limit, such a file is read", async () => {
    expect((await counted("xliff", group(20))).outcome).toBe("read");
  });
});

describe("crafted names and depths are a 400 naming the fault, never a 500", () => {
  const cases: [string, FormatName, string, RegExp][] = [
    ["an XML element named __proto__", "android", `<?xml version="1.0"?>\n<resources>\n<__proto__>x</__proto__>\n<string name="a">b</string>\n</resources>`, /line 3, column 2: an element or attribute named "__proto__"/],
    ["an XML attribute named constructor", "android", `<?xml version="1.0"?>\n<resources>\n<string name="a" constructor="x">b</string>\n</resources>`, /line 3, column 18: an element or attribute named "constructor"/],
    ["an XLIFF attribute named __proto__", "xliff", `<?xml version="1.0"?>\n<xliff version="1.2"><file source-language="en" __proto__="x"><body><trans-unit id="a"><source>x</source></trans-unit></body></file></xliff>`, /line 2, column \d+: an element or attribute named "__proto__"/],
    ["a stringsdict element named prototype", "stringsdict", `<?xml version="1.0"?>\n<plist version="1.0"><dict><prototype/></dict></plist>`, /line 2, column \d+: an element or attribute named "prototype"/],
    ["JSON of 40,000 [", "json", "[".repeat(40_000), /line 1, column 33: not valid JSON: objects and lists are nested deeper than 32 levels/],
    ["JSON of 40,000 {\"a\":", "json", '{"a":'.repeat(40_000), /line 1, column 161: not valid JSON: objects and lists are nested deeper than 32 levels/],
    ["an ARB of 40,000 [", "arb", "[".repeat(40_000), /line 1, column 33: not valid ARB/],
    ["a String Catalog of 40,000 [", "xcstrings", `{"strings": ${"[".repeat(40_000)}`, /line 1, column 44: not valid a String Catalog/],
  ];
  for (const [name, format, content, problem] of cases) {
    test(name, async () => {
      const r = await imported(format, content);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error).toMatch(problem);
    });
  }

  test("finding where a JSON file goes wrong is linear: deep ones stop where they go too deep, others are read once", async () => {
    await linear("json", (n) => "[".repeat(n), 40_000, /^400 .*line 1, column 33: .*nested deeper than 32 levels/);
    await linear("json", (n) => `{"a": ${"[1,".repeat(30)}"${"x".repeat(n)}`, 200_000, /^400 .*a string is not closed/);
  });
});

describe("no key name reaches an object's prototype", () => {
  test("a PO msgid \"__proto__\" is a key like any other (it was refused as a duplicate), and so are constructor and toString", async () => {
    const po = `msgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgid "__proto__"\nmsgstr "Prototyp"\n\nmsgid "constructor"\nmsgstr "Konstruktor"\n\nmsgid ""\n"toString"\nmsgstr "Zeichenkette"\n`;
    const r = await imported("po", po, "de");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const keys = (await admin.get(`/projects/${pid}/keys?page_size=500&search=o`)).body.items;
    const de = Object.fromEntries(keys.map((k: any) => [k.key, k.translations.de?.value]));
    expect(de).toMatchObject({ __proto__: "Prototyp", constructor: "Konstruktor", toString: "Zeichenkette" });
    // A real duplicate is still one.
    const twice = await imported("po", `msgid "__proto__"\nmsgstr "a"\n\nmsgid "__proto__"\nmsgstr "b"\n`, "de");
    expect(twice.status).toBe(400);
    expect(twice.body.error).toContain('Duplicate msgid error: entry "__proto__"');
  });

  test("__proto__ and constructor as keys in every format that can name them: read as keys, Object.prototype untouched", async () => {
    const files: [FormatName, string][] = [
      ["json", '{"__proto__": {"polluted": "x"}, "constructor": "c"}'],
      ["yaml", "__proto__:\n  polluted: x\nconstructor: c\n"],
      ["android", '<resources><string name="__proto__">x</string><string name="constructor">c</string></resources>'],
      ["xliff", '<xliff version="1.2"><file source-language="en"><body><trans-unit id="__proto__"><source>x</source></trans-unit><trans-unit id="constructor"><source>c</source></trans-unit></body></file></xliff>'],
      ["strings", '"__proto__" = "x";\n"constructor" = "c";\n'],
      ["xcstrings", '{"sourceLanguage": "en", "strings": {"__proto__": {"localizations": {"en": {"stringUnit": {"value": "x"}}}}}}'],
    ];
    for (const [format, content] of files) {
      const read = await readFile(format, content);
      const keys = read.languages.flatMap((l) => l.entries.map((e) => e.key));
      expect(keys.some((k) => k.startsWith("__proto__")), format).toBe(true);
      expect(({} as Record<string, unknown>).polluted, format).toBeUndefined();
    }
  });
});
