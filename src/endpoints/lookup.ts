/**
 * GET /1.0/venue/{venueId} and GET /1.0/city/{geoId}: one venue (with its city in full) or
 * one city, cached like searches; 404 "not found" when there is none. A malformed id is a 400
 * before the cache is consulted, so junk ids neither reach D1 nor take cache entries.
 */
import type { Env } from "../env.ts";
import { ApiError } from "../http/errors.ts";
import { GEO_ID, GEO_ID_RULE, VENUE_ID, VENUE_ID_RULE } from "../data-contract/ids.ts";
import { CITIES } from "../query/cities.ts";
import { recordById } from "../query/records.ts";
import { VENUES } from "../query/venues.ts";
import { cityJson, venueJson } from "../shape.ts";
import { answer, negotiate } from "../pipeline.ts";
import { everyVenueDatabase } from "../d1/route.ts";
import type { Session } from "../d1/session.ts";
import { united } from "../query/merged-rows.ts";
import type { Runner } from "../query/resource.ts";

export async function venue(id: string, request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const negotiated = negotiate(request);
  if (!VENUE_ID.test(id)) throw new ApiError(400, `parameter venueId must be ${VENUE_ID_RULE}`);
  return answer(
    request,
    env,
    ctx,
    { path: `/1.0/venue/${id}`, canonicalQuery: "", ...negotiated },
    async (session, known) => {
      const statement = recordById("venues", id, negotiated.language);
      let [found] = await venueDatabases(env, session, known).then((r) => r.run("venue lookup", [statement]));
      found ??= (await session.run("venue lookup", [statement]))[0];
      const row = found?.rows[0];
      return { answer: row === undefined ? null : { kind: "venue", venue: venueJson(VENUES.record(row), true) } };
    },
  );
}

/**
 * What reads a venue by its id: the main database while it holds every venue; else every venue
 * database at once (one holds it: docs/deploy.md#past-one-database), answering nothing (the main
 * database answers) when one of them held another import.
 */
async function venueDatabases(env: Env, main: Session, known: string | null): Promise<Runner> {
  const route = await everyVenueDatabase(env, main, known);
  if (route.mainHoldsVenues) return main;
  const each = route.each.length === 1 ? route.one : united(route.each);
  return {
    run: async (what, statements) => {
      const rows = await each.run(what, statements);
      return route.current() ? rows : [];
    },
  };
}

export async function city(id: string, request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const negotiated = negotiate(request);
  if (!GEO_ID.test(id)) throw new ApiError(400, `parameter geoId must be a GeoNames id: ${GEO_ID_RULE}`);
  return answer(request, env, ctx, { path: `/1.0/city/${id}`, canonicalQuery: "", ...negotiated }, async (session) => {
    const [found] = await session.run("city lookup", [recordById("cities", id, negotiated.language)]);
    const row = found?.rows[0];
    return { answer: row === undefined ? null : { kind: "city", city: cityJson(CITIES.record(row)) } };
  });
}
