/**
 * The message checks (product §7): a table of messages in languages with 1 (ja), 2 (en, de),
 * 3 (fr, pt-BR), 4 (pl, ru) and 6 (ar) plural categories, valid and broken, each with the exact
 * problems expected; nested plurals and selects, apostrophe quoting, `#`, exact cases and offsets,
 * the text syntax, and work bounded by the length of very long and deeply nested values (counted,
 * never timed: bench/messages.bench.sh has the times).
 */
import { describe, expect, test } from "bun:test";
import type { WorkCounter } from "../../src/common/work.ts";
import { checkMessage, countBySeverity, MAX_PROBLEMS_PER_CODE, messageErrors, type MessageProblem } from "../../src/messages/check.ts";
import { PluralCatalog } from "../../src/messages/plurals.ts";
import { MAX_NESTING, readMessage, type MessageSyntax } from "../../src/messages/read.ts";
import { BROKEN, E, EN_N, VALID, W } from "./message-table.ts";

const NAMES: Record<string, string> = {
  en: "English",
  de: "German",
  fr: "French",
  pl: "Polish",
  ar: "Arabic",
  ja: "Japanese",
  ru: "Russian",
  "pt-BR": "Brazilian Portuguese",
};

/** Languages named only by the tests beside the table. */
const MORE_NAMES: Record<string, string> = { it: "Italian", es: "Spanish", pt: "Portuguese", ca: "Catalan", cs: "Czech" };

const catalog = new PluralCatalog();

/**
 * The problems of `value` in `code`; `base` is the key's English value (absent: this is the English
 * value). `work`, when given, is charged every step of reading both values and checking.
 */
function check(code: string, value: string, base?: string, syntax: MessageSyntax = "icu", work?: WorkCounter): MessageProblem[] {
  return checkMessage(value, readMessage(value, syntax, work), {
    syntax,
    languageName: NAMES[code] ?? MORE_NAMES[code]!,
    plurals: catalog.of(code),
    baseName: "English",
    base: base === undefined ? null : readMessage(base, syntax, work),
    work,
  });
}

describe("message checks, a table of messages in eight languages (product §7)", () => {
  test("the table covers at least 60 messages in the eight languages, valid and broken", () => {
    expect(VALID.length + BROKEN.length).toBeGreaterThanOrEqual(60);
    expect(new Set([...VALID, ...BROKEN].map((r) => r.code))).toEqual(new Set(Object.keys(NAMES)));
    expect([1, 2, 3, 4, 6].map((n) => Object.keys(NAMES).some((code) => catalog.of(code)!.cardinal.categories.length === n))).toEqual([true, true, true, true, true]);
  });

  for (const row of [...VALID, ...BROKEN]) {
    test(`product §7: ${row.code}${row.syntax === "text" ? " (text syntax)" : ""} ${JSON.stringify(row.value).slice(0, 70)}`, () => {
      expect(check(row.code, row.value, row.base, row.syntax)).toEqual(row.problems);
    });
  }
});

describe("the errors a publish looks for (product §7: errors block, warnings never do)", () => {
  for (const row of [...VALID, ...BROKEN]) {
    test(`product §7: publishing finds exactly the errors of ${row.code}${row.syntax === "text" ? " (text syntax)" : ""} ${JSON.stringify(row.value).slice(0, 60)}`, () => {
      const syntax = row.syntax ?? "icu";
      const errors = messageErrors(row.value, readMessage(row.value, syntax), {
        syntax,
        languageName: NAMES[row.code]!,
        plurals: catalog.of(row.code),
        baseName: "English",
        base: row.base === undefined ? null : readMessage(row.base, syntax),
      });
      expect(errors).toEqual(row.problems.filter((p) => p.severity === "error"));
    });
  }

  test("the table has errors of both codes for this to compare", () => {
    const codes = new Set(BROKEN.flatMap((r) => r.problems.filter((p) => p.severity === "error").map((p) => p.code)));
    expect(codes).toEqual(new Set(["icu_syntax", "placeholder_unknown"]));
  });
});

