/**
 * The format registry (docs/formats.md): the rules every format of the list keeps, and what every
 * format does alike (a file it writes reads back to the same entries; the size bound and a byte
 * order mark are handled for all). Each check runs over the list, so a new format is checked by
 * adding it there.
 */
import { describe, expect, test } from "bun:test";
import { compareCodePoints } from "../../src/common/text.ts";
import { IMPORT_LIMITS } from "../../src/formats/read.ts";
import { readMessage } from "../../src/messages/read.ts";
import type { FileFormat } from "../../src/formats/format.ts";
import { BUNDLE_FORMATS, CONTENT_TYPES, FORMAT_NAMES, FORMATS, formatOfPath, readFile, readFileAs, readOneLanguage, shippedFormats } from "../../src/formats/registry.ts";
import { keyTexts, languageTexts } from "../../src/formats/texts.ts";

/** What a small release holds: keys in code-point order, one language, some values missing. */
function release(code = "de") {
  const keys = ["a.b", "checkout.total", "class", "count", "yes"].sort(compareCodePoints);
  const contexts = new Map<string, string | null>(keys.map((k) => [k, k === "checkout.total" ? "the sum at the bottom" : null]));
  const values = keys.map((k) => (k === "class" ? undefined : k === "a.b" ? `${k}: 'quoted' "double" ü %1$s` : `${k}: {count, plural, one {# x} other {# y}} 'quoted' "double" ü`));
  return { keySet: { keys, contexts }, lang: { code, values } };
}

describe("the format registry (docs/formats.md)", () => {
  test("interface §2.6: the bundle formats are the spec's json, yaml and arb, and every format has its name once", () => {
    expect(BUNDLE_FORMATS).toEqual(["json", "yaml", "arb"]);
    expect(new Set(FORMAT_NAMES).size).toBe(FORMATS.length);
    expect(FORMAT_NAMES).toEqual(FORMATS.map((f) => f.name));
  });

  test("docs/formats.md: extensions are lower case, owned by one format each, and a bundle format's first extension is its name", () => {
    const owner = new Map<string, string>();
    for (const f of FORMATS) {
      expect(f.extensions.length, f.name).toBeGreaterThan(0);
      for (const ext of f.extensions) {
        expect(ext, f.name).toMatch(/^[a-z0-9]+$/);
        expect(owner.get(ext), `.${ext}`).toBeUndefined();
        owner.set(ext, f.name);
      }
      if (f.bundle) expect(f.extensions[0], f.name).toBe(f.name);
      expect(f.label.length, f.name).toBeGreaterThan(0);
      expect(f.contentType, f.name).toMatch(/^[a-z]+\/[a-z0-9.+-]+; charset=utf-8$/);
    }
  });

  test("product §3: the CDN's content types are each bundle format's own", () => {
    expect(CONTENT_TYPES).toEqual({ json: "application/json; charset=utf-8", yaml: "application/yaml; charset=utf-8", arb: "application/json; charset=utf-8" });
    expect(Object.keys(CONTENT_TYPES)).toEqual([...BUNDLE_FORMATS]);
  });

  test("a file's format comes from any of its extensions, in any letter case; others name none", () => {
    for (const f of FORMATS) {
      for (const ext of f.extensions) expect(formatOfPath(`dir.x/app_en.${ext.toUpperCase()}`), ext).toBe(f.name);
    }
    expect(formatOfPath("a.txt")).toBeUndefined();
    expect(formatOfPath("json")).toBeUndefined();
    expect(formatOfPath("a.json", ["yaml", "arb"])).toBeUndefined();
  });

  test("docs/formats.md: a release's recorded formats keep the order recorded and only bundle formats", () => {
    expect(shippedFormats(["arb", "json"])).toEqual(["arb", "json"]);
    expect(shippedFormats(["json", "xliff", "yaml"])).toEqual(["json", "yaml"]);
    expect(shippedFormats([])).toEqual([]);
  });
});

/** The formats with plural forms of their own, which a plural goes back to on the way out. */
const NATIVE = new Set(["po", "android", "strings", "stringsdict", "xcstrings"]);

