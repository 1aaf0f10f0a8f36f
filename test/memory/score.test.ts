/**
 * The memory's score (docs/translators.md "Translation memory"): floor(100 x (1 - d / max(m, n))),
 * d the Levenshtein distance over code points after trimming and collapsing white space, placeholder
 * names counted as equal, case-sensitive; and a suggestion's placeholders renamed to this key's.
 */
import { describe, expect, test } from "bun:test";
import { nameMapping, nameSpans, renamed, withoutNames } from "../../src/memory/placeholders.ts";
import { codePoints, comparable, distance, score, scoreOf } from "../../src/memory/score.ts";

const s = (a: string, b: string, syntax: "icu" | "flutter" | "text" | "i18next" = "icu") => score(codePoints(comparable(a, syntax)), codePoints(comparable(b, syntax)));

/** The formula written out over code points, independently of the implementation's cut-off. */
function reference(a: string, b: string): number {
  const x = [...a.trim().replace(/\s+/g, " ")];
  const y = [...b.trim().replace(/\s+/g, " ")];
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) for (let j = 1; j <= y.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
  const m = Math.max(x.length, y.length);
  // In whole numbers: in floating point 1 - 4/5 is 0.19999999999999996, and 20 would come out 19.
  return m === 0 ? 100 : Math.floor((100 * (m - d[x.length]![y.length]!)) / m);
}

describe("translators.md: the memory's score", () => {
  test("equal strings score 100; one edit in twelve code points scores 91", () => {
    expect(s("Save the file", "Save the file")).toBe(100);
    expect(s("Save the file", "Save the files")).toBe(92); // d 1, max 14: floor(92.86)
    expect(s("Delete account", "Delete acount")).toBe(92);
  });

  test("trimmed, white space collapsed, case kept", () => {
    expect(s("  Save \t the\n file ", "Save the file")).toBe(100);
    expect(s("save the file", "Save the file")).toBe(92);
  });

  test("code points, not UTF-16 units: an emoji is one", () => {
    expect(distance(codePoints("a😀b"), codePoints("a😁b"))).toBe(1);
    expect(codePoints("😀").length).toBe(1);
    expect(s("Nice 😀", "Nice 😁")).toBe(scoreOf(1, 6));
  });

  test("placeholder names count as equal, in ICU and in the text syntaxes", () => {
    expect(s("Hello {name}!", "Hello {user}!")).toBe(100);
    expect(s("{count, plural, one {# file} other {# files}}", "{n, plural, one {# file} other {# files}}")).toBe(100);
    expect(s("Hi {{name}}", "Hi {{user}}", "i18next")).toBe(100);
    // A select's cases are no placeholders: `{He}` and `{She}` differ.
    expect(s("{g, select, male {He} other {They}}", "{g, select, male {She} other {They}}")).toBeLessThan(100);
  });

  test("whole-number arithmetic: 4 edits in 5 is 20, where floating point says 19", () => {
    expect(Math.floor(100 * (1 - 4 / 5))).toBe(19); // the float's slip the score must not make
    expect(scoreOf(4, 5)).toBe(20);
  });

  test("below the cut-off a score is -1, at it the formula's number (75 exactly is in)", () => {
    expect(score(codePoints("abcd"), codePoints("abce"), 75)).toBe(75);
    expect(score(codePoints("abc"), codePoints("abd"), 75)).toBe(-1); // 66
    expect(score(codePoints("Cancel"), codePoints("Cancle"), 75)).toBe(-1); // d 2 of 6: 66
  });

  test("agrees with the formula written out, on many pairs", () => {
    const words = ["Save", "file", "the", "files", "your", "Übersicht", "😀", "{name}", "  ", "a", "ab"];
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const phrase = () => Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => words[Math.floor(rnd() * words.length)]).join(" ");
    for (let i = 0; i < 500; i++) {
      const a = phrase().replace(/\{name\}/g, "x");
      const b = phrase().replace(/\{name\}/g, "x");
      const expected = reference(a, b);
      expect(score(codePoints(comparable(a, "icu")), codePoints(comparable(b, "icu")), 0)).toBe(expected);
      const cut = score(codePoints(comparable(a, "icu")), codePoints(comparable(b, "icu")), 75);
      expect(cut).toBe(expected >= 75 ? expected : -1);
    }
  });
});

