/** GET /1.0/search/{venues,cities}: validated, canonical parameters → a cached page. */
import type { Env } from "../env";
import { canonicalQuery, parseSearchParams, type Resource } from "../params";
import { searchCities } from "../queries/cities";
import { searchVenues } from "../queries/venues";
import { citiesPage, venuesPage } from "../shape";
import { answer, negotiate, type Loaded } from "./answer";

export async function search(resource: Resource, request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const negotiated = negotiate(request);
  const query = request.url.indexOf("?");
  const params = parseSearchParams(resource, query < 0 ? "" : request.url.slice(query));
  const path = `/1.0/search/${resource}`;
  return answer(
    request,
    env,
    ctx,
    { path, canonicalQuery: canonicalQuery(params), ...negotiated },
    async (): Promise<Loaded> => {
      if (resource === "venues") {
        const found = await searchVenues(env.DB, params, negotiated.language);
        const page = venuesPage(found);
        return { answer: page.venue.length === 0 ? null : { kind: "page", page }, rowsRead: found.rowsRead };
      }
      const found = await searchCities(env.DB, params, negotiated.language);
      const page = citiesPage(found);
      return { answer: page.cities.length === 0 ? null : { kind: "page", page }, rowsRead: found.rowsRead };
    },
  );
}
