/**
 * Reading messages (product §7, docs/messages.md "Syntaxes"): what the checks and the ARB
 * placeholders are built on. The shortcut for common shapes must give exactly the parser's answer
 * wherever it answers at all; generated messages, valid and broken, compare the two.
 */
import { describe, expect, test } from "bun:test";
import { parseIcu, readCommonShapes, readMessage } from "../../src/messages/read.ts";
import { textPlaceholders } from "../../src/messages/text-placeholders.ts";

/** A small deterministic generator (the same messages on every run). */
function generator(seed: number) {
  let state = seed;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8) / 0x1000000;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return { next, pick };
}

/** What messages are made of, and (one piece in ten) what breaks them. */
const TEXTS = ["", "Hello", " ", "a b", "#", "# items", "}", "<b>", "</b>", "ü", "日本", "😀", "\n", "\t", ",", "=", ":", "x,y", "other", "plural"];
const NAMES = { valid: ["n", "count", "a_1", "0", "X"], broken: ["", " n", "n ", "a-b", "ü", "na me", "offset"] };
const TYPES = { valid: ["plural", "selectordinal", "select"], broken: ["number", "plurall", "", " plural"] };
const SELECTORS = { valid: ["one", "two", "few", "many", "zero", "=0", "=1", "=12", "male"], broken: ["=x", "=", "1", "offset", "offset:1", "Other", "one", "=-1"] };
const SPACES = { valid: ["", " ", "  "], broken: ["\n", "\t", "\u00a0"] };

function message(g: ReturnType<typeof generator>, depth = 0): string {
  const some = (list: { valid: string[]; broken: string[] }) => (g.next() < 0.9 ? g.pick(list.valid) : g.pick(list.broken));
  let out = "";
  const parts = 1 + Math.floor(g.next() * 4);
  for (let i = 0; i < parts; i++) {
    const kind = g.next();
    if (kind < 0.35) out += g.pick(TEXTS);
    else if (kind < 0.65 || depth >= 2) out += `{${some(NAMES)}}`;
    else {
      // Distinct selectors, as a translator writes them; "broken" ones may repeat or be invalid.
      const selectors = [...SELECTORS.valid].sort(() => g.next() - 0.5).slice(0, Math.floor(g.next() * 4)).map((v) => (g.next() < 0.9 ? v : g.pick(SELECTORS.broken)));
      if (g.next() < 0.9) selectors.splice(Math.floor(g.next() * (selectors.length + 1)), 0, "other");
      const cases = selectors.map((sel) => `${some(SPACES)}${sel}${some(SPACES)}{${message(g, depth + 1)}}`).join("");
      out += `{${some(NAMES)},${some(SPACES)}${some(TYPES)}${some(SPACES)},${cases}${some(SPACES)}}`;
    }
  }
  // Sometimes cut short, or with an apostrophe, so broken messages are compared too.
  if (g.next() < 0.1) out = out.slice(0, Math.floor(g.next() * out.length));
  if (g.next() < 0.05) out += "'";
  return out;
}

describe("reading ICU messages (product §7)", () => {
  test("the shortcut for common shapes answers exactly as the parser, on 50,000 generated messages", () => {
    const g = generator(7);
    let answered = 0;
    let withPlurals = 0;
    for (let i = 0; i < 50_000; i++) {
      const value = message(g);
      const quick = readCommonShapes(value);
      if (quick === null) continue;
      answered++;
      if (quick.plurals.length > 0) withPlurals++;
      expect({ value, read: quick }).toEqual({ value, read: parseIcu(value) });
    }
    // The comparison means something only if the shortcut takes a fair share, plurals included.
    expect(answered).toBeGreaterThan(10_000);
    expect(withPlurals).toBeGreaterThan(400);
  });

  test("the shortcut leaves to the parser what it cannot vouch for", () => {
    for (const value of [
      "It's {name}",
      "{ name }",
      "{n, plural, offset:1 other {#}}",
      "{n, plural, offset {x} other {y}}",
      "{n, plural, one {#}}",
      "{n, plural, one {a} one {b} other {c}}",
      "{n, select, 1 {a} other {b}}",
      "{n, plural, =-1 {a} other {b}}",
      "{n, plural,\nother {#}}",
      "{g, select, a {{n, plural, other {#}}} other {x}}",
      "{n, number}",
      "{n, plural, other {# {x, number}}}",
    ]) {
      expect(readCommonShapes(value)).toBeNull();
    }
  });

  test("readMessage reads both ways alike: what the shortcut leaves, the parser reads", () => {
    const g = generator(11);
    for (let i = 0; i < 2_000; i++) {
      const value = message(g);
      // Tags (`<b>`) are read beside the parse, in every syntax (docs/messages.md "Tags").
      const { tags: _, ...read } = readMessage(value, "icu");
      expect(read).toEqual(parseIcu(value));
    }
  });

  test("kinds: the most specific use of an argument wins; a plural records its categories and exact cases", () => {
    expect(readMessage("{n} of {n, plural, =0 {none} one {# file} other {# files from {who}}}", "icu")).toEqual({
      arguments: [
        { name: "n", kind: "plural" },
        { name: "who", kind: "plain" },
      ],
      plurals: [{ argument: "n", ordinal: false, offset: 0, categories: ["one", "other"], exact: [0] }],
      fault: null,
    });
  });
});

describe("reading text-syntax messages (product §7)", () => {
  test("{name} and {{name}} tokens, with i18next's format and unescape forms; other braces are text", () => {
    expect(textPlaceholders("Hi {{name}}, {{ count, number }} new, {{- html}}, {user.email} {# no} {} {{}} {a b}")).toEqual(["name", "count", "html", "user.email"]);
    expect(readMessage("{count, plural, one {#} other {#}", "text")).toEqual({ arguments: [], plurals: [], fault: null });
  });

  test("a 100,000-character text of braces reads in linear time", () => {
    const distinct = (n: number) => Array.from({ length: n }, (_, i) => `{a${i.toString(36)}}`).join("");
    for (const value of ["{".repeat(100_000), "{{a".repeat(33_000), "{a}".repeat(33_000), distinct(16_000)]) {
      const work = { steps: 0 };
      textPlaceholders(value, work);
      // One scan of the value and a step per token; the times are in bench/messages.bench.sh.
      expect(work.steps, value.slice(0, 6)).toBeLessThanOrEqual(value.length + value.length / 3);
    }
    const names = (n: number) => {
      const work = { steps: 0 };
      return { found: textPlaceholders(distinct(n), work).length, steps: work.steps };
    };
    const [full, half] = [names(16_000), names(8_000)];
    expect([full.found, half.found]).toEqual([16_000, 8_000]);
    expect(full.steps).toBeLessThanOrEqual(2.2 * half.steps);
  });
});
