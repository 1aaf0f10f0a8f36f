/**
 * Substring search over one project's release names and tags (docs/interface.md §4.2 `search`),
 * fast enough to answer a new search on 10,000 releases without scanning them all (a cache miss has
 * a goal too, docs/public-api.md "Speed").
 *
 * An n-gram index: for every release, every 1-, 2- and 3-character piece of its folded
 * "name<NUL>tag" lists that release. A needle of up to 3 characters is answered by its own list
 * exactly; a longer one takes the shortest list among its 3-character pieces as candidates and
 * checks each with one `includes`. Pieces that span the NUL never match a needle without one.
 * Built on the first search after a change, not on every rebuild.
 */

/** Longest piece indexed; needles longer than this are verified against the candidates. */
export const GRAM = 3;

const SEPARATOR = "\u0000"; // authoring refuses control characters in names and tags

export class SearchIndex {
  private readonly postings = new Map<string, number[]>();
  private readonly texts: string[];

  constructor(
    private readonly names: string[],
    private readonly tags: string[],
  ) {
    // join builds flat strings; a concatenation would stay a rope that every includes() walks again.
    this.texts = names.map((name, i) => [name, tags[i]].join(SEPARATOR));
    for (let i = 0; i < this.texts.length; i++) this.add(this.texts[i]!, i);
  }

  /** Releases whose folded name or tag contains the folded, non-empty needle, ascending. */
  find(needle: string): Int32Array {
    if (needle.includes(SEPARATOR)) return this.scan(needle); // cannot occur in real data; stay exact
    if (needle.length <= GRAM) return Int32Array.from(this.postings.get(needle) ?? []);
    let candidates: number[] | undefined;
    for (let at = 0; at + GRAM <= needle.length; at++) {
      const list = this.postings.get(needle.slice(at, at + GRAM));
      if (!list) return new Int32Array(0);
      if (!candidates || list.length < candidates.length) candidates = list;
    }
    const out: number[] = [];
    for (const i of candidates!) if (this.texts[i]!.includes(needle)) out.push(i);
    return Int32Array.from(out);
  }

  private scan(needle: string): Int32Array {
    const out: number[] = [];
    for (let i = 0; i < this.names.length; i++) if (this.names[i]!.includes(needle) || this.tags[i]!.includes(needle)) out.push(i);
    return Int32Array.from(out);
  }

  private add(text: string, i: number): void {
    for (let at = 0; at < text.length; at++) {
      for (let len = 1; len <= GRAM && at + len <= text.length; len++) {
        const gram = text.slice(at, at + len);
        const list = this.postings.get(gram);
        // Releases are added in index order, so a repeat of this release can only be the last entry.
        if (!list) this.postings.set(gram, [i]);
        else if (list[list.length - 1] !== i) list.push(i);
      }
    }
  }
}
