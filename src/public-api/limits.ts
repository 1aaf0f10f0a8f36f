/**
 * The limits and defaults of `GET /releases` (docs/interface.md §4.2, §8), written once. A module
 * that imports nothing, so the command-line client and the dashboard's script read them without
 * loading the schemas (model.ts re-exports them; docs/architecture.md "Input models").
 */
export const PAGE_DEFAULT = 1;
export const PAGE_SIZE_DEFAULT = 20; // docs/interface.md §8
export const PAGE_SIZE_MAX = 100; // docs/interface.md §8: larger values are clamped, not rejected
export const SORT_KEYS = ["name", "tag", "status", "published_at", "created_at"] as const;
export const SORT_DEFAULT = "created_at"; // docs/interface.md §4.2 rule 1
export const ORDERS = ["asc", "desc"] as const;
export const ORDER_DEFAULT = "desc";
