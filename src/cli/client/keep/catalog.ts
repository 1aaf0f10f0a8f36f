import { isObject, readTree, styleOf, writeTree, type JsonEntry, type JsonObject } from "./json-tree.ts";

/**
 * A String Catalog (`.xcstrings`) as `pull` writes the release's translations into it
 * (docs/automation.md "String Catalogs"): the catalog's own text, with each pulled language's
 * localization of each string set from the release where it differs. What Xcode keeps there and
 * Phrasebook does not store stays as it is: `version`, `sourceLanguage`, each string's
 * `extractionState` and `comment`, the source language's localizations, the order of the keys.
 * A new localization goes in code order, as Xcode sorts them.
 */
export interface CatalogPull {
  /** The languages pulled into the catalog (never its source language). */
  codes: readonly string[];
  /** Whether the catalog's localization of `key` in `code` holds the release's string. */
  same(key: string, code: string): boolean;
  /** Strings the catalog lacks are added (a catalog pulled to a path of its own), or not (the catalog is the source). */
  addKeys: boolean;
}

const field = (o: JsonObject, key: string) => o.entries.find((e) => e.key === key);
const objectAt = (o: JsonObject | undefined, key: string) => {
  const v = o && field(o, key)?.value;
  return v && isObject(v) ? v : undefined;
};

/** Puts `entry` among `o`'s entries before the first whose key sorts after it (or replaces its namesake). */
function putSorted(o: JsonObject, entry: JsonEntry): void {
  const same = o.entries.findIndex((e) => e.key === entry.key);
  if (same >= 0) {
    o.entries[same] = entry;
    return;
  }
  const after = o.entries.findIndex((e) => e.key > entry.key);
  o.entries.splice(after < 0 ? o.entries.length : after, 0, entry);
}

function pullString(mine: JsonObject, theirs: JsonObject, key: string, options: CatalogPull): void {
  const fresh = objectAt(theirs, "localizations") ?? { entries: [] };
  let locs = objectAt(mine, "localizations");
  for (const code of options.codes) {
    const value = field(fresh, code);
    const have = locs && field(locs, code);
    if (!value) {
      // The release has the string but not in this language (the caller refused to drop a translation unless asked).
      if (locs && have) locs.entries.splice(locs.entries.indexOf(have), 1);
      continue;
    }
    if (have && options.same(key, code)) continue;
    if (!locs) {
      locs = { entries: [] };
      putSorted(mine, { key: "localizations", keyText: '"localizations"', value: locs });
    }
    putSorted(locs, value);
  }
}

export async function keepCatalogShape(localText: string, freshText: string, options: CatalogPull): Promise<string | undefined> {
  const [local, fresh] = [readTree(localText), readTree(freshText)];
  const mine = objectAt(local, "strings");
  const theirs = objectAt(fresh, "strings");
  if (!local || !mine || !theirs) return undefined;
  const index = new Map(mine.entries.map((e) => [e.key, e]));
  for (const entry of theirs.entries) {
    const have = index.get(entry.key);
    // Xcode writes a string it has nothing for as `{ }`: an object to fill like any other.
    const empty = have && !isObject(have.value) && /^\{\s*\}$/.test(have.value.text) ? have.value : undefined;
    if (have && empty) have.value = { entries: [] };
    if (have && isObject(have.value) && isObject(entry.value)) pullString(have.value, entry.value, entry.key, options);
    else if (!have && options.addKeys) putSorted(mine, entry);
    if (have && empty && isObject(have.value) && have.value.entries.length === 0) have.value = empty;
  }
  return writeTree(local, styleOf(localText));
}