describe("message checks: rules around the table (product §7)", () => {
  test("product §7: severities are counted as stored; errors come before warnings", () => {
    const problems = check("ja", "メッセージ {cnt}", "Message {count} {name}");
    expect(countBySeverity(problems)).toEqual({ errors: 1, warnings: 2 });
    expect(problems.map((p) => p.severity)).toEqual(["error", "warning", "warning"]);
  });

  test("product §7: a language the runtime has no plural data for gets no plural_category finding", () => {
    expect(catalog.of("zz")).toBeNull();
    expect(catalog.of("x-private")).toBeNull();
    const problems = checkMessage("{n, plural, few {#} other {#}}", readMessage("{n, plural, few {#} other {#}}", "icu"), {
      syntax: "icu",
      languageName: "Klingon",
      plurals: catalog.of("tlh"),
      baseName: "English",
      base: readMessage(EN_N, "icu"),
    });
    expect(problems).toEqual([]);
  });

  test("product §7: one value's findings are capped per code, with one line for the rest", () => {
    const value = Array.from({ length: 40 }, (_, i) => `{p${i}}`).join(" ");
    const problems = check("de", value, "No placeholders here");
    expect(problems.length).toBe(MAX_PROBLEMS_PER_CODE + 1);
    expect(problems.at(-1)!.message).toBe("…and 35 more placeholders are not in the English text");
  });

  test("product §7: arguments are read in order of first use with the kind of their most specific use", () => {
    expect(readMessage("{n} and {g, select, a {{n, plural, one {#} other {#}}} other {{d, date, short}}}", "icu").arguments).toEqual([
      { name: "n", kind: "plural" },
      { name: "g", kind: "select" },
      { name: "d", kind: "date" },
    ]);
  });
});

describe("plural forms numbers rarely reach (docs/messages.md \"Plural categories\")", () => {
  test("French, Italian, Spanish, Portuguese and Catalan plurals need no `many` case: only 1,000,000 and its multiples take it", () => {
    for (const code of ["fr", "it", "es", "pt", "ca", "pt-BR"]) {
      expect(check(code, "{count, plural, one {# x} other {# y}}", "{count, plural, one {# file} other {# files}}"), code).toEqual([]);
      // One written anyway is no problem either, and `one` is still needed.
      expect(check(code, "{count, plural, one {# x} many {# de y} other {# y}}", "{count, plural, one {# file} other {# files}}"), code).toEqual([]);
      expect(check(code, "{count, plural, other {# y}}").map((p) => p.message), code).toEqual([expect.stringContaining("has no `one` case")]);
    }
  });

  test("a `many` that whole numbers or fractions reach is still needed: Russian 5, Czech 1.5", () => {
    expect(check("ru", "{n, plural, one {# x} few {# y} other {# z}}").map((p) => p.message)).toEqual([expect.stringContaining("has no `many` case, which Russian uses for 0, 5, 6")]);
    expect(check("cs", "{n, plural, one {# x} few {# y} other {# z}}").map((p) => p.message)).toEqual([expect.stringContaining("has no `many` case, which Czech uses for fractions")]);
  });
});

