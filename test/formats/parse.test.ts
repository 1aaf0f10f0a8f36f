/** Reading translation files for import (product §4): flattening, YAML scalars as written, and clear 400s. */
import { describe, expect, test } from "bun:test";
import { parseArb, parseImport, parseJson, parseYaml } from "../../src/formats/parse.ts";

/** The status and message a parser throws, or "no error". */
function failure(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return `${(err as { status: number }).status} ${(err as Error).message}`;
  }
  return "no error";
}

describe("import parsers (product §4)", () => {
  test("product §4 import: nested JSON and YAML objects flatten with dots; YAML scalars stay the text written", () => {
    expect(parseJson('{"a": {"b": "x", "c": {"d": "y"}}, "e": "z"}').entries).toEqual([
      { key: "a.b", value: "x" },
      { key: "a.c.d", value: "y" },
      { key: "e", value: "z" },
    ]);
    expect(parseYaml("on: yes\nn: 1.0\nnull: ~\nq: 'quoted'\nnest:\n  x: 2001-01-01\n").entries).toEqual([
      { key: "on", value: "yes" },
      { key: "n", value: "1.0" },
      { key: "null", value: "~" },
      { key: "q", value: "quoted" },
      { key: "nest.x", value: "2001-01-01" },
    ]);
  });

  test("product §4 import: an ARB file gives its messages, their descriptions and its @@locale", () => {
    const parsed = parseImport("arb", JSON.stringify({ "@@locale": "pt_BR", hello: "Olá {name}", "@hello": { description: "greeting", placeholders: { name: {} } }, bye: "Tchau" }));
    expect(parsed.locale).toBe("pt_BR");
    expect(parsed.entries).toEqual([
      { key: "hello", value: "Olá {name}", description: "greeting" },
      { key: "bye", value: "Tchau" },
    ]);
  });

  test("product §4 import: malformed files are 400s that say what is wrong", () => {
    expect(failure(() => parseJson("{"))).toMatch(/^400 invalid field "content": not valid JSON/);
    expect(failure(() => parseJson("[1]"))).toBe('400 invalid field "content": JSON must hold an object at the top, not a list');
    expect(failure(() => parseJson('{"a": 1}'))).toBe('400 invalid field "content": the value of "a" must be a string, not a number');
    expect(failure(() => parseJson('{"a.b": "x", "a": {"b": "y"}}'))).toContain('key "a.b" appears twice');
    expect(failure(() => parseYaml("a: [1, 2]"))).toBe('400 invalid field "content": the value of "a" must be a string, not a list');
    expect(failure(() => parseYaml("a: b\na: c\n"))).toMatch(/^400 invalid field "content": not valid YAML: Map keys must be unique/);
    expect(failure(() => parseYaml("- a\n- b\n"))).toContain("YAML must hold a mapping at the top");
    expect(failure(() => parseArb('{"a": {"x": 1}}'))).toBe('400 invalid field "content": the message "a" must be a string, not an object');
    expect(failure(() => parseArb('{"a": "x", "@a": "desc"}'))).toBe('400 invalid field "content": the metadata "@a" must be an object, not a string');
  });
});
