import { badRequest } from "../common/errors.ts";
import { positiveDigits } from "../common/paging.ts";
import {
  ORDER_DEFAULT,
  ORDERS,
  PAGE_DEFAULT,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  SORT_DEFAULT,
  SORT_KEYS,
  type ReleasesQueryName,
} from "./model.ts";

export type SortKey = (typeof SORT_KEYS)[number];
export type Order = (typeof ORDERS)[number];

export interface ListQuery {
  /** The page as a number (may be imprecise or Infinity when huge; only compared). */
  page: number;
  /** The page exactly as asked, canonical digits, echoed in page_info (docs/product.md §2). */
  pageDigits: string;
  pageSize: number;
  /** Empty string: no filter. */
  search: string;
  sort: SortKey;
  order: Order;
}

/**
 * Reads the query of `GET /releases` from the raw query string (docs/interface.md §4.2,
 * docs/product.md §2). We parse the literal string ourselves rather than trust a framework's
 * last-one-wins merge (Elysia keeps the last of a repeated parameter), so that a repeated parameter
 * is noticed:
 * - page, page_size: a positive whole number in plain decimal digits; anything else is a 400 naming
 *   the parameter (negative, zero, 1.5, 1e3, 0x10, " 5"); given twice is a 400 too. An empty value
 *   counts as missing. page_size above PAGE_SIZE_MAX clamps to it, however many digits it has.
 * - search: given twice is a 400 (which one would we match?).
 * - sort, order: an unrecognised value, or one given twice, falls back to the default
 *   (docs/interface.md §7 rule 3: they never produce errors). Matched case-insensitively, so `ASC`
 *   means asc.
 */
export function parseListQuery(rawQuery: string): ListQuery {
  return parseListParams(readParams(rawQuery));
}

/** `parseListQuery` of parameters already read by `readParams` (a miss reads them once). */
export function parseListParams(params: Map<string, string[]>): ListQuery {
  const one = (name: ReleasesQueryName): { value: string | undefined; repeated: boolean } => {
    const all = params.get(name);
    return { value: all?.[0], repeated: (all?.length ?? 0) > 1 };
  };

  const page = positiveWhole(one("page"), "page", PAGE_DEFAULT);
  const pageSize = positiveWhole(one("page_size"), "page_size", PAGE_SIZE_DEFAULT);

  const search = one("search");
  if (search.repeated) throw badRequest('invalid query parameter "search": give it at most once');

  return {
    page: page.value,
    pageDigits: page.digits,
    pageSize: Math.min(pageSize.value, PAGE_SIZE_MAX),
    search: search.value ?? "",
    sort: pick(one("sort"), SORT_KEYS, SORT_DEFAULT),
    order: pick(one("order"), ORDERS, ORDER_DEFAULT),
  };
}

/**
 * The parameters of a query string, every value of each name in order, decoded exactly as
 * URLSearchParams decodes them (`+` is a space; a malformed escape stays as written and invalid
 * UTF-8 becomes U+FFFD), without building a URLSearchParams on the hot path.
 */
export function readParams(rawQuery: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const length = rawQuery.length;
  // Walked by index rather than split: no array of pairs on every miss.
  for (let at = rawQuery.startsWith("?") ? 1 : 0; at < length; ) {
    let end = rawQuery.indexOf("&", at);
    if (end < 0) end = length;
    if (end > at) {
      const eq = rawQuery.indexOf("=", at);
      const named = eq < 0 || eq > end ? end : eq;
      const name = decode(rawQuery.slice(at, named));
      const value = named === end ? "" : decode(rawQuery.slice(named + 1, end));
      const list = out.get(name);
      if (list) list.push(value);
      else out.set(name, [value]);
    }
    at = end + 1;
  }
  return out;
}

/**
 * The parameters of a query string (`readParams`) as the router hands them to a route's `t` schema
 * (docs/public-api.md "Speed"): an object of the decoded parameters, a parameter given once a
 * string and one given more often an array of its values. Names are decoded leniently here and strictly by the router; the two differ
 * only for malformed escapes, which never spell a parameter the schema names.
 */
export function routeQueryObject(params: Map<string, string[]>): Record<string, string | string[]> {
  // No prototype, as the router's: a parameter named __proto__ is a parameter like any other.
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [name, values] of params) out[name] = values.length === 1 ? values[0]! : values;
  return out;
}

function decode(raw: string): string {
  if (!raw.includes("%") && !raw.includes("+")) return raw;
  try {
    return decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    return new URLSearchParams(`x=${raw}`).get("x")!; // the lenient decoding of malformed escapes
  }
}

function positiveWhole(raw: { value: string | undefined; repeated: boolean }, name: string, dflt: number): { value: number; digits: string } {
  if (raw.repeated) throw badRequest(`invalid query parameter "${name}": give it at most once`);
  if (raw.value === undefined || raw.value === "") return { value: dflt, digits: String(dflt) };
  const digits = positiveDigits(raw.value);
  if (digits === null) throw badRequest(`invalid query parameter "${name}": must be a positive whole number`);
  return { value: Number(digits), digits };
}

function pick<T extends string>(raw: { value: string | undefined; repeated: boolean }, allowed: readonly T[], dflt: T): T {
  if (raw.repeated || raw.value === undefined) return dflt;
  const v = raw.value.toLowerCase();
  return (allowed as readonly string[]).includes(v) ? (v as T) : dflt;
}
