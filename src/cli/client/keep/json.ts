import { isObject, readTree, styleOf, writeTree, type JsonEntry, type JsonObject, type JsonText } from "./json-tree.ts";
import { orderedKeys, placeNewKeys } from "./order.ts";

/**
 * JSON and ARB files as `pull` rewrites a team's own (docs/automation.md "Pull keeps the
 * repository's shape"): the local file's key order, nesting, indentation, `:` spacing, final
 * newline and every string it keeps as written; only strings that differ change, keys the release
 * no longer has go, and new keys go where the source file has them.
 */

/** How a file is merged (./index.ts): where new keys go, which keys it is to hold, which it keeps as they are. */
export interface MergeOptions {
  /** Key orders new keys are placed by (the source file's). */
  orders: readonly (readonly string[])[];
  /** The keys the file is to hold: its set's source's (docs/automation.md "Pull keeps the repository's shape"). */
  only?: (key: string) => boolean;
  /** Keys the release does not have yet but the source does: the file's entries of them stay as they are. */
  keep?: (key: string) => boolean;
}

/** Whether a string value written two ways is the same string. */
function sameString(a: JsonText, b: JsonText): boolean {
  if (a.text === b.text) return true;
  try {
    return JSON.parse(a.text) === JSON.parse(b.text);
  } catch {
    return false;
  }
}

type Part = Pick<JsonEntry, "key" | "keyText">;

interface Leaf {
  /** The groups above the string, from the top (shared by the leaves of a group), and its own key, as the file writes them. */
  groups: readonly Part[];
  own: Part;
  text: JsonText;
}

const pathOf = (leaf: Leaf) => [...leaf.groups, leaf.own];

function leaves(tree: JsonObject, into: Map<string, Leaf> = new Map(), groups: readonly Part[] = [], prefix = ""): Map<string, Leaf> {
  for (const entry of tree.entries) {
    const key = prefix + entry.key;
    if (isObject(entry.value)) leaves(entry.value, into, [...groups, entry], `${key}.`);
    else into.set(key, { groups, own: entry, text: entry.value });
  }
  return into;
}

/** Puts each leaf at its path, making the groups on the way in the order they first appear. */
function grow(list: readonly Leaf[]): JsonObject {
  const root: JsonObject = { entries: [] };
  const groups = new Map<JsonObject, Map<string, JsonEntry>>();
  const child = (parent: JsonObject) => {
    let index = groups.get(parent);
    if (!index) groups.set(parent, (index = new Map()));
    return index;
  };
  for (const leaf of list) {
    let node = root;
    let path = pathOf(leaf);
    for (let i = 0; i < path.length - 1; i++) {
      const index = child(node);
      const existing = index.get(path[i]!.key);
      if (existing && !isObject(existing.value)) {
        // A string where a group would go (`a` and `a.b`): this key stays whole at the top.
        const whole = path.map((p) => p.key).join(".");
        node = root;
        path = [{ key: whole, keyText: JSON.stringify(whole) }];
        break;
      }
      if (existing) node = existing.value as JsonObject;
      else {
        const group: JsonEntry = { key: path[i]!.key, keyText: path[i]!.keyText, value: { entries: [] } };
        node.entries.push(group);
        index.set(group.key, group);
        node = group.value as JsonObject;
      }
    }
    const last = path.at(-1)!;
    const entry: JsonEntry = { key: last.key, keyText: last.keyText, value: leaf.text };
    node.entries.push(entry);
    child(node).set(last.key, entry);
  }
  return root;
}

/**
 * A JSON translation file (flat or nested) with the release's strings in the local file's shape;
 * undefined when either is no JSON object (the caller then writes the release's file as is).
 */
