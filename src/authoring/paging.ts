import { badRequest } from "../common/errors.ts";

/** Page arithmetic shared by the dashboard lists (same shape as the public API's page_info). */
export interface PageInfo {
  total_count: number;
  page: number;
  page_size: number;
  total_pages: number;
}

export function parsePositiveInt(raw: string | undefined, name: string, dflt: number): number {
  if (raw === undefined || raw === "") return dflt;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) throw badRequest(`invalid query parameter "${name}": must be a positive whole number`);
  return Number(raw);
}

export function pageInfo(total: number, page: number, pageSize: number): PageInfo {
  return { total_count: total, page, page_size: pageSize, total_pages: Math.ceil(total / pageSize) };
}
