/**
 * The pages a search serves (docs/api.md#what-one-request-may-cost). A search whose order is stored
 * seeks its page at any depth: every record, a country, a country's state code, a city by id, a name
 * of one word alone. Any other search reads the records before its page, so it serves the first
 * RESULT_WINDOW records of its order and refuses a page beyond them with a 400 that says so, as
 * Elasticsearch's `max_result_window` and Algolia's `paginationLimitedTo` do. Pure.
 */
import { ApiError } from "../http/errors.ts";
import { ITEMS_PER_PAGE, pageOffset, type Resource } from "./paging.ts";
import { areaOf, hasFilters, type SearchParams } from "./search-params.ts";

/** Records served of a search that cannot seek its page. */
export const RESULT_WINDOW = 1_000;

/** The last page served of a search that cannot seek. */
export const lastPageInWindow = (resource: Resource): number => Math.floor(RESULT_WINDOW / ITEMS_PER_PAGE[resource]);

/** Whether a strict search seeks its page: stored ranks or anchors give any page. */
function seeks(p: SearchParams): boolean {
  if (areaOf(p) !== undefined || p.kind !== undefined) return false;
  if (p.name !== undefined) return p.nameWords.length === 1 && !hasFilters(p);
  if (p.cityId !== undefined) return true; // one city's venues are a pos range
  return p.cityName === undefined && p.state === undefined && (p.stateCode === undefined || p.country !== undefined);
}

/** What a search that cannot seek is, in a person's words, for the refusal. */
function whatItIs(p: SearchParams, forgiven: boolean): string {
  if (forgiven) return "a name forgiven typos";
  if (areaOf(p) !== undefined) return "a search in an area";
  if (p.kind !== undefined) return "a search by kind";
  if (p.nameWords.length > 1) return "a name of several words";
  if (p.name !== undefined) return "a name with filters";
  return "a city by name, a state by name or a state code without a country";
}

/**
 * Refuses a page beyond the window of a search that cannot seek (`forgiven`: its answer forgives
 * typos, which never seeks), naming the window and what narrows the search.
 */
export function refuseBeyondWindow(resource: Resource, p: SearchParams, forgiven = false): void {
  if (!forgiven && seeks(p)) return;
  if (pageOffset(resource, p.page) + ITEMS_PER_PAGE[resource] <= RESULT_WINDOW) return;
  throw new ApiError(
    400,
    `parameter p must be at most ${lastPageInWindow(resource)} for ${whatItIs(p, forgiven)}: ` +
      `such a search serves its first ${RESULT_WINDOW.toLocaleString("en-US")} ${resource}; ` +
      "narrow it (more words, a smaller area, a country or a state code) to reach the others",
  );
}