export async function keepJsonShape(localText: string, freshText: string, { orders, only = () => true, keep = () => false }: MergeOptions): Promise<string | undefined> {
  const [local, fresh] = [readTree(localText), readTree(freshText)];
  if (!local || !fresh) return undefined;
  const have = leaves(local);
  const want = new Map([...leaves(fresh)].filter(([k]) => only(k)));
  const nested = local.entries.length > 0 ? local.entries.some((e) => isObject(e.value)) : fresh.entries.some((e) => isObject(e.value));
  const kept = [...have.keys()].filter((k) => want.has(k) || keep(k));
  const added = [...want.keys()].filter((k) => !have.has(k));
  const placement = placeNewKeys(kept, added, [...orders, [...want.keys()]]);
  const list = orderedKeys(kept, placement).map((key): Leaf => {
    const mine = have.get(key);
    const theirs = want.get(key);
    if (mine) return { groups: mine.groups, own: mine.own, text: !theirs || sameString(mine.text, theirs.text) ? mine.text : theirs.text };
    if (!theirs) throw new Error(`keepJsonShape: ${key} placed from nowhere`);
    const parts = (nested ? key.split(".") : [key]).map((p) => ({ key: p, keyText: JSON.stringify(p) }));
    return { groups: parts.slice(0, -1), own: parts.at(-1)!, text: theirs.text };
  });
  // A flat file is its list; only a nested one is grown into groups.
  const tree = nested ? grow(list) : { entries: list.map((l) => ({ key: l.own.key, keyText: l.own.keyText, value: l.text })) };
  return writeTree(tree, styleOf(localText));
}

const isMessage = (key: string) => !key.startsWith("@");

/**
 * An ARB file with the release's messages in the local file's shape: its order, its `@@`
 * attributes and the `@key` entries it has, as they are. A new message gets its `@key` entry only
 * when the file has such entries (a translation ARB without them gets none, docs/automation.md "Pull keeps the repository's shape").
 */
export async function keepArbShape(localText: string, freshText: string, { orders, only = () => true, keep = () => false }: MergeOptions): Promise<string | undefined> {
  const [local, fresh] = [readTree(localText), readTree(freshText)];
  if (!local || !fresh) return undefined;
  fresh.entries = fresh.entries.filter((e) => e.key.startsWith("@@") || only(e.key.startsWith("@") ? e.key.slice(1) : e.key));
  const theirs = new Map(fresh.entries.map((e) => [e.key, e]));
  const withMetadata = local.entries.some((e) => e.key.startsWith("@") && !e.key.startsWith("@@"));
  const mine = new Set(local.entries.filter((e) => isMessage(e.key)).map((e) => e.key));
  const kept = [...mine].filter((k) => theirs.has(k) || keep(k));
  const added = fresh.entries.map((e) => e.key).filter((k) => isMessage(k) && !mine.has(k));
  const placement = placeNewKeys(kept, added, [...orders, fresh.entries.map((e) => e.key)]);
  const newEntries = (keys: readonly string[]) =>
    keys.flatMap((k) => {
      const meta = withMetadata ? theirs.get(`@${k}`) : undefined;
      return meta ? [theirs.get(k)!, meta] : [theirs.get(k)!];
    });
  const out: JsonEntry[] = [...newEntries(placement.first)];
  local.entries.forEach((entry, i) => {
    const message = isMessage(entry.key);
    if (message && !theirs.has(entry.key) && !keep(entry.key)) return; // the release no longer has it
    if (!message && !entry.key.startsWith("@@") && mine.has(entry.key.slice(1)) && !theirs.has(entry.key.slice(1)) && !keep(entry.key.slice(1))) return; // its message went
    const fresher = message ? theirs.get(entry.key)?.value : undefined;
    out.push(fresher && !isObject(fresher) && !isObject(entry.value) && !sameString(entry.value, fresher) ? { ...entry, value: fresher } : entry);
    // New messages go after this one's `@key` entry when that comes right after it.
    const anchor = message ? entry.key : mine.has(entry.key.slice(1)) && local.entries[i - 1]?.key === entry.key.slice(1) ? entry.key.slice(1) : undefined;
    const next = local.entries[i + 1]?.key;
    if (anchor !== undefined && !(message && next === `@${anchor}`)) out.push(...newEntries(placement.after.get(anchor) ?? []));
  });
  return writeTree({ entries: out }, styleOf(localText));
}
