/**
 * Paging (docs/api.md#parameters, #result-pages): how many records a page holds, which pages exist, where a page starts.
 * Pure; the one home of these numbers for the parameters, the queries, the answers and the
 * OpenAPI document.
 */
export type Resource = "venues" | "cities";

/** setlist.fm's page sizes. */
export const ITEMS_PER_PAGE: Record<Resource, number> = { venues: 30, cities: 50 };

/** `p` has at most six digits. */
export const MAX_PAGE = 999_999;

/** How many records come before the first one of `page` (1-based). */
export function pageOffset(resource: Resource, page: number): number {
  return (page - 1) * ITEMS_PER_PAGE[resource];
}
