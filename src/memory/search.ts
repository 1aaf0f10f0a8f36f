import { ANY_NAME } from "./placeholders.ts";
import type { MemoryQueries } from "./queries.ts";

/**
 * Finding the stored strings that may resemble a base string (docs/translators.md "Translation
 * memory"; the choice and its figures: bench/RESULTS.md "Translation memory"). The index
 * (`memory_search`) holds every source string's trigrams, the string between STX and ETX.
 *
 * 1. The string's trigrams are taken rarest first, and first those that do not overlap one
 *    another: an edit changes at most one of a set of trigrams that do not overlap, so a string
 *    within a quarter of this one's length in edits keeps most of them, wherever the edits fall.
 * 2. Their postings are read until POSTINGS_BUDGET is spent; a trigram held by more than
 *    COMMON_POSTINGS strings is never read (it tells too little for what it costs).
 * 3. The strings holding the most of them are the candidates, at most CANDIDATES_MAX, which the
 *    caller then scores exactly (reading only their text first, the rest for those that score).
 *
 * The trigrams are those of the string as it is compared (score.ts `comparable`): a placeholder's
 * name is one private-use character there, so its trigrams are in no stored string and are never
 * read (`Hello {name}` finds `Hello {user}` by the rest).
 *
 * How many strings hold a trigram is remembered (RARITY_MEMO_MAX of them), so each is counted
 * once; a count is corrected whenever its postings are read. A long string's trigrams are taken
 * evenly along it, TRIGRAMS_CONSIDERED_MAX of them (the caller looks up strings of at most 2,000
 * code points).
 */
export const POSTINGS_BUDGET = 40_000;
export const COMMON_POSTINGS = 20_000;
export const CANDIDATES_MAX = 1000;
/** Trigrams of one string looked at, at most: a long string's are taken evenly along it. */
export const TRIGRAMS_CONSIDERED_MAX = 96;
const RARITY_MEMO_MAX = 200_000;

const START = "\u0002";
const END = "\u0003";

interface Gram {
  gram: string;
  positions: number[];
  rarity: number;
}

/** The trigrams of `text` between STX and ETX, letter case folded as the index folds it, with where each starts. */
export function trigramsOf(text: string): Map<string, number[]> {
  const chars = [...(START + text.toLowerCase() + END)];
  const out = new Map<string, number[]>();
  for (let i = 0; i + 3 <= chars.length; i++) {
    const gram = chars[i]! + chars[i + 1]! + chars[i + 2]!;
    const at = out.get(gram);
    if (at) at.push(i);
    else out.set(gram, [i]);
  }
  return out;
}

const phrase = (gram: string) => `"${gram.replace(/"/g, '""')}"`;

/** The rarest trigrams first, those that overlap none taken before them ahead of the rest. */
export function readingOrder(grams: Gram[]): Gram[] {
  const sorted = [...grams].sort((a, b) => a.rarity - b.rarity);
  const taken = new Set<number>();
  const spread: Gram[] = [];
  const rest: Gram[] = [];
  for (const g of sorted) {
    const overlaps = g.positions.some((p) => taken.has(p - 2) || taken.has(p - 1) || taken.has(p) || taken.has(p + 1) || taken.has(p + 2));
    if (overlaps) rest.push(g);
    else {
      spread.push(g);
      for (const p of g.positions) taken.add(p);
    }
  }
  return [...spread, ...rest];
}

/**
 * How many of the read trigrams each string holds, for one lookup at a time: a byte per index id
 * (at most TRIGRAMS_CONSIDERED_MAX trigrams are read), kept between lookups and cleared by the ids
 * it touched. A Map cost about 100 ns a posting; this costs a few.
 */
class SharedCounts {
  private positive = new Uint8Array(1 << 16);
  private negative = new Uint8Array(1 << 10);
  private readonly touched: number[] = [];

  private static grown(array: Uint8Array<ArrayBuffer>, index: number): Uint8Array<ArrayBuffer> {
    let size = array.length;
    while (size <= index) size *= 2;
    const out = new Uint8Array(size);
    out.set(array);
    return out;
  }

  add(id: number): void {
    if (id > 0) {
      if (id >= this.positive.length) this.positive = SharedCounts.grown(this.positive, id);
      if (this.positive[id]++ === 0) this.touched.push(id);
    } else {
      const i = -id;
      if (i >= this.negative.length) this.negative = SharedCounts.grown(this.negative, i);
      if (this.negative[i]++ === 0) this.touched.push(id);
    }
  }

  /** The `limit` ids holding the most, most first (ties in the order first seen), and clears every count. */
  top(limit: number): number[] {
    const buckets: number[][] = [];
    for (const id of this.touched) {
      const n = id > 0 ? this.positive[id]! : this.negative[-id]!;
      (buckets[n] ??= []).push(id);
      if (id > 0) this.positive[id] = 0;
      else this.negative[-id] = 0;
    }
    this.touched.length = 0;
    const out: number[] = [];
    for (let n = buckets.length - 1; n > 0 && out.length < limit; n--) {
      for (const id of buckets[n] ?? []) {
        out.push(id);
        if (out.length === limit) break;
      }
    }
    return out;
  }
}

export class MemoryIndex {
  private readonly rarity = new Map<string, number>();
  private readonly shared = new SharedCounts();

  constructor(private readonly q: MemoryQueries) {}

  private rarityOf(gram: string): number {
    let n = this.rarity.get(gram);
    if (n === undefined) {
      n = this.q.cappedCount.get(phrase(gram), COMMON_POSTINGS + 1)!.n;
      if (this.rarity.size >= RARITY_MEMO_MAX) this.rarity.clear();
      // A trigram no string holds yet is asked again next time: remembered as none, the strings
      // indexed later with it would never be read through it.
      if (n > 0) this.rarity.set(gram, n);
    }
    return n;
  }

  /** Index ids of the strings most like `text`, most shared trigrams first. `work` counts the postings read. */
  candidates(text: string, work?: { postings: number }, max = CANDIDATES_MAX): number[] {
    const grams: Gram[] = [];
    let all = [...trigramsOf(text)];
    if (all.length > TRIGRAMS_CONSIDERED_MAX) {
      const step = all.length / TRIGRAMS_CONSIDERED_MAX;
      all = Array.from({ length: TRIGRAMS_CONSIDERED_MAX }, (_, i) => all[Math.floor(i * step)]!);
    }
    for (const [gram, positions] of all) {
      if (gram.includes(ANY_NAME)) continue; // a placeholder's name: in no stored string as such
      const rarity = this.rarityOf(gram);
      if (rarity > 0) grams.push({ gram, positions, rarity });
    }
    let spent = 0;
    let read = 0;
    for (const g of readingOrder(grams)) {
      if (g.rarity > COMMON_POSTINGS) continue;
      // Past the budget only what is certain to fit; the first two are read whatever they cost.
      if (read >= 2 && spent + g.rarity > POSTINGS_BUDGET) continue;
      const rows = this.q.postings.values(phrase(g.gram));
      if (rows.length > 0) this.rarity.set(g.gram, rows.length);
      else this.rarity.delete(g.gram);
      spent += rows.length;
      read++;
      for (const row of rows) this.shared.add(row[0] as number);
    }
    if (work) work.postings += spent;
    return this.shared.top(max);
  }
}