describe("translators.md: the distance's band", () => {
  test("computing only the cells within `max` of the diagonal gives the full table's answer, or max + 1", () => {
    const full = (x: string[], y: string[]) => {
      const d = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
      for (let i = 1; i <= x.length; i++) for (let j = 1; j <= y.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
      return d[x.length]![y.length]!;
    };
    let seed = 3;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const word = () => Array.from({ length: Math.floor(rnd() * 15) }, () => "abcde"[Math.floor(rnd() * 5)]!);
    for (let k = 0; k < 5000; k++) {
      const [a, b, max] = [word(), word(), Math.floor(rnd() * 10)];
      const f = full(a, b);
      expect(distance(codePoints(a.join("")), codePoints(b.join("")), max)).toBe(f <= max ? f : max + 1);
    }
  });

  test("the work is the band, not the table: two strings of 2,000 code points within 10 edits cost about 2,000 x 21 cells", () => {
    const a = codePoints("x".repeat(2000));
    const b = codePoints("x".repeat(1995) + "yyyyy");
    const work = { cells: 0 };
    expect(distance(a, b, 10, work)).toBe(5);
    expect(work.cells).toBeLessThanOrEqual(2000 * 21);
  });
});

describe("translators.md: a suggestion keeps this key's placeholders", () => {
  test("names found by the parser in ICU, with quoting respected", () => {
    expect(nameSpans("Hi {name}, '{quoted}' {n, number}", "icu").map((x) => x.name)).toEqual(["name", "n"]);
    expect(withoutNames("Hi {name}", "icu")).toBe("Hi {\uE000}");
  });

  test("in the flutter syntax an apostrophe is itself: `'{query}'` names query, at its place in the value", () => {
    const value = "L'appli cherche '{query}' dans {n, plural, one {# l'fichier} other {# fichiers}} d'{who}";
    const spans = nameSpans(value, "flutter");
    expect(spans.map((x) => x.name)).toEqual(["query", "n", "who"]);
    for (const span of spans) expect(value.slice(span.start, span.end)).toBe(span.name);
    expect(s("Search '{query}' now", "Search '{term}' now", "flutter")).toBe(100);
    expect(s("Search '{query}' now", "Search '{term}' now", "icu")).toBeLessThan(100); // quoted text in ICU
    const mapping = nameMapping(nameSpans("Search '{term}' in {n}", "flutter"), nameSpans("Search '{query}' in {count}", "flutter"))!;
    expect(renamed("Suche '{term}' in {n}", "flutter", mapping)).toBe("Suche '{query}' in {count}");
  });

  test("names that line up one to one are renamed, all at once", () => {
    const from = nameSpans("{a} and {b}", "icu");
    const to = nameSpans("{b} and {a}", "icu");
    const mapping = nameMapping(from, to)!;
    expect(renamed("{a} und {b}", "icu", mapping)).toBe("{b} und {a}");
    expect(renamed("{count, plural, one {# Datei} other {# Dateien}}", "icu", nameMapping(nameSpans("{count, plural, one {# file} other {# files}}", "icu"), nameSpans("{n, plural, one {# file} other {# files}}", "icu"))!)).toBe(
      "{n, plural, one {# Datei} other {# Dateien}}",
    );
  });

  test("no mapping when they do not line up", () => {
    expect(nameMapping(nameSpans("{a} {b}", "icu"), nameSpans("{c}", "icu"))).toBeNull();
    expect(nameMapping(nameSpans("{a} {a}", "icu"), nameSpans("{b} {c}", "icu"))).toBeNull();
    expect(nameMapping(nameSpans("{a}", "icu"), nameSpans("{a}", "icu"))).toBeNull(); // nothing to rename
  });
});
