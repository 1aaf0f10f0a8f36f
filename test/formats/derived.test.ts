/**
 * What is derived from the format registry (docs/formats.md), each checked against the list: the
 * CDN's paths and content types, `download_urls` and its schema, the client's `--format` choices,
 * extension detection and help, and the formats the dashboard's pages are given. (The import's
 * `format` and the served files: test/releases/release-formats.test.ts; the import page in a
 * browser: test/dashboard/keys.test.ts.)
 */
import { describe, expect, test } from "bun:test";
import { downloadUrls } from "../../src/bundles/urls.ts";
import { fileHeaders } from "../../src/cdn/headers.ts";
import { parseCdnPath } from "../../src/cdn/paths.ts";
import { COMMAND_HELP } from "../../src/cli/help.ts";
import { parseFormat, PULL_FORMATS, PUSH_FORMATS } from "../../src/cli/client/formats.ts";
import { FORMAT_INFO } from "../../src/dashboard/shell.ts";
import { BUNDLE_FORMATS, FORMAT_NAMES, FORMATS, isMultiLanguage } from "../../src/formats/registry.ts";
import { NAMED_SCHEMAS } from "../../src/public-api/model.ts";

const SLUG = "AbCdEfGh12345678";
const bundle = FORMATS.filter((f) => f.bundle);

describe("derived from the format registry (docs/formats.md)", () => {
  test("interface §4.5: the CDN path names exactly the bundle formats, by their name", () => {
    for (const f of FORMATS) {
      for (const [i, ext] of f.extensions.entries()) {
        const parsed = parseCdnPath(`/p/${SLUG}/r/latest/pt-BR.${ext}`);
        // A bundle format's file is <code>.<name>; other extensions and other formats are no CDN file.
        if (f.bundle && i === 0) expect(parsed, ext).toEqual({ projectSlug: SLUG, releaseSlug: "latest", channel: false, code: "pt-BR", ext: f.name });
        else expect(parsed, ext).toBeNull();
      }
    }
  });

  test("product §3: the CDN's Content-Type of a file is its format's, in every encoding", () => {
    for (const f of bundle) {
      for (const encoding of ["identity", "gzip", "br"] as const) {
        expect(fileHeaders(f.name, "no-cache", '"t"', encoding).ok["content-type"], `${f.name} ${encoding}`).toBe(f.contentType);
      }
    }
  });

  test("interface §2.3: download_urls has a key per bundle format, each required, and no other", () => {
    const schema = (NAMED_SCHEMAS.ReleaseLanguage.properties as any).download_urls;
    expect(Object.keys(schema.properties)).toEqual([...BUNDLE_FORMATS]);
    expect(schema.required).toEqual([...BUNDLE_FORMATS]);
    expect(schema.additionalProperties).toBe(false);
    for (const f of BUNDLE_FORMATS) expect(schema.properties[f]).toMatchObject({ type: "string", format: "uri" });
  });

  test("docs/formats.md: download_urls are a URL per recorded format, in the order recorded", () => {
    expect(downloadUrls("https://cdn.example", "P", "R", "pt-BR", BUNDLE_FORMATS)).toEqual(
      Object.fromEntries(BUNDLE_FORMATS.map((f) => [f, `https://cdn.example/p/P/r/R/pt-BR.${f}`])),
    );
    expect(Object.keys(downloadUrls("https://cdn.example", "P", "R", "de", ["arb", "json"]))).toEqual(["arb", "json"]);
  });

  test("product §6: push takes every format, pull the bundle formats, by name or by any extension, in any letter case", () => {
    expect(PUSH_FORMATS).toEqual(FORMAT_NAMES);
    expect(PULL_FORMATS).toEqual(FORMAT_NAMES);
    for (const f of FORMATS) {
      for (const given of [f.name, f.name.toUpperCase(), ...f.extensions]) expect(parseFormat(given, PUSH_FORMATS), given).toBe(f.name);
    }
    expect(() => parseFormat("txt", PUSH_FORMATS)).toThrow(`--format must be ${FORMAT_NAMES.slice(0, -1).join(", ")} or ${FORMAT_NAMES.at(-1)} (got "txt")`);
    expect(parseFormat(undefined, PULL_FORMATS)).toBeUndefined();
  });

  test("product §6: the client's help lists the formats and every extension it detects", () => {
    expect(COMMAND_HELP.push).toContain(`[--format ${FORMAT_NAMES.join("|")}]`);
    for (const f of FORMATS) for (const ext of f.extensions) expect(COMMAND_HELP.push).toContain(`.${ext}`);
    expect(COMMAND_HELP.pull).toContain(`[--format ${FORMAT_NAMES.join("|")}]`);
  });

  test("docs/dashboard.md: the pages are given every format with its label, extensions, media type and whether releases ship it", () => {
    expect(FORMAT_INFO).toEqual(
      FORMATS.map((f) => ({ name: f.name, label: f.label, extensions: [...f.extensions], media_type: f.contentType.split(";")[0]!, bundle: f.bundle, multi_language: isMultiLanguage(f.name) })),
    );
  });
});
