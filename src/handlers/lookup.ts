/**
 * GET /1.0/venue/{venueId} and GET /1.0/city/{geoId}: one venue (with its city in full) or
 * one city, cached like searches; 404 "not found" when there is none.
 */
import type { Env } from "../env";
import { cityById } from "../queries/cities";
import { venueById } from "../queries/venues";
import { cityJson, venueJson } from "../shape";
import { answer, negotiate } from "./answer";

const VENUE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const GEO_ID = /^[1-9][0-9]{0,11}$/;

export async function venue(id: string, request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const negotiated = negotiate(request);
  return answer(request, env, ctx, { path: `/1.0/venue/${id}`, canonicalQuery: "", ...negotiated }, async () => {
    if (!VENUE_ID.test(id)) return { answer: null, rowsRead: 0 };
    const found = await venueById(env.DB, id, negotiated.language);
    return {
      answer: found.item === null ? null : { kind: "venue", venue: venueJson(found.item, true) },
      rowsRead: found.rowsRead,
    };
  });
}

export async function city(id: string, request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
  const negotiated = negotiate(request);
  return answer(request, env, ctx, { path: `/1.0/city/${id}`, canonicalQuery: "", ...negotiated }, async () => {
    if (!GEO_ID.test(id)) return { answer: null, rowsRead: 0 };
    const found = await cityById(env.DB, id, negotiated.language);
    return {
      answer: found.item === null ? null : { kind: "city", city: cityJson(found.item) },
      rowsRead: found.rowsRead,
    };
  });
}
