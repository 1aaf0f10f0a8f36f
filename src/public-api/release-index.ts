import { iso } from "../common/clock.ts";
import type { ReleaseSummaryT } from "./model.ts";
import type { ListQuery, Order, SortKey } from "./query.ts";
import { SearchIndex } from "./search-index.ts";
import { compareCodePoints } from "../common/text.ts";
import { fold } from "./text.ts";
import type { PublishedRow } from "./queries.ts";

const UTF8 = new TextEncoder();
const LIST_HEAD = UTF8.encode('{"items":[');
const COMMA = 0x2c;

/** Distinct searches remembered per project, so paging through one search does not search again. */
export const SEARCH_MEMO_ENTRIES = 32;
/** Below size / this many matches, sorting them beats walking the whole permutation. */
const FEW_MATCHES_DIVISOR = 16;

type Ordering = "created_at" | "published_at" | "name" | "tag";

// docs/interface.md §4.2 rule 4: status is constant among published releases, so sort=status is
// the tie-break order alone, which is the created_at order.
const ORDERING_OF: Record<SortKey, Ordering> = { created_at: "created_at", status: "created_at", published_at: "published_at", name: "name", tag: "tag" };

/**
 * Every summary in one ordering and direction, comma-separated, and the byte at which the k-th
 * begins (`starts[size]` is one past the end, where a comma would follow): a page without a search
 * is then one slice of bytes, copied once, instead of a copy per release.
 */
interface Run {
  bytes: Uint8Array;
  starts: Int32Array;
}

interface SearchResult {
  /** Matching releases by index, ascending. */
  matches: Int32Array;
  ordered: Partial<Record<Ordering, Int32Array>>;
}

/**
 * Every published release of one project, held in memory and rebuilt after any change to the
 * project (docs/product.md §2: the caches are dropped on change). Each ordering is a precomputed
 * permutation, so any page of any sort is a slice: no OFFSET scan, whatever the page (a deep page
 * costs what the first one does, docs/public-api.md "Speed"). Orders are total (ties break by
 * created_at, then by creation order), so `desc` is exactly `asc` reversed and pages never overlap
 * or skip an item. Without a search, a page is one slice of bytes of a run of every summary in its
 * order (`Run`), so a miss copies the page once.
 */
export class ReleaseIndex {
  readonly size: number;
  private readonly rows: PublishedRow[];
  /** Each release's summary JSON, UTF-8 encoded once: a page is assembled by copying bytes. */
  private readonly summaries: Uint8Array[];
  private readonly byPublicId = new Map<string, number>();
  private readonly orderings = new Map<Ordering, Int32Array>();
  private readonly ranks = new Map<Ordering, Int32Array>();
  /** Built on the first page asked of each ordering and direction (`Run`). */
  private readonly runs = new Map<string, Run>();
  private searchIndex: SearchIndex | undefined;
  private readonly foldedNames: string[];
  private readonly foldedTags: string[];
  private readonly searches = new Map<string, SearchResult>();

  constructor(rows: PublishedRow[]) {
    this.rows = rows;
    this.size = rows.length;
    this.summaries = rows.map((r) => UTF8.encode(JSON.stringify(summary(r))));
    rows.forEach((r, i) => this.byPublicId.set(r.publicId, i));
    this.foldedNames = rows.map((r) => fold(r.name));
    this.foldedTags = rows.map((r) => fold(r.tag));
  }

  find(publicId: string): PublishedRow | undefined {
    const i = this.byPublicId.get(publicId);
    return i === undefined ? undefined : this.rows[i];
  }

  /**
   * The page asked for, as pre-rendered summaries (without a search, one comma-separated run of
   * them), and the count of all matches (docs/interface.md §2.5).
   */
  page(q: ListQuery): { items: Uint8Array[]; total: number } {
    const ordering = ORDERING_OF[q.sort];
    if (q.search === "") {
      // docs/product.md §2: past the end, empty items
      if (q.page > Math.ceil(this.size / q.pageSize)) return { items: [], total: this.size };
      const run = this.run(ordering, q.order);
      const offset = (q.page - 1) * q.pageSize;
      const end = Math.min(offset + q.pageSize, this.size);
      return { items: [run.bytes.subarray(run.starts[offset]!, run.starts[end]! - 1)], total: this.size };
    }
    const found = this.search(fold(q.search));
    const order = (found.ordered[ordering] ??= this.inOrder(found.matches, ordering));
    const total = order.length;
    const totalPages = Math.ceil(total / q.pageSize);
    const items: Uint8Array[] = [];
    if (q.page > totalPages) return { items, total }; // docs/product.md §2: past the end, empty items
    const offset = (q.page - 1) * q.pageSize;
    const end = Math.min(offset + q.pageSize, total);
    for (let k = offset; k < end; k++) {
      const i = q.order === "asc" ? order[k]! : order[total - 1 - k]!;
      items.push(this.summaries[i]!);
    }
    return { items, total };
  }

