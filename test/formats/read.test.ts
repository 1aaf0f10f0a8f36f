/**
 * Reading translation files for import and for `phrasebook push` (product §4, §6), through the
 * formats' `read` as the registry calls it: flattening, YAML scalars as written, clear 400s with the
 * line and column, and the bounds of docs/publishing.md §6 "Limits".
 */
import { describe, expect, test } from "bun:test";
import { ContentError, IMPORT_LIMITS } from "../../src/formats/read.ts";
import { readOneLanguage as parseImport, type FormatName } from "../../src/formats/registry.ts";

const reader = (format: FormatName) => (content: string) => parseImport(format, content);
const parseJson = reader("json");
const parseYaml = reader("yaml");
const parseArb = reader("arb");

/** The status and message a parser throws, or "no error". */
async function failure(fn: () => unknown): Promise<string> {
  try {
    await fn();
  } catch (err) {
    return `${(err as { status: number }).status} ${(err as Error).message}`;
  }
  return "no error";
}

describe("import parsers (product §4)", () => {
  test("product §4 import: nested JSON and YAML objects flatten with dots; YAML scalars stay the text written", async () => {
    expect((await parseJson('{"a": {"b": "x", "c": {"d": "y"}}, "e": "z"}')).entries).toEqual([
      { key: "a.b", value: "x" },
      { key: "a.c.d", value: "y" },
      { key: "e", value: "z" },
    ]);
    expect((await parseYaml("on: yes\nn: 1.0\nnull: ~\nq: 'quoted'\nnest:\n  x: 2001-01-01\n")).entries).toEqual([
      { key: "on", value: "yes" },
      { key: "n", value: "1.0" },
      { key: "null", value: "~" },
      { key: "q", value: "quoted" },
      { key: "nest.x", value: "2001-01-01" },
    ]);
  });

  test("product §4, §9 import: an ARB file gives its messages, their descriptions, their whole @ entries, its @@locale and its other @@ attributes", async () => {
    const parsed = await parseImport("arb", JSON.stringify({ "@@locale": "pt_BR", "@@last_modified": "2026-01-01", "@@x-team": "web", hello: "Olá {name}", "@hello": { description: "greeting", placeholders: { name: {} } }, bye: "Tchau" }));
    expect(parsed.locale).toBe("pt_BR");
    expect(parsed.entries).toEqual([
      { key: "hello", value: "Olá {name}", description: "greeting", attributes: { description: "greeting", placeholders: { name: {} } } },
      { key: "bye", value: "Tchau", attributes: {} },
    ]);
    expect(parsed.attributes).toEqual({ "@@x-team": "web" });
  });

  test("product §4 import: malformed files are 400s that say what is wrong", async () => {
    expect(await failure(() => parseJson("{"))).toMatch(/^400 invalid field "content": line 1, column 2: not valid JSON/);
    expect(await failure(() => parseJson("[1]"))).toBe('400 invalid field "content": line 1, column 1: JSON must hold an object at the top, not a list');
    expect(await failure(() => parseJson('{"a": 1}'))).toBe('400 invalid field "content": the value of "a" must be a string, not a number');
    expect(await failure(() => parseJson('{"a.b": "x", "a": {"b": "y"}}'))).toContain('key "a.b" appears twice');
    expect(await failure(() => parseYaml("a: [1, 2]"))).toBe('400 invalid field "content": line 1, column 4: the value of "a" must be a string, not a list');
    expect(await failure(() => parseYaml("a: b\na: c\n"))).toBe('400 invalid field "content": line 2, column 1: key "a" appears twice');
    expect(await failure(() => parseYaml("- a\n- b\n"))).toContain("YAML must hold a mapping at the top");
    expect(await failure(() => parseArb('{"a": {"x": 1}}'))).toBe('400 invalid field "content": the message "a" must be a string, not an object');
    expect(await failure(() => parseArb('{"a": "x", "@a": "desc"}'))).toBe('400 invalid field "content": the metadata "@a" must be an object, not a string');
  });

  test("product §6: a syntax error names its line and column, for JSON and ARB too (JSON.parse says neither)", async () => {
    const at = async (fn: () => unknown) => {
      try {
        await fn();
      } catch (err) {
        return err instanceof ContentError ? [err.line, err.column, err.reason] : String(err);
      }
      return "no error";
    };
    expect(await at(() => parseJson('{\n  "a": "x"\n  "b": "y"\n}'))).toEqual([3, 3, 'not valid JSON: expected "," or the end of the object or list']);
    expect(await at(() => parseArb('{\n  "a": "x",\n}'))).toEqual([3, 1, "not valid ARB (a JSON document): expected a property name in double quotes"]);
    expect(await at(() => parseJson('{"a": "tab\there"}'))).toEqual([1, 7, "not valid JSON: a control character in a string (escape it)"]);
    expect(await at(() => parseYaml("a: b\n\tc: d\n"))).toEqual([2, 1, "not valid YAML: Tabs are not allowed as indentation"]);
    // A quote never closed is reported where it opens, not at the end of the file.
    expect(await at(() => parseYaml('a: b\nc: "open\nd: e\nf: g\n'))).toEqual([2, 4, 'not valid YAML: Missing closing "quote']);
    expect(await at(() => parseYaml('a: "esc\\"\nb: c\n'))).toEqual([1, 4, 'not valid YAML: Missing closing "quote']);
  });

  test("docs/formats.md Bad files: a lone surrogate is refused with its line and column, in any format, before the format reads it", async () => {
    expect(await failure(() => parseJson('{\n  "a": "x\uD800"\n}'))).toBe('400 invalid field "content": line 2, column 10: a lone UTF-16 surrogate (U+D800) is not a character: the file is not valid Unicode');
    expect(await failure(() => reader("strings")('"\uDC00" = "b";'))).toBe('400 invalid field "content": line 1, column 2: a lone UTF-16 surrogate (U+DC00) is not a character: the file is not valid Unicode');
    // A pair is one character.
    expect(await parseJson('{"a": "\uD83D\uDE00"}')).toMatchObject({ entries: [{ key: "a", value: "\u{1F600}" }] });
  });

  test("a byte order mark, as editors on Windows write, is no error", async () => {
    expect((await parseImport("json", '\uFEFF{"a": "b"}')).entries).toEqual([{ key: "a", value: "b" }]);
    expect((await parseImport("arb", '\uFEFF{"@@locale": "de", "a": "b"}')).locale).toBe("de");
  });

  test("docs/publishing.md §6 limits: size, entries, depth and YAML aliases, each naming the limit", async () => {
    expect(IMPORT_LIMITS).toEqual({ bytes: 10 * 1024 * 1024, entries: 100_000, depth: 32, yamlAliases: 100 });
    // Size counts UTF-8 bytes: 3.6 million three-byte characters are 10.8 MB.
    expect(await failure(() => parseImport("json", JSON.stringify({ a: "€".repeat(3_600_000) })))).toBe('413 invalid field "content": the file is 10.3 MB; the limit is 10 MB per file');
    expect(await failure(() => parseImport("json", JSON.stringify({ a: "e".repeat(10 * 1024 * 1024 - 10) })))).toBe("no error");
    const entries = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));
    expect(await failure(() => parseImport("json", JSON.stringify(entries(100_000))))).toBe("no error");
    expect(await failure(() => parseImport("json", JSON.stringify(entries(100_001))))).toBe('413 invalid field "content": more than 100,000 entries (the limit of one file)');
    expect(await failure(() => parseImport("arb", JSON.stringify(entries(100_001))))).toContain("413");
    const nested = (depth: number) => '{"k":'.repeat(depth) + '"v"' + "}".repeat(depth);
    expect(await failure(() => parseImport("json", nested(32)))).toBe("no error");
    expect(await failure(() => parseImport("json", nested(33)))).toContain("is nested deeper than 32 levels");
    // JSON.parse takes any depth; the walk stops at the limit, long before the stack would.
    expect(await failure(() => parseImport("json", nested(200_000)))).toContain("is nested deeper than 32 levels");
    expect(await failure(() => parseImport("yaml", "a: &x {b: c}\n" + Array.from({ length: 100 }, (_, i) => `k${i}: *x`).join("\n")))).toBe("no error");
    expect(await failure(() => parseImport("yaml", "a: &x {b: c}\n" + Array.from({ length: 101 }, (_, i) => `k${i}: *x`).join("\n")))).toContain("more than 100 aliases");
    // An alias that contains itself stops at the depth limit.
    expect(await failure(() => parseImport("yaml", "x: &x {a: &y {b: *x}}\n"))).toContain("deeper than 32 levels");
  });
});
