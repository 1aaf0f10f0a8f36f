/**
 * What a person types in the dashboard's editor, saved, is what the app's own formatter shows
 * (docs/dashboard.md "Editing in the project's syntax"): for each syntax the editor's fields (text
 * with placeholder chips) are written as the value (client/message-forms.ts printForms) and the
 * value is formatted as the app formats it: intl-messageformat for `icu`; for `flutter` gen-l10n's
 * reading, here the project's own (src/messages/syntax-flutter.ts: ICU with every apostrophe an
 * apostrophe) through intl-messageformat; i18next itself for `i18next`; the value as it is for
 * `text`. The browser suite test/dashboard/translator.test.ts types the same into the page.
 */
import { describe, expect, test } from "bun:test";
import i18next from "i18next";
import { IntlMessageFormat } from "intl-messageformat";
import { readMessage, type MessageSyntax } from "../../src/messages/read.ts";
import { printForms, readForms, readText, type Piece } from "../../src/dashboard/client/message-forms.ts";

const ARGS = { query: "Paris", date: "12/03", name: "Léa", count: 3 };

/** The fields as the editor holds them after typing: each `{name}` (or `{{name}}`) a chip, the rest text. */
function typed(text: string, syntax: MessageSyntax): Piece[] {
  const token = syntax === "i18next" || syntax === "text" ? /\{\{(\w+)\}\}/g : /\{(\w+)\}/g;
  const out: Piece[] = [];
  let at = 0;
  for (const m of text.matchAll(token)) {
    if (m.index > at) out.push({ kind: "text", text: text.slice(at, m.index) });
    out.push({ kind: "placeholder", name: m[1]!, source: m[0] });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ kind: "text", text: text.slice(at) });
  return out;
}

/** The text with the arguments in place: what the person meant the app to show (`text` has no formatter: the value is shown). */
function meant(text: string, syntax: MessageSyntax): string {
  if (syntax === "text") return text;
  const token = syntax === "i18next" ? /\{\{(\w+)\}\}/g : /\{(\w+)\}/g;
  return text.replace(token, (_, name: keyof typeof ARGS) => String(ARGS[name]));
}

async function shown(value: string, syntax: MessageSyntax): Promise<string> {
  switch (syntax) {
    case "icu":
      return String(new IntlMessageFormat(value, "fr").format(ARGS));
    case "flutter":
      return String(new IntlMessageFormat(value.replaceAll("'", "''"), "fr").format(ARGS));
    case "i18next": {
      const i18n = i18next.createInstance();
      await i18n.init({ lng: "fr", resources: { fr: { translation: { k: value } } }, interpolation: { escapeValue: false } });
      return i18n.t("k", ARGS);
    }
    case "text":
      return value;
  }
}

const TYPED: Record<MessageSyntax, string[]> = {
  icu: ["Rechercher « {query} »", "Commande d'{date}", "It's {name}'s turn", "'Bonjour' {name}", "Accolades {comme ça} et l'été"],
  flutter: ["Rechercher « {query} »", "Commande d'{date}", "It's {name}'s turn", "'{name}' et l'été", "Aujourd''hui"],
  i18next: ["Rechercher « {{query}} »", "Commande d'{{date}}", "It's {{name}}'s turn, {single} brace"],
  text: ["Rechercher « {{query}} »", "Commande d'{{date}}", "'quoted' {{name}}"],
};

describe("typed in the editor, saved, shown by the app", () => {
  for (const syntax of Object.keys(TYPED) as MessageSyntax[]) {
    for (const text of TYPED[syntax]) {
      test(`${syntax}: ${text}`, async () => {
        const value = printForms(typed(text, syntax), syntax);
        expect(readMessage(value, syntax).fault).toBeNull();
        // Braces typed as text in `icu` are quoted; `flutter` has no quoting, so there a typed `{x}` is a placeholder.
        const expected = syntax === "icu" ? meant(text.replace("{comme ça}", "\u0000"), syntax).replace("\u0000", "{comme ça}") : meant(text, syntax);
        expect(await shown(value, syntax)).toBe(expected);
      });
    }
  }

  test("flutter stores an apostrophe as typed, and a typed {name} as the placeholder", () => {
    expect(printForms(typed("Rechercher « {query} »", "flutter"), "flutter")).toBe("Rechercher « {query} »");
    expect(printForms(typed("Commande d'{date}", "flutter"), "flutter")).toBe("Commande d'{date}");
    // ICU quotes only in `icu`.
    expect(printForms(typed("Commande d'{date}", "icu"), "icu")).toBe("Commande d''{date}");
    expect(printForms([{ kind: "text", text: "It's {x}" }], "i18next")).toBe("It's {x}");
  });

  test("the base text reads as the app shows it: in flutter, apostrophes around a placeholder stay", () => {
    expect(readForms("Search for '{query}'", "flutter")).toEqual([
      { kind: "text", text: "Search for '" },
      { kind: "placeholder", name: "query", source: "{query}" },
      { kind: "text", text: "'" },
    ]);
    expect(readForms("Search for '{query}'", "icu")).toEqual([{ kind: "text", text: "Search for {query}" }]);
    expect(readText("It's {{name}}")).toEqual([
      { kind: "text", text: "It's " },
      { kind: "placeholder", name: "name", source: "{{name}}" },
    ]);
  });

  test("native placeholders and tags are units, and a literal `<` is stored as `&lt;` and read back as `<`", () => {
    const parts = readForms('%1$s <b>bold</b> <xliff:g id="n">%2$d</xliff:g> a &lt; b', "icu")!;
    expect(parts.map((p) => (p.kind === "placeholder" ? `[${p.name}]` : p.kind === "text" ? p.text : "?")).join("")).toBe("[%1$s] [<b>]bold[</b>] [%2$d] a < b");
    expect(printForms(parts, "icu")).toBe('%1$s <b>bold</b> <xliff:g id="n">%2$d</xliff:g> a &lt; b');
    expect(printForms(readText("%@ & <i>x</i> < y"), "text")).toBe("%@ & <i>x</i> &lt; y");
  });
});
