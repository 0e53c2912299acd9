/** GET /1.0/search/{venues,cities}: validated, canonical parameters → a cached page. */
import type { Env } from "../env.ts";
import { requestUrl } from "../http/url.ts";
import type { Resource } from "../params/paging.ts";
import { canonicalQuery, parseSearchParams } from "../params/search.ts";
import { refuseBeyondWindow } from "../params/window.ts";
import { CITIES } from "../query/cities.ts";
import { runSearch } from "../query/search.ts";
import { mergesOver } from "../query/merged-names.ts";
import type { Merges } from "../query/trips.ts";
import { VENUES } from "../query/venues.ts";
import type { Page } from "../query/records.ts";
import type { ResourceQueries, Runner } from "../query/resource.ts";
import type { Language } from "../data-contract/languages.ts";
import { withMatched } from "../suggest/suggest.ts";
import { citiesPage, venuesPage } from "../shape.ts";
import { answer, negotiate, type Loaded } from "../pipeline.ts";
import { declined, venueRoute } from "../d1/route.ts";
import type { Session } from "../d1/session.ts";
import { mergedVenues } from "../query/merged-browse.ts";
import { mergedAreaVenues } from "../query/merged-area.ts";
import { united } from "../query/merged-rows.ts";
import { areaOf, type SearchParams } from "../params/search-params.ts";

/**
 * Headers of a search answer: how the name matched, the corrected name of a fuzzy one, and the
 * search that answered when a place was read in the name (its canonical query, without the page).
 */
function matchHeaders(page: Page<unknown>): Record<string, string> {
  if (page.items.length === 0) return {}; // "not found" matched nothing, neither way
  const headers: Record<string, string> = { "X-Match": page.match };
  if (page.totalAtLeast === true) headers["X-Total-Relation"] = "gte";
  if (page.suggestion !== undefined) headers["X-Corrected-Name"] = encodeURIComponent(page.suggestion);
  if (page.readAs !== undefined) {
    // The search that ran, without its page and without how its records are said (matched).
    headers["X-Read-As"] = canonicalQuery(page.readAs)
      .split("&")
      .filter((pair) => !pair.startsWith("p=") && !pair.startsWith("matched="))
      .join("&");
  }
  return headers;
}

/**
 * A search's page; with `matched=1` and a name, each record with the name that matched
 * (docs/api.md#which-name-matched), read where the records are: in every venue database `merged`
 * asks when its page is merged.
 */
async function said<R>(
  q: ResourceQueries<R>,
  session: Runner,
  params: SearchParams,
  language: Language,
  merged?: { merges: Merges; each: readonly Runner[] },
) {
  const found = await runSearch(q, session, params, language, merged?.merges);
  if (params.matched !== true || params.nameWords.length === 0) return found;
  const names = merged === undefined ? session : united(merged.each);
  return { ...found, items: await withMatched(q, names, found, params, language) };
}

/**
 * A venue search's page: in the one venue database its filters and area ask; where they ask
 * several, in the main database while it holds every venue, else merged from them — without a
 * name (in an area, merged-area.ts), a name (merged-names.ts; in an area merged-area-names.ts)
 * — and a name in one venue database has its decisions split with the main database then
 * (routed-names.ts) (src/d1/route.ts). A merge with a venue database that held another import is
 * answered again by the main database while it holds every venue, else refused (route.ts declined).
 */
async function venues(env: Env, main: Session, known: string | null, params: SearchParams, language: Language) {
  const area = areaOf(params);
  const outside = area === undefined;
  const route = await venueRoute(env, main, known, params);
  // Where the main database holds no venue, what the merge declines is refused (route.ts declined).
  const one = route.mainHoldsVenues || route.each.length === 1 ? route.one : declined(route);
  // A name runs in the venue databases it asks, its decisions split as a merge's are (in an area,
  // its place readings' tiers read in every venue database, where the deployment binds them).
  const every = outside ? [] : route.every();
  const names = params.name !== undefined && !route.mainHoldsVenues;
  if (names && !route.each.includes(main) && (outside || every.length > 0)) {
    const merges = mergesOver(main, route.each, language, every);
    const found = await said(VENUES, one, params, language, { merges, each: route.each });
    if (route.current()) return found;
  } else if (route.each.length > 1) {
    const merged =
      area === undefined
        ? await mergedVenues(main, route.each, params, language)
        : await mergedAreaVenues(route.each, params, area, language);
    if (merged !== null && route.current()) return merged;
  }
  return said(VENUES, one, params, language);
}

export async function search(resource: Resource, request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const negotiated = negotiate(request);
  const params = parseSearchParams(resource, requestUrl(request).query);
  refuseBeyondWindow(resource, params);
  const fullCities = resource === "venues" && env.VENUE_CITY_DETAIL === "full";
  const target = {
    path: `/1.0/search/${resource}`,
    canonicalQuery: canonicalQuery(params),
    variant: fullCities ? "venue-city=full" : "",
    ...negotiated,
  };
  return answer(request, env, ctx, target, async (session, known): Promise<Loaded> => {
    if (resource === "venues") {
      const found = await venues(env, session, known, params, negotiated.language);
      const page = venuesPage(found, fullCities);
      return { answer: page.venue.length === 0 ? null : { kind: "page", page }, headers: matchHeaders(found) };
    }
    const found = await said(CITIES, session, params, negotiated.language);
    const page = citiesPage(found);
    return { answer: page.cities.length === 0 ? null : { kind: "page", page }, headers: matchHeaders(found) };
  });
}