describe("tags are checked like placeholders (docs/messages.md \"Tags\")", () => {
  const base = 'Tap <b>Save</b> to keep <xliff:g id="count">%d</xliff:g> items';
  const found = (value: string, syntax: MessageSyntax = "icu") => check("de", value, base, syntax).map((p) => [p.code, p.severity, p.message]);

  test("the same tags in another order and with other text: no problem", () => {
    expect(found('<xliff:g id="count">%d</xliff:g> Elemente: <b>Speichern</b>')).toEqual([]);
  });

  test("a tag the base lacks is placeholder_unknown, one it drops placeholder_missing", () => {
    expect(found('Tippe <i>Speichern</i>, <xliff:g id="count">%d</xliff:g>')).toEqual([
      ["placeholder_unknown", "error", "`<i>` is not in the English text"],
      ["placeholder_missing", "warning", "`<b>` from the English text is missing"],
    ]);
    // An attribute changed is another tag: the app's formatter reads the id.
    expect(found('<b>Speichern</b> <xliff:g id="n">%d</xliff:g>')).toEqual([
      ["placeholder_unknown", "error", '`<xliff:g id="n">` is not in the English text'],
      ["placeholder_missing", "warning", '`<xliff:g id="count">` from the English text is missing'],
    ]);
  });

  test("tags must be balanced: an unclosed tag and a closing tag without its opening one are errors", () => {
    expect(found('Tippe <b>Speichern <xliff:g id="count">%d</xliff:g>')).toEqual([["placeholder_unknown", "error", "`<b>` is never closed: `</b>` is missing"]]);
    expect(found('Tippe Speichern</b> <xliff:g id="count">%d</xliff:g>')).toEqual([
      ["placeholder_unknown", "error", "`</b>` closes no `<b>`"],
      ["placeholder_missing", "warning", "`<b>` from the English text is missing"],
    ]);
    expect(found('<b><xliff:g id="count">Speichern</b> %d</xliff:g>')).toContainEqual(["placeholder_unknown", "error", "`</b>` closes no `<b>`"]);
  });

  test("a `<` that makes no tag the base text has is text: `List<String>`, `a < b`, `<br>` alone", () => {
    expect(check("de", "Liste<String> a < b", "List<String> a < b")).toEqual([]);
    expect(check("de", "Zeile<br>Zeile", "Line<br>line")).toEqual([]);
    expect(check("de", "Zeile<br/>Zeile", "Line<br>line").map((p) => p.code)).toEqual(["placeholder_unknown", "placeholder_missing"]);
  });

  test("in every syntax, and a warning where unknown placeholders are (text)", () => {
    for (const syntax of ["flutter", "i18next"] as const) expect(found("Tippe <i>x</i>", syntax)[0]!.slice(0, 2)).toEqual(["placeholder_unknown", "error"]);
    expect(found("Tippe <i>x</i>", "text")[0]!.slice(0, 2)).toEqual(["placeholder_unknown", "warning"]);
    // A publish refuses the same errors (messageErrors).
    const read = readMessage("Tippe <b>x", "icu");
    expect(messageErrors("Tippe <b>x", read, { syntax: "icu", languageName: "German", plurals: catalog.of("de"), baseName: "English", base: readMessage(base, "icu") }).map((p) => p.code)).toEqual(["placeholder_unknown"]);
  });

  test("reading tags is linear: twice the tags, twice the work", () => {
    const count = (n: number) => {
      const work = { steps: 0 };
      const value = "<b>x</b><a href='y'>".repeat(n) + "<".repeat(n) + "</a>".repeat(n);
      check("de", value, value.replace(/x/g, "y"), "icu", work);
      return work.steps;
    };
    const [one, two] = [count(5_000), count(10_000)];
    expect(two / one).toBeLessThan(2.2);
  });
});

