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
      const route = await venueRoute(env, session, known, params.search, {
        merges: env.VENUE_SUGGESTIONS === "merged",
        mainOnly: readsPlace(params),
      });
      const found = await runSuggest(VENUES, route.one, params, negotiated.language, { each: route.each });
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
