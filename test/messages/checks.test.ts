/**
 * The message checks (product §7): a table of messages in languages with 1 (ja), 2 (en, de),
 * 3 (fr, pt-BR), 4 (pl, ru) and 6 (ar) plural categories, valid and broken, each with the exact
 * problems expected; nested plurals and selects, apostrophe quoting, `#`, exact cases and offsets,
 * the text syntax, and bounded time on very long and deeply nested values.
 */
import { describe, expect, test } from "bun:test";
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

const catalog = new PluralCatalog();

/** The problems of `value` in `code`; `base` is the key's English value (absent: this is the English value). */
function check(code: string, value: string, base?: string, syntax: MessageSyntax = "icu"): MessageProblem[] {
  return checkMessage(value, readMessage(value, syntax), {
    syntax,
    languageName: NAMES[code]!,
    plurals: catalog.of(code),
    baseName: "English",
    base: base === undefined ? null : readMessage(base, syntax),
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

describe("message checks: bounded time (product §7)", () => {
  const timed = (fn: () => void) => {
    let best = Infinity;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      fn();
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };
  /** `count` placeholders (`{a}`, or `{ a }` which only the parser reads), padded to `length`. */
  const withPlaceholders = (count: number, length: number, spaced: boolean) => {
    const text = Array.from({ length: count }, (_, i) => (spaced ? `{ ${i.toString(36)} }` : `{${i.toString(36)}}`)).join("");
    return text + "x".repeat(length - text.length);
  };

  for (const spaced of [false, true]) {
    test(`product §7: a 100,000-character message full of placeholders checks in linear time (${spaced ? "12,000 as { name }, through the parser" : "17,000 as {name}"})`, () => {
      const count = spaced ? 12_000 : 17_000; // {␠abc␠} is longer: 12,000 of them fill 100,000 characters
      const full = withPlaceholders(count, 100_000, spaced);
      const half = withPlaceholders(count / 2, 50_000, spaced);
      const base = withPlaceholders(count, 100_000, false).replace("{0}", "{zero}");
      const run = (value: string) => () => check("de", value, base);
      expect(check("de", full, base)).toEqual([
        E("placeholder_unknown", "`{0}` is not in the English text; use `{zero}`"),
        W("placeholder_missing", "`{zero}` from the English text is missing"),
      ]);
      expect(timed(run(full))).toBeLessThan(2.5 * timed(run(half)) + 5);
      expect(timed(run(full))).toBeLessThan(1000);
    });
  }

  test("product §7: 6,000 levels of nesting in 100,000 characters are refused at once, never a stack overflow", () => {
    const deep = "{a, select, other {".repeat(5_000) + "x" + "}}".repeat(5_000);
    expect(deep.length).toBeGreaterThan(100_000 - 10_000);
    const started = performance.now();
    expect(check("en", deep)[0]!.message).toStartWith(`Braces are nested more than ${MAX_NESTING} levels deep`);
    expect(performance.now() - started).toBeLessThan(200);
  });

  test("product §7: nesting up to the limit is checked normally", () => {
    const levels = MAX_NESTING / 2;
    const nested = "{a, select, other {".repeat(levels) + "x" + "}}".repeat(levels);
    expect(check("en", nested)).toEqual([]);
    expect(readMessage(nested, "icu").arguments).toEqual([{ name: "a", kind: "select" }]);
  });

  test("product §7: a plain 100,000-character value and one full of apostrophes and # check at once", () => {
    for (const value of ["x".repeat(100_000), "'".repeat(100_000), "#".repeat(100_000), "'{".repeat(50_000)]) {
      expect(timed(() => check("de", value, "Hello {name}"))).toBeLessThan(100);
    }
  });
});

test("product §7: the demo project a newcomer first sees has no problems in any language", async () => {
  const { DEMO_KEYS, DEMO_LANGUAGES } = await import("../../src/cli/demo-content.ts");
  const found: string[] = [];
  for (const k of DEMO_KEYS) {
    for (const code of DEMO_LANGUAGES) {
      const value = k[code];
      if (value === undefined) continue;
      for (const p of check(code, value, code === "en" ? undefined : k.en)) found.push(`${k.key} ${code}: ${p.message}`);
    }
  }
  expect(found).toEqual([]);
});
