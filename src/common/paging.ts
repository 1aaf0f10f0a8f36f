import { badRequest } from "./errors.ts";

/** Page arithmetic of every paged list (the public API's `page_info` shape, docs/interface.md §2.5). */
export interface PageInfo {
  total_count: number;
  page: number;
  page_size: number;
  total_pages: number;
  /** Present (true) when `total_count` is a lower bound: a key search of one or two characters stops counting (docs/dashboard.md "Speed"). */
  total_at_least?: true;
}

export function pageInfo(total: number, page: number, pageSize: number): PageInfo {
  return { total_count: total, page, page_size: pageSize, total_pages: Math.ceil(total / pageSize) };
}

const DIGITS = /^[0-9]+$/;

/**
 * A positive whole number written in plain decimal digits, as canonical digits (no leading zeros),
 * or null. Huge values keep their exact digits; `Number(digits)` may round them, which only matters
 * to callers that echo the value back (the public API's `page`).
 */
export function positiveDigits(raw: string): string | null {
  if (!DIGITS.test(raw)) return null;
  const digits = raw.replace(/^0+/, "");
  return digits === "" ? null : digits;
}

/**
 * A query parameter that must be a positive whole number: the default when absent, else 400 naming
 * it. At most 9 digits, so the value stays an exact integer that SQLite takes as LIMIT or OFFSET.
 */
export function parsePositiveInt(raw: string | undefined, name: string, dflt: number): number {
  if (raw === undefined || raw === "") return dflt;
  const digits = positiveDigits(raw);
  if (digits === null || digits.length > 9) throw badRequest(`invalid query parameter "${name}": must be a positive whole number`);
  return Number(digits);
}