describe("every format reads what it writes (docs/formats.md)", () => {
  for (const format of FORMATS) {
    test(`${format.name}: a written file reads back to the same keys or names, values and contexts, in key order`, async () => {
      const { keySet, lang } = release("pt-BR");
      const write = (values: (string | undefined)[]) =>
        format.write({ keys: keyTexts(keySet), languages: [languageTexts({ ...lang, values })], argumentsOf: (value) => readMessage(value, "icu").arguments });
      const text = write(lang.values);
      const [read] = (await readFile(format.name, text)).languages;
      // The native formats write a plural in their own forms (docs/formats.md "Plurals": `#` becomes
      // `%d`, every category of the language is spelled out, `.strings` leaves plurals to
      // `.stringsdict` and that holds only them): what they read back writes the very same file.
      const native = NATIVE.has(format.name);
      const kept = keySet.keys.map((k, i) => [k, lang.values[i]] as const).filter(([, v]) => v !== undefined);
      const expected = native ? kept.filter(([k]) => read!.entries.some((e) => e.key === k)) : kept;
      if (native) {
        const again = keySet.keys.map((k) => read!.entries.find((e) => e.key === k)?.value);
        expect(write(again)).toBe(text);
        expect(expected.length, format.name).toBe(format.name === "strings" || format.name === "stringsdict" ? expected.length : kept.length);
      } else expect(read!.entries.map((e) => e.value)).toEqual(expected.map(([, v]) => v!));
      // ARB names its messages (arb-names.ts); the others keep the keys as authored.
      if (format.name !== "arb") expect(read!.entries.map((e) => e.key)).toEqual(expected.map(([k]) => k));
      // Where the format keeps a context, it is the key's.
      const described = read!.entries.filter((e) => e.description !== undefined);
      for (const e of described) expect(e.description).toBe("the sum at the bottom");
    });

    test(`${format.name}: an empty language writes a file that reads back empty`, async () => {
      const text = format.write({ keys: keyTexts({ keys: [], contexts: new Map() }), languages: [languageTexts({ code: "en", values: [] })], argumentsOf: (value) => readMessage(value, "icu").arguments });
      expect((await readOneLanguage(format.name, text)).entries).toEqual([]);
    });

    test(`${format.name}: docs/publishing.md §6: the size bound comes before parsing, and a byte order mark is no error`, async () => {
      const { keySet, lang } = release();
      const text = format.write({ keys: keyTexts(keySet), languages: [languageTexts(lang)], argumentsOf: (value) => readMessage(value, "icu").arguments });
      expect(await readOneLanguage(format.name, "\ufeff" + text)).toEqual(await readOneLanguage(format.name, text));
      let status = 0;
      try {
        await readFile(format.name, "x".repeat(IMPORT_LIMITS.bytes + 1));
      } catch (err) {
        status = (err as { status: number }).status;
      }
      expect(status).toBe(413);
    });
  }
});

describe("what the registry enforces for every reader (docs/formats.md \"Reading\")", () => {
  /** A format as a newcomer might write it: no bound of its own, a parser that throws plain errors. */
  const throwaway = (entries: number, fail?: Error): FileFormat<"throwaway"> => ({
    name: "throwaway",
    label: "Throwaway lines",
    extensions: ["throwaway"],
    contentType: "text/plain; charset=utf-8",
    bundle: false,
    async read() {
      if (fail) throw fail;
      return { languages: [{ entries: Array.from({ length: entries }, (_, i) => ({ key: `k${i}`, value: "v" })) }, { entries: [{ key: "x", value: "y" }] }] };
    },
    write: () => "",
  });
  const outcome = async (format: FileFormat, content = "x") => {
    try {
      return { read: await readFileAs(format, content) };
    } catch (err) {
      return { status: (err as { status: number }).status, message: (err as Error).message };
    }
  };

  test("a format without its own entry limit is still bounded: more than 100,000 entries over all its languages is a 413", async () => {
    expect(await outcome(throwaway(IMPORT_LIMITS.entries))).toEqual({ status: 413, message: 'invalid field "content": more than 100,000 entries (the limit of one file)' });
    expect((await outcome(throwaway(IMPORT_LIMITS.entries - 1))).read?.languages).toHaveLength(2);
  });

  test("the size bound, text that is not Unicode and the characters XML 1.0 forbids are the registry's, before and after any reader", async () => {
    expect(await outcome(throwaway(1, new Error("never read")), "x".repeat(IMPORT_LIMITS.bytes + 1))).toMatchObject({ status: 413 });
    expect(await outcome(throwaway(1), "a\n\ud800")).toMatchObject({ status: 400, message: expect.stringContaining("line 2, column 1: a lone UTF-16 surrogate") });
    expect(await outcome(throwaway(1), "a\nb\u0001")).toMatchObject({ status: 400, message: expect.stringContaining("line 2, column 2: the file holds U+0001 (a control character)") });
  });

  test("a reader that fails with a plain error (a parser's own limit, a stack overflow) is a 400 saying so, never a 500", async () => {
    expect(await outcome(throwaway(1, new RangeError("Maximum call stack size exceeded.")))).toEqual({
      status: 400,
      message: 'invalid field "content": the file could not be read as Throwaway lines: Maximum call stack size exceeded.',
    });
  });

  test("every format of the list goes through it: 100,001 entries of each are a 413", async () => {
    const big = Array.from({ length: IMPORT_LIMITS.entries + 1 }, (_, i) => `k${i}`);
    const files: Record<string, string> = {
      json: JSON.stringify(Object.fromEntries(big.map((k) => [k, "v"]))),
      yaml: big.map((k) => `${k}: v`).join("\n"),
      arb: JSON.stringify(Object.fromEntries(big.map((k) => [k, "v"]))),
      xliff: `<xliff version="1.2"><file source-language="en"><body>${big.map((k) => `<trans-unit id="${k}"><source>v</source></trans-unit>`).join("")}</body></file></xliff>`,
      po: big.map((k) => `msgid "${k}"\nmsgstr "v"\n`).join("\n"),
      android: `<resources>${big.map((k) => `<string name="${k}">v</string>`).join("")}</resources>`,
      strings: big.map((k) => `"${k}" = "v";`).join("\n"),
      stringsdict: `<plist version="1.0"><dict>${big.map((k) => `<key>${k}</key><dict><key>NSStringLocalizedFormatKey</key><string>v</string></dict>`).join("")}</dict></plist>`,
      xcstrings: JSON.stringify({ sourceLanguage: "en", strings: Object.fromEntries(big.map((k) => [k, {}])) }),
    };
    expect(Object.keys(files).sort()).toEqual([...FORMAT_NAMES].sort());
    for (const format of FORMATS) expect((await outcome(format, files[format.name]!)).status, format.name).toBe(413);
  }, 60_000);
});
