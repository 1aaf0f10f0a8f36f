/**
 * gettext's Plural-Forms (docs/formats.md "gettext PO"): the header's expression is evaluated by
 * our own small parser (never eval) and each msgstr[i] matched with the CLDR category of the
 * numbers that pick it; a header that does not describe the language is refused, and the header
 * written for a language is one of gettext's standard ones that fits it.
 */
import { describe, expect, test } from "bun:test";
import { compilePluralExpression, pluralFormsFor, readPluralForms } from "../../src/formats/po-plurals.ts";

describe("Plural-Forms (docs/formats.md gettext PO)", () => {
  test("gettext's own headers map each form to the language's category", () => {
    expect(readPluralForms("nplurals=2; plural=(n != 1);", "en")).toEqual({ nplurals: 2, categories: ["one", "other"] });
    expect(readPluralForms("nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);", "ru")).toEqual({ nplurals: 3, categories: ["one", "few", "many"] });
    // The order of the forms is the header's: a reversed English header is read as it says.
    expect(readPluralForms("nplurals=2; plural=n==1;", "en")).toEqual({ nplurals: 2, categories: ["other", "one"] });
  });

  test("a header that does not describe the language is refused, saying why", () => {
    expect(readPluralForms("nplurals=2; plural=(n != 1);", "ru")).toMatch(/gives 0 and 2 the same form \(msgstr\[1\]\), but ru uses "many" for 0 and "few" for 2/);
    expect(readPluralForms("nplurals=3; plural=(n != 1);", "de")).toMatch(/no whole number picks msgstr\[2\]/);
    expect(readPluralForms("nplurals=2; plural=(n != 1);", "ja")).toMatch(/both for "other" numbers/);
    expect(readPluralForms("nplurals=2; plural=(n == 1 ? 3 : 0);", "en")).toMatch(/for n=1 the plural expression picks form 3, but nplurals is 2/);
    expect(readPluralForms("nplurals=2; plural=n/0;", "en")).toMatch(/divides by zero/);
    expect(readPluralForms("nplurals=2; plural=process.exit(1);", "en")).toMatch(/cannot read the plural expression/);
    expect(readPluralForms("plural=(n != 1);", "en")).toMatch(/is not "nplurals=N; plural=EXPRESSION;"/);
  });

  test("C precedence: ?: nests to the right, && binds tighter than ||, ! and unary minus", () => {
    const e = compilePluralExpression("n==1 ? 0 : n==2 || n==3 && 0 ? 1 : !n ? 2 : -1 + 4");
    expect([1, 2, 3, 0, 7].map(e)).toEqual([0, 1, 3, 2, 3]);
  });

  test("every language with a standard header gets one whose forms are its categories, each once", () => {
    for (const code of ["en", "de", "fr", "pt-BR", "es", "ru", "uk", "pl", "cs", "sk", "ja", "zh", "ko", "ar", "he", "lt", "lv", "ro", "sl", "ga", "cy", "hr", "sr", "is", "gd", "tr"]) {
      const found = pluralFormsFor(code);
      expect(found, code).toBeDefined();
      expect(new Set(found!.forms.categories).size, code).toBe(found!.forms.nplurals);
      expect(readPluralForms(found!.header.replace(/^Plural-Forms: /, ""), code), code).toEqual(found!.forms);
    }
  });
});
