/**
 * Where the keys a local file lacks go when `pull` writes into it (docs/automation.md "Pull keeps
 * the repository's shape"): each new key right after the key the source file has before it (the
 * nearest one before it that the written file holds), so a new string lands where a developer
 * would have put it; a key the source file does not hold follows the release's order instead.
 */
export interface Placement {
  /** New keys that go before every kept key, in order. */
  first: string[];
  /** New keys that go right after a kept key, in order. */
  after: Map<string, string[]>;
}

/**
 * `kept`: the keys the file keeps, in its order; `added`: the keys it gains; `orders`: the key
 * orders to place them by, the first that holds a key deciding (the source file's, then the
 * release's).
 */
export function placeNewKeys(kept: readonly string[], added: readonly string[], orders: readonly (readonly string[])[]): Placement {
  const present = new Set(kept);
  const waiting = new Set(added);
  const anchor = new Map<string, string | null>();
  for (const order of orders) {
    let previous: string | null = null;
    for (const key of order) {
      if (waiting.has(key)) {
        anchor.set(key, previous);
        waiting.delete(key);
        present.add(key);
      }
      if (present.has(key)) previous = key;
    }
  }
  for (const key of waiting) anchor.set(key, kept.at(-1) ?? null); // in no order: at the end
  // A key anchored to another new key goes out with it, after it.
  const chains = new Map<string | null, string[]>();
  for (const key of added) {
    const at = anchor.get(key) ?? null;
    let list = chains.get(at);
    if (!list) chains.set(at, (list = []));
    list.push(key);
  }
  // Depth first, without recursion: 100,000 new keys in a row are a chain that deep.
  const expand = (keys: readonly string[]): string[] => {
    const out: string[] = [];
    const stack = [...keys].reverse();
    while (stack.length > 0) {
      const key = stack.pop()!;
      out.push(key);
      const next = chains.get(key);
      if (next) for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
    }
    return out;
  };
  const after = new Map<string, string[]>();
  for (const key of kept) {
    const list = chains.get(key);
    if (list) after.set(key, expand(list));
  }
  return { first: expand(chains.get(null) ?? []), after };
}

/** The keys in `kept`'s order with the new ones placed: what a format that rebuilds its file writes. */
export function orderedKeys(kept: readonly string[], placement: Placement): string[] {
  return [...placement.first, ...kept.flatMap((k) => [k, ...(placement.after.get(k) ?? [])])];
}