describe("message checks: work bounded by the length of the value (product §7)", () => {
  /** The problems of `value` (against `base`) and the steps that reading both and checking took. */
  const counted = (code: string, value: string, base?: string) => {
    const work = { steps: 0 };
    const problems = check(code, value, base, "icu", work);
    return { problems, steps: work.steps };
  };
  /** `count` placeholders named `prefix` and a number (`{a0}`, or `{ a0 }`, which only the parser reads), padded to `length`. */
  const withPlaceholders = (count: number, length: number, spaced: boolean, prefix = "") => {
    const text = Array.from({ length: count }, (_, i) => (spaced ? `{ ${prefix}${i.toString(36)} }` : `{${prefix}${i.toString(36)}}`)).join("");
    return text + "x".repeat(length - text.length);
  };
  // Quadratic work (each name looked up in a list of those seen, each finding compared with every
  // earlier one) is n x n / 2 steps for n placeholders: four times as many for twice the input.
  // Linear work is twice as many, exactly, as the counts are the code's own.
  const LINEAR = 2.2;

  for (const spaced of [false, true]) {
    test(`product §7: a 100,000-character message full of placeholders checks in linear time (${spaced ? "12,000 as { name }, through the parser" : "17,000 as {name}"})`, () => {
      const count = spaced ? 12_000 : 17_000; // {␠abc␠} is longer: 12,000 of them fill 100,000 characters
      const pair = (n: number, length: number) => [withPlaceholders(n, length, spaced), withPlaceholders(n, length, false).replace("{0}", "{zero}")] as const;
      const full = counted("de", ...pair(count, 100_000));
      const half = counted("de", ...pair(count / 2, 50_000));
      for (const { problems } of [full, half]) {
        expect(problems).toEqual([
          E("placeholder_unknown", "`{0}` is not in the English text; use `{zero}`"),
          W("placeholder_missing", "`{zero}` from the English text is missing"),
        ]);
      }
      expect(full.steps).toBeLessThanOrEqual(LINEAR * half.steps);
      expect(full.steps).toBeLessThanOrEqual(4 * 2 * 100_000); // both values, a few steps a character at most
    });
  }

  test("product §7: 14,000 placeholders none of which the English text has: findings capped, in linear work", () => {
    const full = counted("de", withPlaceholders(14_000, 100_000, false, "a"), withPlaceholders(14_000, 100_000, false, "b"));
    const half = counted("de", withPlaceholders(7_000, 50_000, false, "a"), withPlaceholders(7_000, 50_000, false, "b"));
    for (const [{ problems }, n] of [[full, 14_000], [half, 7_000]] as const) {
      expect(problems).toHaveLength(2 * (MAX_PROBLEMS_PER_CODE + 1));
      expect(problems.at(-1)!.message).toBe(`…and ${(n - MAX_PROBLEMS_PER_CODE).toLocaleString("en-US")} more placeholders of the English text are missing`);
    }
    expect(full.steps).toBeLessThanOrEqual(LINEAR * half.steps);
    expect(full.steps).toBeLessThanOrEqual(4 * 2 * 100_000);
  });

  test("product §7: a select with 10,000 cases in 90,000 characters reads in linear work", () => {
    const select = (cases: number) => "{g, select, " + Array.from({ length: cases }, (_, i) => `c${i.toString(36)} {x}`).join(" ") + " other {y}}";
    const [full, half] = [select(10_000), select(5_000)].map((value) => ({ value, ...counted("en", value) }));
    for (const { problems } of [full, half]) expect(problems).toEqual([]);
    // Each case's name is checked against those before it: in a list, 10,000 x 10,000 / 2 steps.
    expect(full.steps).toBeLessThanOrEqual(LINEAR * half.steps);
    expect(full.steps).toBeLessThanOrEqual(4 * full.value.length);
  });

  test("product §7: 6,000 levels of nesting in 100,000 characters are refused at once, never a stack overflow", () => {
    const deep = "{a, select, other {".repeat(5_000) + "x" + "}}".repeat(5_000);
    expect(deep.length).toBeGreaterThan(100_000 - 10_000);
    const { problems, steps } = counted("en", deep);
    expect(problems[0]!.message).toStartWith(`Braces are nested more than ${MAX_NESTING} levels deep`);
    // Refused where the nesting passes the limit, about 1,000 characters in: neither the rest of
    // the value nor the parser is ever reached (the parser alone would be charged its 95,000).
    expect(steps).toBeLessThanOrEqual(3 * (MAX_NESTING + 1) * "{a, select, other {".length);
  });

  test("product §7: nesting up to the limit is checked normally", () => {
    const levels = MAX_NESTING / 2;
    const nested = "{a, select, other {".repeat(levels) + "x" + "}}".repeat(levels);
    expect(check("en", nested)).toEqual([]);
    expect(readMessage(nested, "icu").arguments).toEqual([{ name: "a", kind: "select" }]);
  });

  test("product §7: a plain 100,000-character value and one full of apostrophes and # check at once", () => {
    for (const value of ["x".repeat(100_000), "'".repeat(100_000), "#".repeat(100_000), "'{".repeat(50_000)]) {
      const { steps } = counted("de", value, "Hello {name}");
      // At most one pass of each reader over the value, and the parser once.
      expect(steps, JSON.stringify(value.slice(0, 4))).toBeLessThanOrEqual(3 * value.length + 100);
    }
  });
});
