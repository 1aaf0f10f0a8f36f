import type { Document, Pair, Scalar, YAMLMap } from "yaml";
import type { MergeOptions } from "./json.ts";
import { placeNewKeys } from "./order.ts";

/**
 * A YAML file as `pull` rewrites a team's own (docs/automation.md "Pull keeps the repository's
 * shape"): read as a document (comments, blank lines, nesting and each scalar's quoting kept by
 * the `yaml` library), the strings that differ set in place, keys the release no longer has
 * taken out, new ones added where the source file has them, and written with the file's
 * indentation and no line folding. Anchors and aliases, flow collections and keys that are not
 * strings make it write the release's file as it is (undefined).
 */
interface Leaf {
  map: YAMLMap;
  pair: Pair<Scalar, Scalar>;
}

type Yaml = typeof import("yaml");

function leavesOf(y: Yaml, map: YAMLMap, prefix: string, out: Map<string, Leaf>, groups: Map<string, YAMLMap>): boolean {
  if (map.flow) return false;
  for (const pair of map.items) {
    if (!y.isScalar(pair.key) || typeof pair.key.value !== "string") return false;
    const key = prefix ? `${prefix}.${pair.key.value}` : pair.key.value;
    if (y.isMap(pair.value)) {
      groups.set(key, pair.value);
      if (!leavesOf(y, pair.value, key, out, groups)) return false;
    } else if (y.isScalar(pair.value) && typeof pair.value.value === "string") out.set(key, { map, pair: pair as Pair<Scalar, Scalar> });
    else return false;
  }
  return true;
}

export async function keepYamlShape(localText: string, given: ReadonlyMap<string, string>, { orders, only = () => true, keep = () => false }: MergeOptions): Promise<string | undefined> {
  const want = new Map([...given].filter(([k]) => only(k)));
  const y = await import("yaml");
  const doc: Document = y.parseDocument(localText, { schema: "failsafe" });
  if (doc.errors.length > 0 || !y.isMap(doc.contents) || /(^|[\s[{,])[&*][^\s]/m.test(localText)) return undefined;
  const have = new Map<string, Leaf>();
  const groups = new Map<string, YAMLMap>([["", doc.contents]]);
  if (!leavesOf(y, doc.contents, "", have, groups)) return undefined;
  const nested = groups.size > 1;
  for (const [key, leaf] of have) {
    const value = want.get(key);
    if (value === undefined && keep(key)) continue;
    if (value === undefined) leaf.map.items.splice(leaf.map.items.indexOf(leaf.pair), 1);
    else if (leaf.pair.value!.value !== value) {
      leaf.pair.value!.value = value;
      if (value.includes("\n") || value !== value.trim()) leaf.pair.value!.type = "QUOTE_DOUBLE";
    }
  }
  const kept = [...have.keys()].filter((k) => want.has(k) || keep(k));
  const added = [...want.keys()].filter((k) => !have.has(k));
  const placement = placeNewKeys(kept, added, [...orders, [...want.keys()]]);
  const place = (key: string, after: string | undefined) => {
    const parts = nested ? key.split(".") : [key];
    let map = doc.contents as YAMLMap;
    for (let i = 0; i < parts.length - 1; i++) {
      const path = parts.slice(0, i + 1).join(".");
      let group = groups.get(path);
      if (!group) {
        group = new y.YAMLMap();
        map.items.push(new y.Pair(new y.Scalar(parts[i]!), group));
        groups.set(path, group);
      }
      map = group;
    }
    const pair = new y.Pair(new y.Scalar(parts.at(-1)!), new y.Scalar(want.get(key)!));
    const at = after === undefined ? -1 : map.items.findIndex((p) => p === have.get(after)?.pair || (y.isScalar(p.key) && p.key.value === after.split(".").at(-1)));
    map.items.splice(at < 0 ? (after === undefined ? 0 : map.items.length) : at + 1, 0, pair);
  };
  [...placement.first].reverse().forEach((k) => place(k, undefined));
  for (const [anchor, keys] of placement.after) {
    let previous = anchor;
    for (const k of keys) {
      place(k, previous);
      previous = k;
    }
  }
  const indent = /\n( +)\S/.exec(localText)?.[1]?.length ?? 2;
  const text = doc.toString({ indent, lineWidth: 0, minContentWidth: 0 });
  return /\n$/.test(localText) ? text : text.replace(/\n$/, "");
}
