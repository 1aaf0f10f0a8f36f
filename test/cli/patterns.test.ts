/**
 * The client's file patterns (product §6): `{language}` is the code as Phrasebook has it (`pt-BR`),
 * `{locale}` the same with underscores (`pt_BR`, gen-l10n's file names); a code from a server becomes
 * part of a path only when it is a language code, never a path trick.
 */
import { describe, expect, test } from "bun:test";
import { parseFormat, PUSH_FORMATS } from "../../src/cli/client/formats.ts";
import { filesMatching, fillPattern, hasPlaceholder, languageFromPath } from "../../src/cli/client/patterns.ts";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatOfPath } from "../../src/formats/registry.ts";

describe("product §6: {language} and {locale} patterns", () => {
  test("filling: the code as it is, or with underscores", () => {
    expect(fillPattern("lib/l10n/app_{locale}.arb", "pt-BR")).toBe("lib/l10n/app_pt_BR.arb");
    expect(fillPattern("public/locales/{language}.json", "pt-BR")).toBe("public/locales/pt-BR.json");
    expect(fillPattern("{language}/{locale}.yaml", "zh-Hant-TW")).toBe("zh-Hant-TW/zh_Hant_TW.yaml");
  });

  test("a code that is no language code never reaches a path", () => {
    for (const code of ["../../etc/passwd", "de/..", "de\\x", "", "de ", "-de", "d".repeat(36), "de\u0000"]) {
      expect(() => fillPattern("out/{language}.json", code), code).toThrow(/no language code/);
    }
  });

  test("matching a path gives its language, in either form", () => {
    expect(languageFromPath("lib/l10n/app_{locale}.arb", "lib/l10n/app_pt_BR.arb")).toBe("pt-BR");
    expect(languageFromPath("lib/l10n/app_{locale}.arb", "lib/l10n/app_de.arb")).toBe("de");
    expect(languageFromPath("locales/{language}.json", "locales/pt-BR.json")).toBe("pt-BR");
    expect(languageFromPath("locales/{language}.json", "locales/de.yaml")).toBeUndefined();
    expect(languageFromPath("locales/{language}.json", "other/de.json")).toBeUndefined();
    // Regular-expression characters of the pattern are taken literally.
    expect(languageFromPath("a.b/{language}.json", "aXb/de.json")).toBeUndefined();
    // Two parts naming different languages name none.
    expect(languageFromPath("{language}/app_{locale}.arb", "de/app_fr.arb")).toBeUndefined();
    expect(languageFromPath("{language}/app_{locale}.arb", "pt-BR/app_pt_BR.arb")).toBe("pt-BR");
    expect(languageFromPath("strings.json", "strings.json")).toBeUndefined();
  });

  test("{android} is the resource folder, values for the base language; a folder names its language back", () => {
    expect(["en", "de", "pt-BR", "sr-Latn", "es-419"].map((code) => fillPattern("res/{android}/strings.xml", code, "en"))).toEqual([
      "res/values/strings.xml",
      "res/values-de/strings.xml",
      "res/values-pt-rBR/strings.xml",
      "res/values-b+sr+Latn/strings.xml",
      "res/values-b+es+419/strings.xml",
    ]);
    expect(hasPlaceholder("res/{android}/strings.xml")).toBe(true);
    expect(["res/values-de/strings.xml", "res/values-pt-rBR/strings.xml", "res/values-b+sr+Latn/strings.xml", "res/values/strings.xml"].map((p) => languageFromPath("res/{android}/strings.xml", p))).toEqual(["de", "pt-BR", "sr-Latn", undefined]);
  });

  test("placeholders, globs and formats", () => {
    expect([hasPlaceholder("a/{language}.json"), hasPlaceholder("a/{locale}.arb"), hasPlaceholder("a/{lang}.json")]).toEqual([true, true, false]);
    expect(["a.ARB", "a.json", "a.yml", "a.yaml", "a.txt"].map((path) => formatOfPath(path, PUSH_FORMATS))).toEqual(["arb", "json", "yaml", "yaml", undefined]);
    expect(parseFormat("YML", PUSH_FORMATS)).toBe("yaml");
    expect(parseFormat("xml", PUSH_FORMATS)).toBe("android");
    expect(() => parseFormat("txt", PUSH_FORMATS)).toThrow('--format must be json, yaml, arb, xliff, po, android, strings, stringsdict or xcstrings (got "txt")');
  });

  test("the files a pattern names, placeholders in a file or a folder name, absolute or relative", () => {
    const dir = mkdtempSync(join(tmpdir(), "phrasebook-patterns-"));
    try {
      for (const path of ["l10n/app_de.arb", "l10n/app_pt_BR.arb", "l10n/other.arb", "l10n/app_de.arb.bak", "locales/de/app.json", "locales/fr/app.json", "locales/fr/other.json"]) {
        mkdirSync(join(dir, path, ".."), { recursive: true });
        writeFileSync(join(dir, path), "{}");
      }
      mkdirSync(join(dir, "l10n/app_xx.arb"));
      expect(filesMatching(`${dir}/l10n/app_{locale}.arb`)).toEqual([`${dir}/l10n/app_de.arb`, `${dir}/l10n/app_pt_BR.arb`]);
      expect(filesMatching(`${dir}/locales/{language}/app.json`)).toEqual([`${dir}/locales/de/app.json`, `${dir}/locales/fr/app.json`]);
      const cwd = process.cwd();
      process.chdir(dir);
      try {
        expect(filesMatching("l10n/app_{locale}.arb")).toEqual(["l10n/app_de.arb", "l10n/app_pt_BR.arb"]);
        expect(filesMatching("missing/{language}.json")).toEqual([]);
      } finally {
        process.chdir(cwd);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
