/**
 * The message table (product §7): messages in languages with 1 (ja), 2 (en, de), 3 (fr, pt-BR),
 * 4 (pl, ru) and 6 (ar) plural categories, valid and broken, each with the exact problems the
 * checks find. checks.test.ts checks each row; forms.test.ts round-trips each through the
 * dashboard's plural and select editor.
 */
import type { MessageProblem } from "../../src/messages/check.ts";
import { MAX_NESTING, type MessageSyntax } from "../../src/messages/read.ts";

export const E = (code: MessageProblem["code"], message: string): MessageProblem => ({ code, severity: "error", message });
export const W = (code: MessageProblem["code"], message: string): MessageProblem => ({ code, severity: "warning", message });

export interface Row {
  code: string;
  value: string;
  /** The English value of the key; absent when the row is the English value itself. */
  base?: string;
  syntax?: MessageSyntax;
  problems: MessageProblem[];
}

export const EN_FILES = "{count, plural, one {# file} other {# files}}";
export const EN_N = "{n, plural, one {# file} other {# files}}";
export const NESTED_EN = "{gender, select, female {{count, plural, one {She has # file} other {She has # files}}} other {{count, plural, one {# file} other {# files}}}}";

export const VALID: Row[] = [
  { code: "en", value: "Hello", problems: [] },
  { code: "en", value: "Hello {name}", problems: [] },
  { code: "en", value: EN_FILES, problems: [] },
  { code: "en", value: "{count, plural, =0 {No files} =1 {One file} other {# files}}", problems: [] },
  { code: "en", value: "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", problems: [] },
  { code: "en", value: "{gender, select, female {She} male {He} other {They}} replied", problems: [] },
  { code: "en", value: "It''s {name}''s turn", problems: [] },
  { code: "en", value: "Price: {amount, number, ::currency/EUR}", problems: [] },
  { code: "en", value: "Due {day, date, short} at {t, time, short}", problems: [] },
  { code: "en", value: "Item #{id}, # is text outside a plural", problems: [] },
  { code: "en", value: "<b>{name}</b> joined<br>", problems: [] },
  { code: "en", value: "{a}} a stray closing brace is text", problems: [] },
  { code: "en", value: "{n, plural, offset:1 =0 {Nobody} =1 {Only {host}} one {{host} and # other} other {{host} and # others}}", problems: [] },
  { code: "en", value: NESTED_EN, problems: [] },
  { code: "de", value: "{count, plural, one {# Datei} other {# Dateien}}", base: EN_FILES, problems: [] },
  { code: "de", value: "'{name}' steht für {name}", base: "Hello {name}", problems: [] },
  { code: "de", value: "Hallo ''{name}''", base: "Hello {name}", problems: [] },
  { code: "de", value: "Hallo", base: "Hello", problems: [] },
  {
    code: "de",
    value: "{gender, select, female {{count, plural, one {Sie hat # Datei} other {Sie hat # Dateien}}} other {{count, plural, one {# Datei} other {# Dateien}}}}",
    base: NESTED_EN,
    problems: [],
  },
  { code: "fr", value: "{count, plural, one {# fichier} many {# de fichiers} other {# fichiers}}", base: EN_FILES, problems: [] },
  { code: "pl", value: "{n, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}", base: EN_N, problems: [] },
  { code: "pl", value: "{n, selectordinal, other {#.}}", base: "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", problems: [] },
  { code: "ru", value: "{n, plural, one {# файл} few {# файла} many {# файлов} other {# файла}}", base: EN_N, problems: [] },
  { code: "ar", value: "{n, plural, zero {لا ملفات} one {ملف واحد} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}", base: EN_N, problems: [] },
  { code: "ar", value: "{n, plural, =0 {لا شيء} one {ملف} two {ملفان} few {# ملفات} many {# ملفًا} other {# ملف}}", base: EN_N, problems: [] },
  { code: "ja", value: "{n, plural, other {# 件のファイル}}", base: EN_N, problems: [] },
  { code: "ja", value: "こんにちは、{name}さん", base: "Hello {name}", problems: [] },
  { code: "pt-BR", value: "{n, plural, one {# arquivo} many {# de arquivos} other {# arquivos}}", base: EN_N, problems: [] },
  { code: "pt-BR", value: "{b} antes de {a}", base: "{a} before {b}", problems: [] },
  // A base value that does not parse has its own error; its translations are not compared with it.
  { code: "de", value: "Hallo {cnt}", base: "Hello {name", problems: [] },
  { code: "de", value: "Hallo {{name}}", base: "Hello {{name}}", syntax: "text", problems: [] },
  { code: "de", value: "Hallo {{ name }}, {{count, number}} neue", base: "Hello {{name}}, {{count}} new", syntax: "text", problems: [] },
  { code: "de", value: "Hallo {name", base: "Hello {name}", syntax: "text", problems: [W("placeholder_missing", "`name` from the English text is missing")] },
];

