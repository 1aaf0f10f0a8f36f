/**
 * The message syntaxes of product §9 (docs/messages.md "Syntaxes", "Hints"): `flutter` reads
 * apostrophes as gen-l10n does without `use-escaping`, `i18next` reads i18next JSON v4 values with
 * the four codes of §7, and the hint names the syntax most errors look like. Work is counted, not
 * timed: reading stays linear in the length of the value.
 */
import { describe, expect, test } from "bun:test";
import type { WorkCounter } from "../../src/common/work.ts";
import { checkMessage, type MessageProblem } from "../../src/messages/check.ts";
import { syntaxHint } from "../../src/messages/hint.ts";
import { pluralFormIn, pluralSuffix } from "../../src/messages/plural-forms.ts";
import { PluralCatalog } from "../../src/messages/plurals.ts";
import { MESSAGE_SYNTAXES, readMessage, type MessageSyntax } from "../../src/messages/read.ts";
import { SYNTAXES } from "../../src/messages/syntaxes.ts";

const catalog = new PluralCatalog();

function check(value: string, base: string | null, syntax: MessageSyntax, code = "de"): MessageProblem[] {
  return checkMessage(value, readMessage(value, syntax), {
    syntax,
    languageName: code === "de" ? "German" : "English",
    plurals: catalog.of(code),
    baseName: "English",
    base: base === null ? null : readMessage(base, syntax),
  });
}
const codes = (problems: MessageProblem[]) => problems.map((p) => `${p.code}/${p.severity}`);

test("every syntax of the list has a module of the same shape", () => {
  expect(Object.keys(SYNTAXES).sort()).toEqual([...MESSAGE_SYNTAXES].sort());
  for (const name of MESSAGE_SYNTAXES) expect(SYNTAXES[name].name).toBe(name);
});

describe("flutter: an apostrophe is an ordinary character (gen-l10n without use-escaping)", () => {
  test("'{query}' holds the placeholder query", () => {
    expect(readMessage("No results for '{query}'", "flutter").arguments).toEqual([{ name: "query", kind: "plain" }]);
    // ICU reads the same text as quoted: no argument at all
    expect(readMessage("No results for '{query}'", "icu").arguments).toEqual([]);
  });
  test("a correct German translation of a quoted placeholder is no error in flutter, an error in icu", () => {
    const en = "No results for '{query}'";
    const de = "Keine Ergebnisse für „{query}“";
    expect(check(de, en, "flutter")).toEqual([]);
    expect(codes(check(de, en, "icu"))).toEqual(["placeholder_unknown/error"]);
  });
  test("don't, plurals with apostrophes, and the parser's faults at the right character", () => {
    expect(check("Don't forget {n, plural, one {'#' item} other {'#' items}}", null, "flutter", "en")).toEqual([]);
    const fault = check("Don't {name", null, "flutter", "en");
    expect(fault).toEqual([{ code: "icu_syntax", severity: "error", message: "The `{` at character 7 is never closed: a `}` is missing" }]);
  });
  test("plural categories are checked as in icu", () => {
    expect(codes(check("{n, plural, other {Dateien}}", null, "flutter"))).toEqual(["plural_category/warning"]);
  });
});

