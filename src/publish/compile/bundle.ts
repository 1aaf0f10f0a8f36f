import type { BundleFormat } from "../../cdn/urls.ts";
import type { Snapshot, SnapshotLanguage } from "../snapshot.ts";
import { arbDocument, arbHeader, arbLines } from "./arb.ts";
import { jsonDocument, jsonLine } from "./json.ts";
import { yamlDocument, yamlLine, yamlScalar } from "./yaml.ts";

/** Each key's quoted forms, made once per publish and shared by every language. */
interface KeyForms {
  json: string[];
  yaml: string[];
  arbName: string[];
  context: (string | null)[];
}

const formsBySnapshot = new WeakMap<Snapshot, KeyForms>();

function keyForms(snapshot: Snapshot, names: ReadonlyMap<string, string>): KeyForms {
  let forms = formsBySnapshot.get(snapshot);
  if (!forms) {
    forms = { json: [], yaml: [], arbName: [], context: [] };
    for (const key of snapshot.keys) {
      const json = JSON.stringify(key);
      const name = names.get(key);
      if (name === undefined) throw new Error(`no ARB name for key ${json}`);
      forms.json.push(json);
      forms.yaml.push(yamlScalar(key, json));
      forms.arbName.push(JSON.stringify(name));
      forms.context.push(snapshot.contexts.get(key) ?? null);
    }
    formsBySnapshot.set(snapshot, forms);
  }
  return forms;
}

/**
 * One language's three files with identical content (spec 2.6), built in one pass that quotes each
 * value once. Keys without a translation in the language are left out (CONTRACTS 3). `names` comes
 * from arbNames over the whole key set.
 */
export function compileLanguage(snapshot: Snapshot, names: ReadonlyMap<string, string>, lang: SnapshotLanguage): Record<BundleFormat, string> {
  const forms = keyForms(snapshot, names);
  const json: string[] = [];
  const yaml: string[] = [];
  const arb = [arbHeader(lang.code)];
  for (let i = 0; i < snapshot.keys.length; i++) {
    const value = lang.values[i];
    if (value === undefined) continue;
    const valueJson = JSON.stringify(value);
    json.push(jsonLine(forms.json[i]!, valueJson));
    yaml.push(yamlLine(forms.yaml[i]!, yamlScalar(value, valueJson)));
    arbLines(arb, forms.arbName[i]!, value, valueJson, forms.context[i]);
  }
  return { json: jsonDocument(json), yaml: yamlDocument(yaml), arb: arbDocument(arb) };
}
