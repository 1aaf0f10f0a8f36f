import { iso } from "../common/clock.ts";
import type { ReleaseSummaryT } from "./model.ts";
import type { ListQuery, SortKey } from "./query.ts";
import { compareCodePoints, fold } from "./text.ts";

/** A published release as the index needs it (read by `project-state.ts`). */
export interface PublishedRow {
  rowId: number;
  publicId: string;
  name: string;
  tag: string;
  slug: string | null;
  createdAt: number;
  publishedAt: number;
}

/** Distinct searches remembered per project, so paging through one search does not rescan. */
export const SEARCH_MEMO_ENTRIES = 64;

type Ordering = "created_at" | "published_at" | "name" | "tag";

// spec 4.2 rule 4: status is constant among published releases, so sort=status is the tie-break
// order alone, which is the created_at order.
const ORDERING_OF: Record<SortKey, Ordering> = { created_at: "created_at", status: "created_at", published_at: "published_at", name: "name", tag: "tag" };

const SEPARATOR = "\u0000"; // authoring refuses control characters in names and tags

interface SearchResult {
  mask: Uint8Array;
  count: number;
  ordered: Partial<Record<Ordering, Int32Array>>;
}

/**
 * Every published release of one project, held in memory and rebuilt after any change to the
 * project (CONTRACTS 2: the caches are dropped on change). Each ordering is a precomputed
 * permutation, so any page of any sort is a slice: no OFFSET scan, whatever the page (the issue's
 * deep-page goal). Orders are total (ties break by created_at, then by creation order), so
 * `desc` is exactly `asc` reversed and pages never overlap or skip an item.
 */
export class ReleaseIndex {
  readonly size: number;
  private readonly rows: PublishedRow[];
  private readonly summaries: string[];
  private readonly byPublicId = new Map<string, number>();
  private readonly orderings = new Map<Ordering, Int32Array>();
  private readonly haystack: string;
  private readonly starts: Int32Array;
  private readonly foldedNames: string[];
  private readonly foldedTags: string[];
  private readonly searches = new Map<string, SearchResult>();

  constructor(rows: PublishedRow[]) {
    this.rows = rows;
    this.size = rows.length;
    this.summaries = rows.map((r) => JSON.stringify(summary(r)));
    rows.forEach((r, i) => this.byPublicId.set(r.publicId, i));
    this.foldedNames = rows.map((r) => fold(r.name));
    this.foldedTags = rows.map((r) => fold(r.tag));
    this.starts = new Int32Array(rows.length);
    let at = 0;
    const parts: string[] = [];
    for (let i = 0; i < rows.length; i++) {
      this.starts[i] = at;
      const part = this.foldedNames[i] + SEPARATOR + this.foldedTags[i] + SEPARATOR;
      parts.push(part);
      at += part.length;
    }
    this.haystack = parts.join("");
  }

  find(publicId: string): PublishedRow | undefined {
    const i = this.byPublicId.get(publicId);
    return i === undefined ? undefined : this.rows[i];
  }

  /** The page asked for, as pre-rendered summaries, and the count of all matches (spec 2.5). */
  page(q: ListQuery): { items: string[]; total: number } {
    const ordering = ORDERING_OF[q.sort];
    let order: Int32Array;
    if (q.search === "") {
      order = this.ordering(ordering);
    } else {
      const found = this.search(fold(q.search));
      order = found.ordered[ordering] ??= this.ordering(ordering).filter((i) => found.mask[i] === 1);
    }
    const total = order.length;
    const totalPages = Math.ceil(total / q.pageSize);
    const items: string[] = [];
    if (q.page > totalPages) return { items, total }; // CONTRACTS 2: past the end, empty items
    const offset = (q.page - 1) * q.pageSize;
    const end = Math.min(offset + q.pageSize, total);
    for (let k = offset; k < end; k++) {
      const i = q.order === "asc" ? order[k]! : order[total - 1 - k]!;
      items.push(this.summaries[i]!);
    }
    return { items, total };
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

  /** spec 4.2: case-insensitive substring of name or tag; remembered per folded search. */
  private search(needle: string): SearchResult {
    const known = this.searches.get(needle);
    if (known) {
      this.searches.delete(needle); // most recently used goes last
      this.searches.set(needle, known);
      return known;
    }
    const mask = new Uint8Array(this.size);
    let count = 0;
    if (needle.includes(SEPARATOR)) {
      for (let i = 0; i < this.size; i++) {
        if (this.foldedNames[i]!.includes(needle) || this.foldedTags[i]!.includes(needle)) (mask[i] = 1), count++;
      }
    } else {
      // One indexOf over all names and tags; after a hit, skip to the next release.
      let from = 0;
      for (;;) {
        const at = this.haystack.indexOf(needle, from);
        if (at < 0) break;
        const i = this.releaseAt(at);
        mask[i] = 1;
        count++;
        from = i + 1 < this.size ? this.starts[i + 1]! : this.haystack.length;
      }
    }
    const result: SearchResult = { mask, count, ordered: {} };
    this.searches.set(needle, result);
    if (this.searches.size > SEARCH_MEMO_ENTRIES) this.searches.delete(this.searches.keys().next().value!);
    return result;
  }

  private releaseAt(position: number): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= position) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

function summary(r: PublishedRow): ReleaseSummaryT {
  return { id: r.publicId, name: r.name, tag: r.tag, status: "published", published_at: iso(r.publishedAt), created_at: iso(r.createdAt) };
}

/** `{"items": [...], "page_info": {...}}` from pre-rendered items (spec 4.2, 2.5). */
export function renderReleaseList(items: string[], total: number, q: ListQuery): string {
  const totalPages = Math.ceil(total / q.pageSize);
  // pageDigits are canonical decimal digits, a valid JSON integer however long (CONTRACTS 2: the true page).
  return `{"items":[${items.join(",")}],"page_info":{"total_count":${total},"page":${q.pageDigits},"page_size":${q.pageSize},"total_pages":${totalPages}}}`;
}
