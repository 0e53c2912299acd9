/**
 * GET /1.0/suggest/{venues,cities} (docs/api.md#suggestions): the records a text as it is being
 * typed most likely means, each saying why it is there, cached per canonical query like the searches. An empty list is a 200:
 * a search box asks at every keystroke, and a text that matches nothing yet is no error.
 */
import type { Env } from "../env.ts";
import { requestUrl } from "../http/url.ts";
import type { Resource } from "../params/paging.ts";
import { CITIES } from "../query/cities.ts";
import { VENUES } from "../query/venues.ts";
import { citiesPage, venuesPage } from "../shape.ts";
import { answer, negotiate, type Loaded } from "../pipeline.ts";
import { venueRoute } from "../d1/route.ts";
import { readsPlace } from "../suggest/ways.ts";
import { canonicalSuggestQuery, parseSuggestParams } from "../suggest/params.ts";
import { runSuggest } from "../suggest/suggest.ts";
import type { SuggestParams } from "../suggest/params.ts";
import type { Session } from "../d1/session.ts";
import type { Language } from "../data-contract/languages.ts";
import { mergesOver } from "../query/merged-names.ts";
import { areaOf } from "../params/search-params.ts";

export async function suggest(
  resource: Resource,
  request: Request,
  env: Env,
  ctx: ExecutionContext,
): Promise<Response> {
  const negotiated = negotiate(request);
  const params = parseSuggestParams(resource, requestUrl(request).query);
  const fullCities = resource === "venues" && env.VENUE_CITY_DETAIL === "full";
  const target = {
    path: `/1.0/suggest/${resource}`,
    canonicalQuery: canonicalSuggestQuery(params),
    variant: fullCities ? "venue-city=full" : "",
    ...negotiated,
  };
  return answer(request, env, ctx, target, async (session, known): Promise<Loaded> => {
    if (resource === "venues") {
      const found = await venueSuggestions(env, session, known, params, negotiated.language);
      return {
        answer: { kind: "page", page: venuesPage(found, fullCities, params.limit) },
        headers: { "X-Match": found.match },
      };
    }
    const found = await runSuggest(CITIES, session, params, negotiated.language);
    return {
      answer: { kind: "page", page: citiesPage(found, params.limit) },
      headers: { "X-Match": found.match },
    };
  });
}

/**
 * A venue suggestion's list: from the one venue database it asks; where it asks several, from the
 * main database while that holds every venue, else merged from them (a text that may end with a
 * place too, its places read first in the main database), its typo fallback's search too
 * (src/query/merged-names.ts, in an area merged-area-names.ts; in the one venue database it asks
 * alone: routed-names.ts); answered again by the main database when a venue database asked held
 * another import.
 */
async function venueSuggestions(
  env: Env,
  main: Session,
  known: string | null,
  params: SuggestParams,
  language: Language,
) {
  const route = await venueRoute(env, main, known, params.search, { readsPlace: readsPlace(params) });
  const merged = !route.mainHoldsVenues;
  // In an area too (src/endpoints/search.ts): one venue database its fallback's decisions split, several merged.
  const outside = areaOf(params.search) === undefined;
  const every = outside ? [] : route.every();
  const names = merged && !route.each.includes(main) && (outside || every.length > 0);
  const merges = names ? mergesOver(main, route.each, language, every) : undefined;
  const placesFrom = merged && route.each[0] !== main ? main : undefined;
  const found = await runSuggest(VENUES, route.one, params, language, { each: route.each, merges, placesFrom });
  return (merges === undefined && placesFrom === undefined) || route.current()
    ? found
    : runSuggest(VENUES, main, params, language);
}
