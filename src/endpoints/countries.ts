/**
 * GET /1.0/search/countries: every country of the data on one page, named and sorted in the
 * language asked for, cached like the other searches (docs/api.md#countries). `p` is read like
 * theirs: any page but the first is past the end, a 404 that needs no query.
 */
import type { Env } from "../env.ts";
import { requestUrl } from "../http/url.ts";
import { parseCountriesPage } from "../params/search.ts";
import { countriesByName, everyCountry } from "../query/countries.ts";
import { countriesPage } from "../shape.ts";
import { answer, negotiate, type Loaded } from "../pipeline.ts";

export async function countries(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const negotiated = negotiate(request);
  const page = parseCountriesPage(requestUrl(request).query);
  const target = { path: "/1.0/search/countries", canonicalQuery: `p=${page}`, ...negotiated };
  return answer(request, env, ctx, target, async (session): Promise<Loaded> => {
    if (page !== 1) return { answer: null };
    const [found] = await session.run("countries", [everyCountry(negotiated.language)]);
    const list = countriesByName(found?.rows ?? [], negotiated.language);
    return { answer: list.length === 0 ? null : { kind: "page", page: countriesPage(list) } };
  });
}
