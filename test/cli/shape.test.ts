/**
 * How pull shapes a release's CDN files into the team's own (docs/product.md §9): ARB names as
 * authored when gen-l10n takes them, else the spec §2.6 name, numbered when taken twice, with the
 * `@` entries the CDN ARB carries under its spec names (docs/formats.md "ARB metadata"); JSON
 * nested unless a key is also the prefix of another.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isGenL10nName, nest, teamArb } from "../../src/cli/client/shape.ts";
import { arbNames } from "../../src/formats/arb-names.ts";
import { compareCodePoints } from "../../src/common/text.ts";
import { ROOT } from "../helpers/server.ts";

/** A CDN ARB and JSON as docs/formats.md "ARB metadata" describes them, from a template. */
function cdnFiles(template: Record<string, unknown>) {
  const keys = Object.keys(template).filter((k) => !k.startsWith("@")).sort(compareCodePoints);
  const names = arbNames(keys);
  const arb: Record<string, unknown> = { "@@locale": template["@@locale"] };
  for (const [k, v] of Object.entries(template)) if (k.startsWith("@@") && k !== "@@locale" && k !== "@@last_modified") arb[k] = v;
  const json: Record<string, unknown> = {};
  for (const key of keys) {
    arb[names.get(key)!] = template[key];
    if (template[`@${key}`] !== undefined && Object.keys(template[`@${key}`] as object).length > 0) arb[`@${names.get(key)}`] = template[`@${key}`];
    json[key] = template[key];
  }
  return { arb, json };
}

describe("ARB as the template wrote it", () => {
  test("the sample gen-l10n template comes back JSON-equal apart from @@last_modified", () => {
    const template = JSON.parse(readFileSync(join(ROOT, "test/fixtures/roundtrip/flutter/app_en.arb"), "utf8"));
    const { arb, json } = cdnFiles(template);
    expect(arb["@settingsTitle"]).toBeDefined(); // the CDN names the spec's way
    const { "@@last_modified": _, ...expected } = template;
    // Empty `@key` entries (none in the sample) would not come back: the CDN writes none.
    expect(teamArb("pull", arb, json)).toEqual(expected);
  });

  test("a key gen-l10n cannot take gets the spec name; a name taken twice is numbered", () => {
    expect([isGenL10nName("settings_title"), isGenL10nName("Title"), isGenL10nName("home.title"), isGenL10nName("class"), isGenL10nName("a-b")]).toEqual([true, false, false, false, false]);
    const json = { "home.title": "Home", homeTitle: "Also", "new": "New" };
    const names = arbNames(Object.keys(json));
    const arb: Record<string, unknown> = { "@@locale": "en" };
    for (const key of Object.keys(json).sort(compareCodePoints)) arb[names.get(key)!] = json[key as keyof typeof json];
    arb["@homeTitle"] = { description: "spec-named entry of home.title" };
    const sortedJson = Object.fromEntries(Object.keys(json).sort(compareCodePoints).map((k) => [k, json[k as keyof typeof json]]));
    expect(teamArb("pull", arb, sortedJson)).toEqual({ "@@locale": "en", homeTitle: "Home", "@homeTitle": { description: "spec-named entry of home.title" }, homeTitle2: "Also", kNew: "New" });
  });

  test("a count that does not match is a refusal, not a guess", () => {
    expect(() => teamArb("pull x", { "@@locale": "en", a: "A" }, { a: "A", b: "B" })).toThrow("pull x: the release's ARB file has 1 messages and its JSON file 2 keys; they should match");
  });
});

describe("nested JSON", () => {
  test("dots become objects; a prefix or an empty part keeps it flat, with the reason", () => {
    expect(nest({ "a.b": "1", "a.c": "2", d: "3" })).toEqual({ nested: { a: { b: "1", c: "2" }, d: "3" } });
    expect(nest({ a: "1", "a.b": "2" })).toEqual({ why: 'the key "a" is also the prefix of "a.b"' });
    expect(nest({ "a.b": "2", a: "1" })).toEqual({ why: 'the key "a" is also the prefix of another key' });
    expect(nest({ "a..b": "1" })).toEqual({ why: 'the key "a..b" has an empty part between dots' });
  });
});