describe("i18next: {{name}}, {{name, format}}, {{- name}}, $t(key)", () => {
  test("interpolations and nesting are read; single braces are text", () => {
    const read = readMessage("Hi {{name}}, {{date, datetime}} {{- html}} $t(common.app, {\"count\": {{count}} }) {literal}", "i18next");
    expect(read.fault).toBeNull();
    expect(read.arguments.map((a) => a.name)).toEqual(["name", "date", "html", "count"]);
  });
  const broken: [string, string][] = [
    ["Hello {{name", "The `{{` at character 7 is never closed: a `}}` is missing"],
    ["Hello {{ }}", "`{{ }}` at character 7 has no name inside, as in {{name}}"],
    ["See $t(common.app", "The `$t(` at character 5 is never closed: a `)` is missing"],
    ["See $t( )", "`$t( )` at character 5 names no key, as in $t(common.appName)"],
  ];
  for (const [value, message] of broken) {
    test(`${value}: icu_syntax error`, () => expect(check(value, null, "i18next", "en")).toEqual([{ code: "icu_syntax", severity: "error", message }]));
  }
  test("an interpolation the base lacks is an error, one it has and the translation lacks a warning", () => {
    expect(check("Hallo {{nom}}", "Hello {{name}}", "i18next")).toEqual([
      { code: "placeholder_unknown", severity: "error", message: "`{{nom}}` is not in the English text; use `{{name}}`" },
      { code: "placeholder_missing", severity: "warning", message: "`{{name}}` from the English text is missing" },
    ]);
  });
  test("ICU plurals are text in i18next (plural forms are keys)", () => {
    expect(check("{count, plural, one {# Datei} other {# Dateien}}", null, "i18next")).toEqual([]);
  });
  test("reading is linear: twice the value, twice the work", () => {
    const unit = "{{a}} $t(x.y, {\"n\": {{b}} }) text {{- c}} ";
    const work = (n: number) => {
      const w: WorkCounter = { steps: 0 };
      readMessage(unit.repeat(n), "i18next", w);
      return w.steps;
    };
    expect(work(20_000)).toBeLessThanOrEqual(2 * work(10_000) + 10);
    const unclosed = (n: number) => {
      const w: WorkCounter = { steps: 0 };
      readMessage("$t(".repeat(n), "i18next", w);
      return w.steps;
    };
    expect(unclosed(20_000)).toBeLessThanOrEqual(2 * unclosed(10_000) + 10);
  });
});

describe("i18next plural forms are read from the key", () => {
  test("suffixes, ordinals, and a form only when its _other sibling exists", () => {
    expect(pluralSuffix("items_many")).toEqual({ group: "items", category: "many", ordinal: false, other: "items_other" });
    expect(pluralSuffix("place_ordinal_two")).toEqual({ group: "place", category: "two", ordinal: true, other: "place_ordinal_other" });
    expect(pluralSuffix("friend_male_one")).toMatchObject({ group: "friend_male", category: "one" });
    expect(pluralSuffix("items")).toBeNull();
    expect(pluralFormIn("how_many", new Set(["how_many"]))).toBeNull();
    expect(pluralFormIn("items_many", new Set(["items_many", "items_other"]))).not.toBeNull();
  });
});

describe("the hint names the syntax most errors look like", () => {
  test("{{name}} values in an icu project: i18next", () => {
    const hint = syntaxHint([{ value: "Hallo {{name}}", base: "Hello {{name}}" }, { value: "{{count}} Artikel", base: "{{count}} items" }], "icu");
    expect(hint?.syntax).toBe("i18next");
    expect(hint?.message).toContain(`"message_syntax": "i18next"`);
  });
  test("quoted placeholders of a gen-l10n template in an icu project: flutter", () => {
    expect(syntaxHint([{ value: "Keine Ergebnisse für „{query}“", base: "No results for '{query}'" }], "icu")?.syntax).toBe("flutter");
  });
  test("a syntax is named only when every blocking message has no error in it (docs/product.md §9)", () => {
    const looksI18next = [
      { value: "Hallo {{name}}", base: "Hello {{name}}" },
      { value: "{{count}} Artikel", base: "{{count}} items" },
    ];
    expect(syntaxHint(looksI18next, "icu")?.syntax).toBe("i18next");
    // One more blocking message that stays an error in i18next (an unclosed `{{`): no hint.
    expect(syntaxHint([...looksI18next, { value: "Hallo {{name", base: "Hello {{name}}" }], "icu")).toBeNull();
  });

  test("real ICU mistakes get no hint", () => {
    expect(syntaxHint([{ value: "{count, plural, one {x}}", base: null }, { value: "Hallo {nam}", base: "Hello {name}" }], "icu")).toBeNull();
  });
});
