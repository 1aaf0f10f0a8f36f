import type { BundleKeys, BundleLanguage, KeyTexts, LanguageTexts } from "./format.ts";

/**
 * The quoted forms `write` shares (docs/formats.md "Speed"): each key quoted once per key set, each
 * value once per language, whatever the number of formats written from them. Publishing writes
 * every language of a release from one key set, so the key forms are kept with it.
 */
const textsByKeySet = new WeakMap<BundleKeys, KeyTexts>();

export function keyTexts(keySet: BundleKeys): KeyTexts {
  let texts = textsByKeySet.get(keySet);
  if (!texts) {
    const json = new Array<string>(keySet.keys.length);
    const contextOf = new Array<string | null>(keySet.keys.length);
    const translatableOf = new Array<boolean>(keySet.keys.length);
    for (let i = 0; i < keySet.keys.length; i++) {
      const key = keySet.keys[i]!;
      json[i] = JSON.stringify(key);
      contextOf[i] = keySet.contexts.get(key) ?? null;
      translatableOf[i] = !keySet.notTranslatable?.has(key);
    }
    const owned = new Map<string, unknown>();
    texts = {
      ...keySet,
      json,
      contextOf,
      translatableOf,
      own<T>(format: string, build: () => T): T {
        if (!owned.has(format)) owned.set(format, build());
        return owned.get(format) as T;
      },
    };
    textsByKeySet.set(keySet, texts);
  }
  return texts;
}

export function languageTexts(lang: BundleLanguage): LanguageTexts {
  const json = new Array<string | undefined>(lang.values.length);
  for (let i = 0; i < lang.values.length; i++) {
    const value = lang.values[i];
    if (value !== undefined) json[i] = JSON.stringify(value);
  }
  return { ...lang, json };
}