  /**
   * About 0.2 KB per release for each ordering and direction asked for without a search
   * (docs/public-api.md "Speed": the memory of the index).
   */
  private run(kind: Ordering, direction: Order): Run {
    const name = `${kind} ${direction}`;
    let run = this.runs.get(name);
    if (run === undefined) {
      const order = this.ordering(kind);
      const total = order.length;
      const starts = new Int32Array(total + 1);
      let length = 0;
      for (let k = 0; k < total; k++) {
        starts[k] = length;
        length += this.summaries[direction === "asc" ? order[k]! : order[total - 1 - k]!]!.length + 1;
      }
      starts[total] = length;
      const bytes = new Uint8Array(Math.max(0, length - 1));
      for (let k = 0; k < total; k++) {
        bytes.set(this.summaries[direction === "asc" ? order[k]! : order[total - 1 - k]!]!, starts[k]!);
        if (k + 1 < total) bytes[starts[k + 1]! - 1] = COMMA;
      }
      run = { bytes, starts };
      this.runs.set(name, run);
    }
    return run;
  }

  private ordering(kind: Ordering): Int32Array {
    let order = this.orderings.get(kind);
    if (!order) {
      order = Int32Array.from(this.rows.keys()).sort(this.comparator(kind));
      this.orderings.set(kind, order);
    }
    return order;
  }

  private comparator(kind: Ordering): (a: number, b: number) => number {
    const r = this.rows;
    const byCreation = (a: number, b: number) => r[a]!.createdAt - r[b]!.createdAt || r[a]!.rowId - r[b]!.rowId;
    switch (kind) {
      case "created_at":
        return byCreation;
      case "published_at":
        return (a, b) => r[a]!.publishedAt - r[b]!.publishedAt || byCreation(a, b);
      case "name": {
        const f = this.foldedNames;
        return (a, b) => compareCodePoints(f[a]!, f[b]!) || compareCodePoints(r[a]!.name, r[b]!.name) || byCreation(a, b);
      }
      case "tag": {
        const f = this.foldedTags;
        return (a, b) => compareCodePoints(f[a]!, f[b]!) || compareCodePoints(r[a]!.tag, r[b]!.tag) || byCreation(a, b);
      }
    }
  }

  /** docs/interface.md §4.2: case-insensitive substring of name or tag; remembered per folded search. */
  private search(needle: string): SearchResult {
    const known = this.searches.get(needle);
    if (known) {
      this.searches.delete(needle); // most recently used goes last
      this.searches.set(needle, known);
      return known;
    }
    const matches = needle === "" ? Int32Array.from(this.rows.keys()) : (this.searchIndex ??= new SearchIndex(this.foldedNames, this.foldedTags)).find(needle);
    const result: SearchResult = { matches, ordered: {} };
    this.searches.set(needle, result);
    if (this.searches.size > SEARCH_MEMO_ENTRIES) this.searches.delete(this.searches.keys().next().value!);
    return result;
  }

  /** The matches in an ordering: few are sorted by rank, many are picked out of the permutation. */
  private inOrder(matches: Int32Array, kind: Ordering): Int32Array {
    const order = this.ordering(kind);
    if (matches.length * FEW_MATCHES_DIVISOR < this.size) {
      const rank = this.rank(kind);
      return matches.slice().sort((a, b) => rank[a]! - rank[b]!);
    }
    const wanted = new Uint8Array(this.size);
    for (const i of matches) wanted[i] = 1;
    return select(order, wanted, matches.length);
  }

  private rank(kind: Ordering): Int32Array {
    let rank = this.ranks.get(kind);
    if (!rank) {
      const order = this.ordering(kind);
      rank = new Int32Array(this.size);
      for (let position = 0; position < order.length; position++) rank[order[position]!] = position;
      this.ranks.set(kind, rank);
    }
    return rank;
  }
}

/** The entries of `order` whose mask bit is set, in order (a plain loop: no callback per release). */
function select(order: Int32Array, mask: Uint8Array, count: number): Int32Array {
  const out = new Int32Array(count);
  let k = 0;
  for (let j = 0; j < order.length; j++) {
    const i = order[j]!;
    if (mask[i] === 1) out[k++] = i;
  }
  return out;
}

function summary(r: PublishedRow): ReleaseSummaryT {
  return { id: r.publicId, name: r.name, tag: r.tag, status: "published", published_at: iso(r.publishedAt), created_at: iso(r.createdAt) };
}

/**
 * `{"items": [...], "page_info": {...}}` from pre-rendered items (docs/interface.md §4.2, §2.5), as
 * UTF-8 bytes: copying encoded items into one buffer costs less than joining strings that Bun then
 * re-encodes.
 */
export function renderReleaseList(items: Uint8Array[], total: number, q: ListQuery): Uint8Array<ArrayBuffer> {
  const totalPages = Math.ceil(total / q.pageSize);
  // pageDigits are canonical decimal digits, a valid JSON integer however long (docs/product.md §2:
  // the true page).
  const tail = UTF8.encode(`],"page_info":{"total_count":${total},"page":${q.pageDigits},"page_size":${q.pageSize},"total_pages":${totalPages}}}`);
  let length = LIST_HEAD.length + tail.length + Math.max(0, items.length - 1);
  for (const item of items) length += item.length;
  const out = new Uint8Array(length);
  out.set(LIST_HEAD, 0);
  let at = LIST_HEAD.length;
  for (let k = 0; k < items.length; k++) {
    if (k > 0) out[at++] = COMMA;
    out.set(items[k]!, at);
    at += items[k]!.length;
  }
  out.set(tail, at);
  return out;
}
