import type { BundleFormat } from "../../cdn/urls.ts";
import type { Snapshot, SnapshotLanguage } from "../snapshot.ts";
import { compileArb } from "./arb.ts";
import { compileJson } from "./json.ts";
import { compileYaml } from "./yaml.ts";

/**
 * One language's three files with identical content (spec 2.6). Keys without a translation in
 * the language are left out (CONTRACTS 3). `names` comes from arbNames over the whole key set.
 */
export function compileLanguage(snapshot: Snapshot, names: ReadonlyMap<string, string>, lang: SnapshotLanguage): Record<BundleFormat, string> {
  const entries: [string, string][] = [];
  for (let i = 0; i < snapshot.keys.length; i++) {
    const value = lang.values[i];
    if (value !== undefined) entries.push([snapshot.keys[i]!, value]);
  }
  return {
    json: compileJson(entries),
    yaml: compileYaml(entries),
    arb: compileArb(lang.code, entries, names, snapshot.contexts),
  };
}
