/**
 * The dashboard's plural and select editor (product §8 point 4, docs/dashboard.md "Plural and select
 * forms"), without a browser: a value read into fields and written back is the same message for
 * every row of the checks' message table; a translation's fields follow its language's plural
 * categories (`Intl.PluralRules`) plus the base's `=N` cases; text typed into a field, braces,
 * apostrophes and `#` included, comes back as typed.
 */
import { describe, expect, test } from "bun:test";
import { parse, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { checkMessage } from "../../src/messages/check.ts";
import { PluralCatalog } from "../../src/messages/plurals.ts";
import { parseIcu, readMessage } from "../../src/messages/read.ts";
import { editorForm, hasChoice, hasChoiceIn, merged, printForms, readForms, readText, sameMessage, type Choice, type Part } from "../../src/dashboard/client/message-forms.ts";
import { BROKEN, EN_FILES, EN_N, NESTED_EN, VALID } from "./message-table.ts";

const catalog = new PluralCatalog();
const OPTIONS = { ignoreTag: true, requiresOtherClause: true, shouldParseSkeletons: false } as const;

/** The parser's reading without positions: two values that read alike are the same message. */
function ast(value: string): MessageFormatElement[] {
  return parse(value, OPTIONS);
}

const choiceOf = (parts: Part[] | null) => parts!.find((p): p is Choice => p.kind === "choice")!;
const selectors = (parts: Part[] | null) => choiceOf(parts).cases.map((c) => c.selector);

/** Fills every field (each case, at every depth) with `# text`, as a translator would. */
function fill(parts: Part[], text: string, plural = false): Part[] {
  return parts.map((p) =>
    p.kind === "choice" ? { ...p, cases: p.cases.map((c) => ({ ...c, parts: c.parts.some((x) => x.kind === "choice") ? fill(c.parts, text, p.type !== "select") : [...(p.type !== "select" ? [{ kind: "placeholder" as const, name: "#", source: "#" }] : []), { kind: "text" as const, text }] })) } : p,
  );
}

describe("plural and select forms: the message table round-trips (product §8)", () => {
  const rows = [...VALID, ...BROKEN];

  test("the table has valid and broken ICU messages with plurals, selects, nesting, quoting and exact cases", () => {
    expect(rows.filter((r) => (r.syntax ?? "icu") === "icu" && parseIcu(r.value).fault === null).length).toBeGreaterThan(30);
    expect(rows.filter((r) => (r.syntax ?? "icu") === "icu" && parseIcu(r.value).fault !== null).length).toBeGreaterThan(10);
  });

  for (const row of rows) {
    const syntax = row.syntax ?? "icu";
    test(`${row.code} ${syntax}: ${JSON.stringify(row.value).slice(0, 90)}`, () => {
      if (syntax === "text") {
        expect(printForms(readText(row.value), "text")).toBe(row.value);
        return;
      }
      const parts = readForms(row.value);
      if (parseIcu(row.value).fault !== null) {
        // A value that does not parse is edited as raw text, never rewritten.
        expect(parts).toBeNull();
        return;
      }
      const written = printForms(parts!, "icu");
      expect(ast(written)).toEqual(ast(row.value));
      // The grid's quick test for a plural or select answers as the parser does.
      expect(hasChoiceIn(row.value)).toBe(hasChoice(parts));
      expect(sameMessage(written, row.value)).toBe(true);
      // Completed with the language's categories and the base's cases, left empty: still the same message.
      const form = editorForm(row.value, row.base ?? null, row.code, "icu", catalog);
      expect(ast(printForms(form.parts!, "icu"))).toEqual(ast(row.value));
    });
  }
});

describe("plural and select forms: one field per category of the target language (product §8)", () => {
  test("Polish gets one, few, many and other; Japanese just other; Arabic all six; the base's =N cases come first", () => {
    expect(selectors(editorForm("", EN_FILES, "pl", "icu", catalog).parts)).toEqual(["one", "few", "many", "other"]);
    expect(selectors(editorForm("", EN_FILES, "ja", "icu", catalog).parts)).toEqual(["other"]);
    expect(selectors(editorForm("", EN_FILES, "ar", "icu", catalog).parts)).toEqual(["zero", "one", "two", "few", "many", "other"]);
    expect(selectors(editorForm("", "{n, plural, =0 {No files} one {# file} other {# files}}", "de", "icu", catalog).parts)).toEqual(["=0", "one", "other"]);
    expect(selectors(editorForm("", "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", "de", "icu", catalog).parts)).toEqual(["other"]);
    expect(selectors(editorForm("", "{g, select, female {She} male {He} other {They}}", "fr", "icu", catalog).parts)).toEqual(["female", "male", "other"]);
  });

  test("filled in, a new translation has exactly its language's categories: the checks find no plural problem", () => {
    for (const [code, base] of [["pl", EN_N], ["ru", EN_FILES], ["ar", EN_N], ["ja", EN_N], ["fr", EN_FILES], ["pt-BR", EN_N], ["de", NESTED_EN]] as const) {
      const form = editorForm("", base, code, "icu", catalog);
      const value = printForms(fill(form.parts!, " x"), "icu");
      const problems = checkMessage(value, readMessage(value, "icu"), { syntax: "icu", languageName: code, plurals: catalog.of(code), baseName: "English", base: readMessage(base, "icu") });
      expect({ code, value, problems: problems.filter((p) => p.code !== "placeholder_missing") }).toEqual({ code, value, problems: [] });
    }
  });

  test("a nested select keeps its cases, each with the plural shaped for the language", () => {
    const form = editorForm("", NESTED_EN, "pl", "icu", catalog);
    const select = choiceOf(form.parts);
    expect(select.cases.map((c) => c.selector)).toEqual(["female", "other"]);
    for (const c of select.cases) expect(selectors(c.parts)).toEqual(["one", "few", "many", "other"]);
  });

  test("an existing translation gets the categories it lacks as empty fields, which are not written while empty", () => {
    const value = "{n, plural, one {# plik} other {# plików}}";
    const form = editorForm(value, EN_N, "pl", "icu", catalog);
    expect(selectors(form.parts)).toEqual(["one", "few", "many", "other"]);
    expect(printForms(form.parts!, "icu")).toBe("{n, plural, one {# plik} other {# plików}}");
    // A case the value has stays, even empty; a category the language lacks stays for the translator to empty.
    expect(ast(printForms(editorForm("{n, plural, =0 {} other {#}}", EN_N, "en", "icu", catalog).parts!, "icu"))).toEqual(ast("{n, plural, =0 {} other {#}}"));
    expect(selectors(editorForm("{count, plural, one {a} few {b} other {c}}", EN_FILES, "en", "icu", catalog).parts)).toEqual(["one", "few", "other"]);
  });

  test("an empty translation of a plain base is one empty field; a plain translation stays plain; a broken one is raw text", () => {
    expect(editorForm("", "Hello {name}", "de", "icu", catalog)).toEqual({ parts: [], placeholders: [{ kind: "placeholder", name: "name", source: "{name}" }] });
    expect(editorForm("{count} 件", EN_FILES, "ja", "icu", catalog).parts).toEqual([
      { kind: "placeholder", name: "count", source: "{count}" },
      { kind: "text", text: " 件" },
    ]);
    expect(editorForm("Hallo {name", "Hello {name}", "de", "icu", catalog).parts).toBeNull();
  });

  test("the base's placeholders are offered once each, as written (a number's format included), never a plural's #", () => {
    const { placeholders } = editorForm("", "{n, plural, one {# item for {name}} other {# items for {name} at {price, number, ::currency/EUR}}}", "de", "icu", catalog);
    expect(placeholders.map((p) => p.source)).toEqual(["{name}", "{price, number, ::currency/EUR}"]);
    expect(editorForm("", "Hello {{name}} and {user}", "de", "text", catalog).placeholders.map((p) => p.source)).toEqual(["{{name}}", "{user}"]);
  });
});

describe("plural and select forms: what is typed comes back as typed (product §8)", () => {
  /** A small deterministic generator (the same texts on every run). */
  function generator(seed: number) {
    let state = seed;
    return () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8) / 0x1000000;
  }
  const ATOMS = ["a", " ", "'", "''", "{", "}", "#", "<", ">", "<b>", "é", "日本", "😀", "\n", "{name}", "x'y", "'{", "}'", ","];

  test("5,000 generated fields with braces, apostrophes, # and angle brackets, in plain text, plural and select cases", () => {
    const next = generator(11);
    const text = () => Array.from({ length: Math.floor(next() * 6) }, () => ATOMS[Math.floor(next() * ATOMS.length)]).join("");
    for (let i = 0; i < 5000; i++) {
      const name: Part = { kind: "placeholder", name: "name", source: "{name}" };
      const pound: Part = { kind: "placeholder", name: "#", source: "#" };
      const shape = i % 3;
      const parts: Part[] =
        shape === 0
          ? merged([{ kind: "text", text: text() }, name, { kind: "text", text: text() }])
          : [
              {
                kind: "choice",
                argument: "n",
                type: shape === 1 ? "plural" : "select",
                offset: 0,
                cases: [
                  { selector: "one", parts: merged([{ kind: "text", text: text() }, ...(shape === 1 ? [pound] : []), { kind: "text", text: text() }, name]) },
                  { selector: "other", parts: merged([{ kind: "text", text: text() }, name, { kind: "text", text: text() }]) },
                ],
              },
            ];
      const written = printForms(parts, "icu");
      if (written === "") continue;
      expect({ written, read: readForms(written) }).toEqual({ written, read: parts });
    }
  });

  test("apostrophes are doubled only where ICU needs it", () => {
    const text = (t: string): Part[] => [{ kind: "text", text: t }];
    expect(printForms(text("It's l'été"), "icu")).toBe("It's l'été");
    expect(printForms(text("Use {braces} and it's"), "icu")).toBe("Use '{'braces'}' and it's");
    expect(printForms([{ kind: "text", text: "l'" }, { kind: "placeholder", name: "name", source: "{name}" }], "icu")).toBe("l''{name}");
    expect(printForms([{ kind: "choice", argument: "n", type: "plural", offset: 0, cases: [{ selector: "other", parts: [{ kind: "text", text: "#1 d'" }] }] }], "icu")).toBe("{n, plural, other {'#'1 d''}}");
  });

  test("a value that reads the same is the same message, however it is spaced or ordered", () => {
    expect(sameMessage("{n,plural,one{# a} other{# b}}", "{n, plural, other {# b} one {# a}}")).toBe(true);
    expect(sameMessage("{n, plural, one {# a} other {# b}}", "{n, plural, one {# a} other {# c}}")).toBe(false);
    expect(sameMessage("Hello {name", "Hello {name")).toBe(true);
    expect(sameMessage("Hello {name", "Hello {name}")).toBe(false);
  });
});
