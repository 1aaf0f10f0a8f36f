/**
 * Pull keeps the repository's shape (docs/automation.md "Pull keeps the repository's shape",
 * docs/automation.md "String Catalogs"), format by format, in-process: the local file's order, indentation, final
 * newline, comments and metadata stay; only strings that differ change; a new key goes where the
 * source file has it; a key the release no longer has goes. The whole pull through the executable
 * is test/teams/.
 */
import { describe, expect, test } from "bun:test";
import { keepShape, type KeepInput } from "../../src/cli/client/keep/index.ts";
import { orderedKeys, placeNewKeys } from "../../src/cli/client/keep/order.ts";
import { readFile, type FormatName } from "../../src/formats/registry.ts";

async function strings(format: FormatName, text: string): Promise<Map<string, string>> {
  return new Map((await readFile(format, text)).languages[0]!.entries.map((e) => [e.key, e.value]));
}

async function keep(format: FormatName, local: string, fresh: string, order: string[] = [], extra: Partial<KeepInput> = {}): Promise<string | undefined> {
  return keepShape({ format, local, fresh, mine: await strings(format, local), theirs: await strings(format, fresh), orders: order.length ? [order] : [], ...extra });
}

describe("where new keys go", () => {
  test("after the key the source file has before them; a key the source lacks by the release's order", () => {
    const placement = placeNewKeys(["b", "d"], ["a", "c", "e", "z"], [["a", "b", "c", "d", "e"], ["a", "b", "c", "d", "e", "z"]]);
    expect(orderedKeys(["b", "d"], placement)).toEqual(["a", "b", "c", "d", "e", "z"]);
    // The local order wins over the source's for the keys the file has.
    expect(orderedKeys(["d", "b"], placeNewKeys(["d", "b"], ["c"], [["b", "c", "d"]]))).toEqual(["d", "b", "c"]);
  });

  test("100,000 new keys in a row are placed without deep recursion", () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `k${String(i).padStart(6, "0")}`);
    expect(orderedKeys([], placeNewKeys([], keys, [keys]))).toEqual(keys);
  });
});

