/**
 * The bundle compiler (interface §2.6, product §3): one language of a key set compiled by
 * `compileLanguage` into its JSON, YAML and ARB files, read back by real parsers.
 */
import { describe, expect, test } from "bun:test";
import { parse as parseYaml } from "yaml";
import { compareCodePoints } from "../../src/common/text.ts";
import { arbLocale } from "../../src/formats/arb.ts";
import { compileLanguage, compileLanguageInto } from "../../src/formats/bundle.ts";
import { Utf8Bytes } from "../../src/formats/texts.ts";
import type { BundleFormat } from "../../src/formats/registry.ts";

const sorted = (keys: string[]) => [...keys].sort(compareCodePoints);

/**
 * One language's files for (key, value) pairs already in code-point order of the key, as a
 * publish compiles them: the key set is the pairs' keys (ARB names come from arbNames over it).
 */
function compile(entries: ReadonlyArray<readonly [string, string]>, code = "en", contexts = new Map<string, string | null>()): Record<BundleFormat, string> {
  const keys = entries.map(([k]) => k);
  return compileLanguage({ keys, contexts }, { code, values: entries.map(([, v]) => v) });
}

describe("JSON bundle", () => {
  test("interface §2.6, product §3: a flat object, keys exactly as authored, in code-point order", () => {
    // Integer-like keys would jump to the front of a JavaScript object; U+FF01 sorts before an
    // emoji in code points although its UTF-16 unit is larger than the emoji's high surrogate.
    const keys = sorted(["b", "10", "2", "a.b", "A", "\uff01", "😀", "é", "a b"]);
    expect(keys).toEqual(["10", "2", "A", "a b", "a.b", "b", "é", "\uff01", "😀"]);
    const text = compile(keys.map((k) => [k, `v:${k}`])).json;
    expect(Object.keys(JSON.parse(text)).length).toBe(keys.length);
    const order = [...text.matchAll(/^  ("(?:[^"\\]|\\.)*"):/gm)].map((m) => JSON.parse(m[1]!));
    expect(order).toEqual(keys);
    expect(JSON.parse(text)["a.b"]).toBe("v:a.b");
  });

  test("product §3: code-point order puts U+E000..U+FFFF before astral characters, unlike UTF-16 order", () => {
    const keys = ["\u{1F600}", "\uffff", "\ue000", "\ud7ff", "a", "\u{10000}"];
    expect(sorted(keys)).toEqual(["a", "\ud7ff", "\ue000", "\uffff", "\u{10000}", "\u{1F600}"]);
    expect([...keys].sort()).not.toEqual(sorted(keys)); // the default sort would get it wrong
    expect(compareCodePoints("ab", "a")).toBeGreaterThan(0);
    expect(compareCodePoints("a", "a")).toBe(0);
  });

  test("product §3: keys without a value in the language are left out of all three files", () => {
    const keys = ["a", "b", "c"];
    const files = compileLanguage({ keys, contexts: new Map() }, { code: "de", values: ["A", undefined, "C"] });
    expect(JSON.parse(files.json)).toEqual({ a: "A", c: "C" });
    expect(parseYaml(files.yaml)).toEqual({ a: "A", c: "C" });
    expect(JSON.parse(files.arb)).toEqual({ "@@locale": "de", a: "A", c: "C" });
  });

  test("product §3: an empty language compiles to an empty object", () => {
    const files = compile([]);
    expect(JSON.parse(files.json)).toEqual({});
    expect(parseYaml(files.yaml)).toEqual({});
    expect(JSON.parse(files.arb)).toEqual({ "@@locale": "en" });
  });
});

const TRICKY_VALUES = [
  "yes", "no", "on", "off", "y", "n", "Y", "N", "YES", "No", "ON", "Off", "true", "False", "null", "Null", "NULL", "~", "",
  "0", "12", "-1", "+1", "1.5", ".5", "1e3", "0x1F", "0o17", "017", "1_000", "1:20", "190:20:30", ".inf", "-.Inf", ".NaN",
  "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2002-12-14 21:59:43", "<<", "=", "- item", "? key", ": value", "# comment",
  "&anchor", "*alias", "!tag", "!!str", "%YAML", "@at", "`tick", "|", ">", "'single'", '"double"', "{a: 1}", "[1, 2]",
  "a: b", "a #b", "trailing space ", " leading space", "tab\there", "line1\nline2", "crlf\r\n", "multi\n\nparagraph\n",
  "unicode: héllo wörld", "日本語のテキスト", "emoji 😀 here", "rtl עברית", "nel\u0085x", "ls\u2028ps\u2029",
  "bom\ufeffx", "nul\u0000x", "del\u007fx", "bell\u0007", "back\\slash", "percent %s and {count}", "Hello, world.", "Plain words",
];

describe("the files' text (docs/formats.md \"Speed\")", () => {
  const values = [...TRICKY_VALUES, "lone \ud800 high", "lone \udc00 low", "x\udfff", "pair \ud83d\ude00", 'quote " and \\', "ctl \u0001\u001f", "\u2028", "{n, plural, one{# \"a\"} other{#}}"];
  const keys = values.map((_, i) => `k${String(i).padStart(3, "0")}`);

  test("product §3: every value is written as JSON.stringify writes it (lone surrogates escaped), though most are not copied to be quoted", () => {
    const files = compileLanguage({ keys, contexts: new Map() }, { code: "en", values });
    expect(files.json).toBe(`{\n${keys.map((k, i) => `  ${JSON.stringify(k)}: ${JSON.stringify(values[i])}`).join(",\n")}\n}\n`);
    const arb = JSON.parse(files.arb);
    for (const [i, k] of keys.entries()) expect(arb[k]).toBe(values[i]!);
    expect(parseYaml(files.yaml, { uniqueKeys: true })).toEqual(Object.fromEntries(keys.map((k, i) => [k, values[i]!])));
    for (const text of Object.values(files)) expect(text.isWellFormed()).toBe(true);
  });

  test("publishing §2: the bytes a publish writes through its kept buffers are each file's UTF-8, language after language", () => {
    const into = { json: new Utf8Bytes(), yaml: new Utf8Bytes(), arb: new Utf8Bytes() };
    // A long language first, then a short one: the second must not keep the first one's tail.
    for (const lang of [{ code: "de", values: values.map((v) => v.repeat(50)) }, { code: "fr", values: values.map((v, i) => (i < 3 ? v : undefined)) }]) {
      const files = compileLanguage({ keys, contexts: new Map() }, lang);
      for (const f of ["json", "yaml", "arb"] as const) into[f].reset();
      compileLanguageInto({ keys, contexts: new Map() }, lang, "icu", into);
      for (const f of ["json", "yaml", "arb"] as const) expect(Buffer.from(into[f].bytes()).equals(Buffer.from(files[f], "utf8"))).toBe(true);
      // Drained in small pieces as they come, the same bytes.
      const drained = { json: new Utf8Bytes(64), yaml: new Utf8Bytes(64), arb: new Utf8Bytes(64) };
      const got = { json: [] as Uint8Array[], yaml: [] as Uint8Array[], arb: [] as Uint8Array[] };
      for (const f of ["json", "yaml", "arb"] as const) drained[f].reset((bytes) => got[f].push(Buffer.from(bytes)));
      compileLanguageInto({ keys, contexts: new Map() }, lang, "icu", drained);
      for (const f of ["json", "yaml", "arb"] as const) {
        drained[f].end();
        expect(got[f].length).toBeGreaterThan(lang.code === "de" ? 10 : 0);
        expect(Buffer.concat(got[f]).equals(Buffer.from(files[f], "utf8"))).toBe(true);
      }
    }
  });
});

describe("YAML bundle (product §3)", () => {
  for (const version of ["1.1", "1.2"] as const) {
    test(`product §3: tricky values and keys read back identically with a YAML ${version} parser`, () => {
      const entries = sorted(TRICKY_VALUES.filter((v) => v !== "")).map((k, i) => [k, TRICKY_VALUES[i]!] as const);
      const back = parseYaml(compile(entries).yaml, { version, uniqueKeys: true });
      expect(back).toEqual(Object.fromEntries(entries));
      for (const [k] of entries) expect(typeof back[k]).toBe("string");
    });

    test(`product §3: random strings round-trip through a YAML ${version} parser`, () => {
      let seed = 12345;
      const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / 0x1000000;
      const pool = ["a", "Z", "0", "9", " ", ":", "#", "-", "?", "'", '"', "\\", "\n", "\t", ".", ",", "é", "😀", "\u2028", "\u0085", "{", "}", "[", "!", "&", "*", "~", "y", "e"];
      const map = new Map<string, string>();
      for (let i = 0; i < 2000; i++) {
        const len = Math.floor(rand() * 12);
        let s = "";
        for (let j = 0; j < len; j++) s += pool[Math.floor(rand() * pool.length)];
        map.set(`k${i}${s}`.trim() || `k${i}`, s);
      }
      const entries = sorted([...map.keys()]).map((k) => [k, map.get(k)!] as const);
      expect(parseYaml(compile(entries).yaml, { version })).toEqual(Object.fromEntries(entries));
    });
  }

  test("product §3: plain-looking words stay readable, everything ambiguous is quoted", () => {
    expect(compile([["greeting", "Hello world"], ["n", "5"], ["no", "yes"]]).yaml).toBe('greeting: Hello world\n"n": "5"\n"no": "yes"\n');
  });
});

describe("ARB bundle", () => {
  test("interface §2.6 ARB rules 4-5: @@locale first, metadata under the derived name with description and ICU placeholders", () => {
    const contexts = new Map<string, string | null>([["cart.items", "cart badge"], ["class", null], ["hello.world", null]]);
    const text = compile([["cart.items", "{count, plural, one {{count} item for {name}} other {{count} items}}"], ["class", "Class"], ["hello.world", "Olá {name}!"]], "pt-BR", contexts).arb;
    const arb = JSON.parse(text);
    expect(Object.keys(arb)).toEqual(["@@locale", "cartItems", "@cartItems", "kClass", "helloWorld", "@helloWorld"]);
    expect(arb["@@locale"]).toBe("pt_BR");
    expect(arb["@cartItems"]).toEqual({ description: "cart badge", placeholders: { count: { type: "num" }, name: {} } });
    expect(arb["@helloWorld"]).toEqual({ placeholders: { name: {} } });
    expect(arb.kClass).toBe("Class");
  });

  test("product §3: @@locale uses underscores, file names keep the code", () => {
    expect(arbLocale("pt-BR")).toBe("pt_BR");
    expect(arbLocale("zh-Hant-TW")).toBe("zh_Hant_TW");
    expect(arbLocale("en")).toBe("en");
  });

  /** The `placeholders` of one message's ARB metadata. */
  const placeholdersOf = (value: string, syntax: "icu" | "text" = "icu") =>
    JSON.parse(compileLanguage({ keys: ["m"], contexts: new Map() }, { code: "en", values: [value] }, syntax).arb)["@m"]?.placeholders;

  test("publishing §3: placeholders come from the checked parse, in order of first use, typed as gen-l10n expects", () => {
    expect(placeholdersOf("Hello {name}")).toEqual({ name: {} });
    expect(Object.entries(placeholdersOf("{ count , plural, =0{none} one {# item} other {{count} items in {place}}}"))).toEqual([
      ["count", { type: "num" }],
      ["place", {}],
    ]);
    expect(placeholdersOf("{gender, select, male {he} female {she} other {{who}}}")).toEqual({ gender: { type: "String" }, who: {} });
    expect(placeholdersOf("Total {amount, number, ::currency/EUR} on {day, date, short} at {t, time, short}")).toEqual({
      amount: { type: "num" },
      day: { type: "DateTime" },
      t: { type: "DateTime" },
    });
    expect(placeholdersOf("{n, selectordinal, one {#st} two {#nd} other {#th}}")).toEqual({ n: { type: "num" } });
    expect(placeholdersOf("{a}{a}{b}")).toEqual({ a: {}, b: {} });
    // Used plainly first and as a plural later: gen-l10n infers the plural's type for the one placeholder.
    expect(placeholdersOf("{n} · {n, plural, one {# item} other {# items}}")).toEqual({ n: { type: "num" } });
  });

  test("publishing §3: apostrophes quote as in ICU; # and tags are text; a value that does not parse declares nothing", () => {
    expect(placeholdersOf("It''s {name}'s turn, not '{literal}'")).toEqual({ name: {} });
    expect(placeholdersOf("{n, plural, other {# left, '#' is a sign}}")).toEqual({ n: { type: "num" } });
    expect(placeholdersOf("<b>{name}</b> <br>")).toEqual({ name: {} });
    expect(placeholdersOf("Message {count, plural, one {# truc} other {# trucs}")).toBeUndefined();
    expect(placeholdersOf("no placeholders, just words")).toBeUndefined();
  });

  test("product §7: a text-syntax project declares its {name} and {{name}} tokens", () => {
    expect(placeholdersOf("Hi {{name}}, {{count, number}} new, {other}", "text")).toEqual({ name: {}, count: {}, other: {} });
  });

  test("publishing §3: a 100,000-character message with 17,000 placeholders compiles in linear time", () => {
    const names = Array.from({ length: 17_000 }, (_, i) => i.toString(36));
    const filled = (list: string[], length: number) => {
      const text = list.map((n) => `{${n}}`).join("");
      return text + "x".repeat(length - text.length);
    };
    /** The steps compileLanguage counts for one message: reading its placeholders and writing them. */
    const steps = (value: string) => {
      const work = { steps: 0 };
      const arb = compileLanguage({ keys: ["m"], contexts: new Map() }, { code: "en", values: [value] }, "icu", work).arb;
      return { steps: work.steps, placeholders: Object.keys(JSON.parse(arb)["@m"].placeholders).length };
    };
    const full = steps(filled(names, 100_000));
    const half = steps(filled(names.slice(0, 8_500), 50_000));
    expect(full.placeholders).toBe(17_000);
    expect(half.placeholders).toBe(8_500);
    // Counted, not timed: twice the input is twice the steps. Looking each name up in a list of the
    // names seen so far would be 17,000 x 17,000 / 2 steps, four times as many for twice the input.
    expect(full.steps).toBeLessThanOrEqual(2.2 * half.steps);
    expect(full.steps).toBeLessThanOrEqual(3 * 100_000);
  });
});
