/** ARB message names (interface §2.6 ARB rules 1-3, product §3): derived from keys, valid, unique and the same in every language. */
import { describe, expect, test } from "bun:test";
import { compareCodePoints } from "../../src/common/text.ts";
import { arbNames, baseArbName, DART_RESERVED_WORDS } from "../../src/formats/arb-names.ts";
import { compileLanguage } from "../../src/formats/bundle.ts";
import type { BundleKeys, BundleLanguage } from "../../src/formats/format.ts";

const VALID_NAME = /^[a-z][a-zA-Z0-9]*$/;

/** Deterministic pseudo-random keys built to collide: separators, digits, reserved words, case. */
function generatedKeys(count: number, seed: number): string[] {
  let state = seed;
  const rand = (n: number) => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 8) % n;
  const parts = ["class", "for", "new", "1st", "2", "home", "Home", "HOME", "title", "a", "b", "é", "ß", "😀", "k", "kClass", "x9", "", "if", "true"];
  const seps = [".", "_", "-", " ", "/", ":", "..", "__", "€", "", "@"];
  const keys = new Set<string>();
  while (keys.size < count) {
    let key = "";
    const n = 1 + rand(4);
    for (let i = 0; i < n; i++) key += (i > 0 ? seps[rand(seps.length)] : rand(5) === 0 ? seps[rand(seps.length)] : "") + parts[rand(parts.length)];
    keys.add(key.length > 0 ? key : `k${keys.size}`);
  }
  return [...keys];
}

describe("ARB message names (interface §2.6 ARB rules, product §3)", () => {
  test("interface §2.6 ARB rule 1: separators are removed and the next word capitalised", () => {
    expect(baseArbName("hello.world")).toBe("helloWorld");
    expect(baseArbName("checkout_total-price")).toBe("checkoutTotalPrice");
    expect(baseArbName("Settings.Title")).toBe("settingsTitle");
    expect(baseArbName("a..b__c")).toBe("aBC");
    expect(baseArbName("caf\u00e9 menu/items")).toBe("cafMenuItems"); // product §3: anything outside [A-Za-z0-9] separates
  });

  test("interface §2.6 ARB rule 2: a leading digit or a Dart reserved word gets the prefix k", () => {
    expect(baseArbName("class")).toBe("kClass");
    expect(baseArbName("Class")).toBe("kClass");
    expect(baseArbName("1st.place")).toBe("k1stPlace");
    expect(baseArbName("404")).toBe("k404");
    expect(baseArbName("classes")).toBe("classes");
    expect(baseArbName("...")).toBe("k"); // product §3: an empty result becomes k
  });

  test("interface §2.6 ARB rule 3: a colliding name gets the smallest free numeric suffix, in code-point order of keys", () => {
    const names = arbNames(["hello_world", "hello.world", "hello-world", "helloWorld2"]);
    // Code-point order: hello-world, hello.world, helloWorld2, hello_world.
    expect(names.get("hello-world")).toBe("helloWorld");
    expect(names.get("hello.world")).toBe("helloWorld3"); // helloWorld2 belongs to the key that derives it
    expect(names.get("helloWorld2")).toBe("helloWorld2");
    expect(names.get("hello_world")).toBe("helloWorld4");
  });

  test("interface §2.6 ARB rule 3: numbering depends only on the key set, not on the order keys arrive in", () => {
    const keys = generatedKeys(500, 7);
    const a = arbNames(keys);
    const b = arbNames([...keys].reverse());
    expect(keys.filter((k) => b.get(k) !== a.get(k))).toEqual([]);
  });

  for (const seed of [1, 2, 3, 4, 5]) {
    test(`interface §2.6 ARB rules 1-3 property (seed ${seed}): 3000 generated keys get valid, unreserved, unique names`, () => {
      const keys = generatedKeys(3000, seed);
      const names = arbNames(keys);
      expect(names.size).toBe(keys.length);
      const all = keys.map((k) => names.get(k)!);
      expect(all.filter((n) => !VALID_NAME.test(n))).toEqual([]);
      expect(all.filter((n) => DART_RESERVED_WORDS.has(n))).toEqual([]);
      expect(new Set(all).size).toBe(keys.length);
    });
  }

  test("interface §2.6 ARB rules 3-4 property: in compiled files, a key has the same message name in every language, whatever keys a language lacks", () => {
    const keys = generatedKeys(1500, 11).sort(compareCodePoints);
    const keySet: BundleKeys = { keys, contexts: new Map(keys.map((k) => [k, null])) };
    // Each language lacks a different share of the keys.
    const languages: BundleLanguage[] = ["en", "de", "pt-BR"].map((code, li) => ({ code, values: keys.map((k, i) => (i % (li + 2) === 0 ? undefined : `${code}:${k}`)) }));
    const nameOfKey = new Map<string, string>();
    for (const lang of languages) {
      const arb = JSON.parse(compileLanguage(keySet, lang).arb) as Record<string, string>;
      for (const [name, value] of Object.entries(arb)) {
        if (name.startsWith("@")) continue;
        const key = value.slice(lang.code.length + 1);
        expect(name).toMatch(VALID_NAME);
        if (nameOfKey.has(key)) expect(nameOfKey.get(key)).toBe(name);
        nameOfKey.set(key, name);
      }
    }
    expect(nameOfKey.size).toBe(keys.filter((_, i) => i % 12 !== 0).length); // i % 12 === 0: in no language
  });
});