describe("JSON", () => {
  const local = '{\n    "welcome": "Willkommen",\n    "cart.title": "Warenkorb",\n    "caf\\u00e9": "Caf\\u00e9",\n    "old": "Alt"\n}';
  const fresh = '{\n  "caf\\u00e9": "Café",\n  "cart.empty": "Leer",\n  "cart.title": "Einkaufswagen",\n  "welcome": "Willkommen"\n}\n';

  test("flat: order, four spaces, no final newline and escapes kept; one string changed, one new where the source has it, one gone", async () => {
    const out = await keep("json", local, fresh, ["welcome", "cart.title", "cart.empty", "café"]);
    expect(out).toBe('{\n    "welcome": "Willkommen",\n    "cart.title": "Einkaufswagen",\n    "cart.empty": "Leer",\n    "caf\\u00e9": "Caf\\u00e9"\n}');
  });

  test("a key the release does not have yet but the source does stays as it is, when asked", async () => {
    const mine = '{\n  "a": "A",\n  "fresh.key": "Neu"\n}\n';
    expect(await keep("json", mine, '{\n  "a": "A2"\n}\n', [], { keep: (k) => k === "fresh.key" })).toBe('{\n  "a": "A2",\n  "fresh.key": "Neu"\n}\n');
    expect(await keep("json", mine, '{\n  "a": "A2"\n}\n')).toBe('{\n  "a": "A2"\n}\n');
  });

  test("nested: the groups as the file has them; a new key joins its group", async () => {
    const nested = '{\n  "home": {\n    "title": "Start"\n  },\n  "cart": {\n    "title": "Korb"\n  }\n}\n';
    const out = await keep("json", nested, '{\n  "cart.empty": "Leer",\n  "cart.title": "Korb",\n  "home.title": "Start"\n}\n', ["home.title", "cart.title", "cart.empty"]);
    expect(out).toBe('{\n  "home": {\n    "title": "Start"\n  },\n  "cart": {\n    "title": "Korb",\n    "empty": "Leer"\n  }\n}\n');
  });

  test("keys are never object properties: __proto__ and integer-like keys keep their place", async () => {
    const out = await keep("json", '{\n  "b": "1",\n  "__proto__": "2",\n  "10": "3",\n  "2": "4"\n}\n', '{\n  "10": "3",\n  "2": "4",\n  "__proto__": "x",\n  "b": "1"\n}\n');
    expect(out).toBe('{\n  "b": "1",\n  "__proto__": "x",\n  "10": "3",\n  "2": "4"\n}\n');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe("ARB", () => {
  const fresh = JSON.stringify({ "@@locale": "de", greeting: "Hallo", "@greeting": { description: "Greets" }, title: "Titel", "@title": { description: "The title" } }, null, 2) + "\n";

  test("a translation without @key entries gets none; its @@locale stays", async () => {
    const out = await keep("arb", '{\n  "@@locale": "de",\n  "greeting": "Hallo"\n}\n', fresh, ["greeting", "title"]);
    expect(out).toBe('{\n  "@@locale": "de",\n  "greeting": "Hallo",\n  "title": "Titel"\n}\n');
  });

  test("one with @key entries keeps its own and gets the new message's, after the entry before it", async () => {
    const local = '{\n  "greeting": "Hallo!",\n  "@greeting": {\n    "description": "mine"\n  }\n}\n';
    const out = await keep("arb", local, fresh, ["greeting", "title"]);
    expect(out).toBe('{\n  "greeting": "Hallo",\n  "@greeting": {\n    "description": "mine"\n  },\n  "title": "Titel",\n  "@title": {\n    "description": "The title"\n  }\n}\n');
  });
});

describe("Android strings.xml", () => {
  const fresh = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">',
    "    <!-- Shown on the home screen -->",
    '    <string name="greeting">Hallo</string>',
    "    <!-- Items in the cart -->",
    '    <plurals name="items">',
    '        <item quantity="one">%d Artikel</item>',
    '        <item quantity="other">%d Artikel!</item>',
    "    </plurals>",
    '    <string name="title">Titel</string>',
    "</resources>",
    "",
  ].join("\n");

  test("a translation without comments gets none; two-space indent, its header and unchanged entries byte for byte", async () => {
    const local = '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n  <string name="title">Titel</string>\n  <plurals name="items">\n    <item quantity="one">%d Artikel</item>\n    <item quantity="other">%d Artikel</item>\n  </plurals>\n</resources>';
    const out = await keep("android", local, fresh, ["greeting", "items", "title"]);
    expect(out).toBe(
      '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n  <string name="greeting">Hallo</string>\n  <string name="title">Titel</string>\n  <plurals name="items">\n    <item quantity="one">%d Artikel</item>\n    <item quantity="other">%d Artikel!</item>\n  </plurals>\n</resources>',
    );
  });

  test("one with comments gets the new key's comment; its own comments stay", async () => {
    const local = '<resources>\n    <!-- mine -->\n    <string name="title">Titel</string>\n</resources>\n';
    const out = await keep("android", local, fresh, ["greeting", "title", "items"]);
    expect(out).toBe(
      '<resources>\n    <!-- Shown on the home screen -->\n    <string name="greeting">Hallo</string>\n    <!-- mine -->\n    <string name="title">Titel</string>\n    <!-- Items in the cart -->\n    <plurals name="items">\n        <item quantity="one">%d Artikel</item>\n        <item quantity="other">%d Artikel!</item>\n    </plurals>\n</resources>\n',
    );
  });
});

describe("Apple", () => {
  test(".strings: no blank lines added, comments only where the file has them", async () => {
    const local = '"title" = "Titel";\n"greeting" = "Hallo";\n';
    const fresh = '/* Home */\n"greeting" = "Hallo!";\n\n/* Title */\n"new" = "Neu";\n\n"title" = "Titel";\n';
    expect(await keep("strings", local, fresh, ["title", "new", "greeting"])).toBe('"title" = "Titel";\n"new" = "Neu";\n"greeting" = "Hallo!";\n');
  });

  test(".stringsdict: an unchanged plural stays byte for byte, a changed one is the release's", async () => {
    const head = '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n';
    const entry = (key: string, other: string) =>
      `\t<key>${key}</key>\n\t<dict>\n\t\t<key>NSStringLocalizedFormatKey</key>\n\t\t<string>%#@n@</string>\n\t\t<key>n</key>\n\t\t<dict>\n\t\t\t<key>NSStringFormatSpecTypeKey</key>\n\t\t\t<string>NSStringPluralRuleType</string>\n\t\t\t<key>NSStringFormatValueTypeKey</key>\n\t\t\t<string>d</string>\n\t\t\t<key>one</key>\n\t\t\t<string>%d eins</string>\n\t\t\t<key>other</key>\n\t\t\t<string>${other}</string>\n\t\t</dict>\n\t</dict>\n`;
    const local = `${head}${entry("b", "%d b")}${entry("a", "%d a")}</dict>\n</plist>\n`;
    const fresh = `${head}${entry("a", "%d A")}${entry("b", "%d b")}</dict>\n</plist>\n`;
    expect(await keep("stringsdict", local, fresh)).toBe(`${head}${entry("b", "%d b")}${entry("a", "%d A")}</dict>\n</plist>\n`);
  });

  test("a String Catalog keeps extractionState, version and key order; the language pulled is set, the source's untouched", async () => {
    const local = '{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "zeta" : {\n      "extractionState" : "extracted_with_value",\n      "localizations" : {\n        "en" : {\n          "stringUnit" : {\n            "state" : "translated",\n            "value" : "Zeta"\n          }\n        }\n      }\n    },\n    "alpha" : {\n\n    }\n  },\n  "version" : "1.1"\n}\n';
    const fresh = '{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "alpha" : {\n      "extractionState" : "manual",\n      "localizations" : {\n        "de" : {\n          "stringUnit" : {\n            "state" : "translated",\n            "value" : "Alpha!"\n          }\n        }\n      }\n    },\n    "zeta" : {\n      "extractionState" : "manual",\n      "localizations" : {\n        "de" : {\n          "stringUnit" : {\n            "state" : "translated",\n            "value" : "Zeta\\/DE"\n          }\n        },\n        "en" : {\n          "stringUnit" : {\n            "state" : "translated",\n            "value" : "Zeta changed"\n          }\n        }\n      }\n    },\n    "new" : {\n      "localizations" : {}\n    }\n  },\n  "version" : "1.0"\n}\n';
    const out = await keepShape({ format: "xcstrings", local, fresh, mine: new Map(), theirs: new Map(), orders: [], catalog: { codes: ["de"], addKeys: false, same: () => false } });
    const doc = JSON.parse(out!);
    expect(Object.keys(doc.strings)).toEqual(["zeta", "alpha"]);
    expect(doc.version).toBe("1.1");
    expect(doc.strings.zeta.extractionState).toBe("extracted_with_value");
    expect(doc.strings.zeta.localizations.en.stringUnit.value).toBe("Zeta");
    expect(Object.keys(doc.strings.zeta.localizations)).toEqual(["de", "en"]);
    expect(doc.strings.zeta.localizations.de.stringUnit.value).toBe("Zeta/DE");
    expect(doc.strings.alpha.localizations.de.stringUnit.value).toBe("Alpha!");
    expect(out).toContain('"value" : "Zeta\\/DE"'); // Xcode's escape, as the release's file writes it
    expect(out).toContain('"sourceLanguage" : "en"');
  });
});

describe("YAML", () => {
  test("nested, with comments: set in place, a new key in its group", async () => {
    const local = "# the shop\nhome:\n    title: Start   # shown first\ncart:\n    title: Korb\n";
    const out = await keep("yaml", local, "cart.empty: Leer\ncart.title: Warenkorb\nhome.title: Start\n", ["home.title", "cart.title", "cart.empty"]);
    expect(out).toBe("# the shop\nhome:\n    title: Start # shown first\ncart:\n    title: Warenkorb\n    empty: Leer\n");
  });
});