export const BROKEN: Row[] = [
  // The two typical mistakes of product §7: a plural one brace short, and a misspelt placeholder.
  {
    code: "fr",
    value: "Message {count, plural, one {# truc} other {# trucs}",
    base: "Message {count, plural, one {# thing} other {# things}}",
    problems: [E("icu_syntax", "The `{` at character 9 is never closed: a `}` is missing")],
  },
  {
    code: "ja",
    value: "メッセージ {cnt}",
    base: "Message {count} {name}",
    problems: [
      E("placeholder_unknown", "`{cnt}` is not in the English text; use `{count}` or `{name}`"),
      W("placeholder_missing", "`{count}` from the English text is missing"),
      W("placeholder_missing", "`{name}` from the English text is missing"),
    ],
  },
  // icu_syntax, one row per kind of mistake; positions count characters, not UTF-16 units.
  { code: "en", value: "Hello {name", problems: [E("icu_syntax", "The `{` at character 7 is never closed: a `}` is missing")] },
  { code: "en", value: "👋🏽 {name", problems: [E("icu_syntax", "The `{` at character 4 is never closed: a `}` is missing")] },
  { code: "en", value: "Hello {}", problems: [E("icu_syntax", "`{}` at character 7 has no argument name inside (to show braces as text, write '{' and '}')")] },
  {
    code: "en",
    value: "Hi {first name}",
    problems: [E("icu_syntax", "`{first` at character 4 is not a valid argument: a name is letters, digits or _ (as in {count}), then `}` or a comma")],
  },
  {
    code: "en",
    value: "{count, plurall, one {x} other {y}}",
    problems: [E("icu_syntax", "`plurall` at character 9 is not an argument type: use plural, select, selectordinal, number, date or time")],
  },
  {
    code: "en",
    value: "{count, plural, one {# file}}",
    problems: [E("icu_syntax", "A plural or select ends at character 29 without an `other` case, which every plural and select needs")],
  },
  { code: "en", value: "{g, select, a {x} a {y} other {z}}", problems: [E("icu_syntax", "The case `a` at character 19 appears twice in the same select")] },
  {
    code: "en",
    value: "{n, plural, =x {a} other {b}}",
    problems: [E("icu_syntax", "The plural at character 14 has no case there: write a category (one, other, ...) or =N with a whole number")],
  },
  { code: "en", value: "{n,}", problems: [E("icu_syntax", "The argument at character 4 has a comma but no type after it: plural, select, selectordinal, number, date or time")] },
  {
    code: "en",
    value: "{n, select}",
    problems: [E("icu_syntax", "The plural or select at character 11 needs a comma and its cases, as in {count, plural, one {…} other {…}}")],
  },
  { code: "en", value: "{n, plural, one}", problems: [E("icu_syntax", "The case at character 16 needs its text in braces, as in other {…}")] },
  { code: "en", value: "{n, plural, offset:x other {b}}", problems: [E("icu_syntax", "The offset at character 20 must be a whole number, as in offset:1")] },
  { code: "en", value: `Deep ${"{".repeat(MAX_NESTING + 10)}`, problems: [E("icu_syntax", `Braces are nested more than ${MAX_NESTING} levels deep (at character ${6 + MAX_NESTING})`)] },
  { code: "de", value: "{count, plural, one {# Datei} other {# Dateien}", base: EN_FILES, problems: [E("icu_syntax", "The `{` at character 1 is never closed: a `}` is missing")] },
  // placeholder_unknown (an error) and placeholder_missing (a warning).
  { code: "de", value: "Hallo {name}", base: "Hello", problems: [E("placeholder_unknown", "`{name}` is not in the English text, which has no placeholders")] },
  { code: "de", value: "Hallo", base: "Hello {name}", problems: [W("placeholder_missing", "`{name}` from the English text is missing")] },
  {
    code: "de",
    value: "Hallo {Name}",
    base: "Hello {name}",
    problems: [E("placeholder_unknown", "`{Name}` is not in the English text; use `{name}`"), W("placeholder_missing", "`{name}` from the English text is missing")],
  },
  {
    code: "de",
    value: "{n, plural, one {# Datei von {usr}} other {# Dateien von {usr}}}",
    base: "{n, plural, one {# file by {user}} other {# files by {user}}}",
    problems: [E("placeholder_unknown", "`{usr}` is not in the English text; use `{user}`"), W("placeholder_missing", "`{user}` from the English text is missing")],
  },
  // ICU quoting: '{name}' is the text {name}, so the argument is missing.
  { code: "de", value: "Hallo '{name}'", base: "Hello {name}", problems: [W("placeholder_missing", "`{name}` from the English text is missing")] },
  {
    code: "ru",
    value: "{a}{b}{c}{d}{e}{f}{g}",
    base: "Hi",
    problems: [
      ...["a", "b", "c", "d", "e"].map((n) => E("placeholder_unknown", `\`{${n}}\` is not in the English text, which has no placeholders`)),
      E("placeholder_unknown", "…and 2 more placeholders are not in the English text"),
    ],
  },
  // plural_category (a warning): categories the language lacks, or has and the message lacks.
  {
    code: "de",
    value: "{count, plural, other {# Dateien}}",
    base: EN_FILES,
    problems: [W("plural_category", "`{count}` has no `one` case, which German uses for 1; those numbers get the `other` text")],
  },
  {
    code: "en",
    value: "{count, plural, one {# file} few {# files} other {# files}}",
    problems: [W("plural_category", "`{count}` has a `few` case, which English plurals never use (English has one and other)")],
  },
  {
    code: "ja",
    value: "{n, plural, one {# 件} other {# 件}}",
    base: EN_N,
    problems: [W("plural_category", "`{n}` has a `one` case, which Japanese plurals never use (Japanese has only other)")],
  },
  {
    code: "ru",
    value: "{n, plural, one {# файл} other {# файлов}}",
    base: EN_N,
    problems: [
      W("plural_category", "`{n}` has no `few` case, which Russian uses for 2, 3, 4, …; those numbers get the `other` text"),
      W("plural_category", "`{n}` has no `many` case, which Russian uses for 0, 5, 6, …; those numbers get the `other` text"),
    ],
  },
  {
    code: "ru",
    value: "{n, plural, =1 {один файл} few {# файла} many {# файлов} other {# файла}}",
    base: EN_N,
    problems: [W("plural_category", "`{n}` has no `one` case, which Russian uses for 1, 21, 31, …; those numbers get the `other` text")],
  },
  {
    code: "pl",
    value: "{n, plural, one {# plik} other {# plików}}",
    base: EN_N,
    problems: [
      W("plural_category", "`{n}` has no `few` case, which Polish uses for 2, 3, 4, …; those numbers get the `other` text"),
      W("plural_category", "`{n}` has no `many` case, which Polish uses for 0, 5, 6, …; those numbers get the `other` text"),
    ],
  },
  {
    code: "ar",
    value: "{n, plural, other {# ملف}}",
    base: EN_N,
    problems: [
      W("plural_category", "`{n}` has no `zero` case, which Arabic uses for 0; those numbers get the `other` text"),
      W("plural_category", "`{n}` has no `one` case, which Arabic uses for 1; those numbers get the `other` text"),
      W("plural_category", "`{n}` has no `two` case, which Arabic uses for 2; those numbers get the `other` text"),
      W("plural_category", "`{n}` has no `few` case, which Arabic uses for 3, 4, 5, …; those numbers get the `other` text"),
      W("plural_category", "`{n}` has no `many` case, which Arabic uses for 11, 12, 13, …; those numbers get the `other` text"),
    ],
  },
  {
    // docs/messages.md "Plural categories": French `many` is for 1,000,000 and its
    // multiples only, which every runtime gives the `other` text: a plural needs no case for it.
    code: "fr",
    value: "{count, plural, one {# truc} other {# trucs}}",
    base: EN_FILES,
    problems: [],
  },
  {
    // French `one` also takes 0 and fractions such as 1.5, so =0 and =1 do not stand in for it.
    code: "fr",
    value: "{n, plural, =0 {aucun fichier} =1 {un fichier} many {# de fichiers} other {# fichiers}}",
    base: EN_N,
    problems: [W("plural_category", "`{n}` has no `one` case, which French uses for 0 and 1; those numbers get the `other` text")],
  },
  {
    code: "fr",
    value: "{n, plural, single {un} many {# de} other {#}}",
    base: EN_N,
    problems: [
      W("plural_category", "`{n}` has a case `single`, which is no plural category (French plurals have one, many and other; =N matches an exact number)"),
      W("plural_category", "`{n}` has no `one` case, which French uses for 0 and 1; those numbers get the `other` text"),
    ],
  },
  {
    code: "pt-BR",
    value: "{n, plural, one {# arquivo} other {# arquivos}}",
    base: EN_N,
    problems: [],
  },
  {
    code: "de",
    value: "{n, selectordinal, one {#.} other {#.}}",
    base: "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}",
    problems: [W("plural_category", "`{n}` has a `one` case, which German ordinals never use (German has only other)")],
  },
  {
    code: "en",
    value: "{n, selectordinal, one {#st} other {#th}}",
    problems: [
      W("plural_category", "`{n}` has no `two` case, which English uses for 2, 22, 32, …; those numbers get the `other` text"),
      W("plural_category", "`{n}` has no `few` case, which English uses for 3, 23, 33, …; those numbers get the `other` text"),
    ],
  },
  {
    // Nested: the same finding in two branches is said once; the unknown argument is an error.
    code: "de",
    value: "{gender, select, female {{count, plural, other {Sie hat # Dateien von {who}}}} other {{count, plural, other {# Dateien}}}}",
    base: NESTED_EN,
    problems: [
      E("placeholder_unknown", "`{who}` is not in the English text; use `{gender}` or `{count}`"),
      W("plural_category", "`{count}` has no `one` case, which German uses for 1; those numbers get the `other` text"),
    ],
  },
  // The text syntax: an unknown placeholder is only a warning, and nothing is an ICU error.
  {
    code: "de",
    value: "Hallo {{nam}}",
    base: "Hello {{name}}",
    syntax: "text",
    problems: [W("placeholder_unknown", "`nam` is not in the English text; use `name`"), W("placeholder_missing", "`name` from the English text is missing")],
  },
  { code: "de", value: "{count, plural, one {# Datei} other {# Dateien}", base: "{count, plural, one {# file} other {# files}}", syntax: "text", problems: [] },
  {
    code: "de",
    value: "{{user.name}} hat {# keine} {Dateien}",
    base: "{{user.name}} has {files}",
    syntax: "text",
    problems: [W("placeholder_unknown", "`Dateien` is not in the English text; use `files`"), W("placeholder_missing", "`files` from the English text is missing")],
  },
];
