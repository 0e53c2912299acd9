/**
 * A venue name search routed to one venue database (docs/deploy.md#past-one-database): its round
 * trips run there as in one database, but for the decisions (a typo's corrections, the place
 * readings: merged-decisions.ts), whose parts the venue database and the main database each read,
 * at the same time, as a merge over several reads them (merged-names.ts) — so the main database
 * reads no venue of it.
 */
import type { SearchParams } from "../params/search-params.ts";
import type { Sql } from "../sql/sql.ts";
import { CORRECTIONS } from "./corrections.ts";
import { decisions } from "./merged-decisions.ts";
import { rowsOfTrip } from "./merged-rows.ts";
import { PLACES, placeCandidatesSql, strictTierRowSql, type PlacesAsked } from "./places.ts";
import type { Runner } from "./resource.ts";
import { TripRows, type Trip } from "./trip.ts";
import { correctionsOf, placesAskedOf, type Merges } from "./trips.ts";
import { VENUES } from "./venues.ts";

const isDecision = (name: string) => name === CORRECTIONS || name === PLACES;

/**
 * The rows of `trip` run in `shard`, its decisions from their parts: the corrections' index part
 * and the place readings' strict tier there, beside its other statements; the candidate places in
 * the main database meanwhile; then what they decide by (decisions()).
 */
async function splitTrip(
  main: Runner,
  shard: Runner,
  trip: Trip,
  p: SearchParams,
  asked: { stands: Sql | undefined; places: PlacesAsked | undefined },
): Promise<TripRows> {
  const own = trip.but(isDecision);
  const index = trip.names.includes(CORRECTIONS) ? correctionsOf(VENUES, p, asked.stands, "index") : null;
  const places = trip.names.includes(PLACES) ? asked.places : undefined;
  const strict = places === undefined ? null : strictTierRowSql(VENUES, places);
  const candidates = places === undefined ? null : placeCandidatesSql(VENUES, places);
  const [rows, [placed = []]] = await Promise.all([
    rowsOfTrip(shard, "venues search (a venue database)", [...own.statements, index, strict]),
    rowsOfTrip(main, "venues search: the places", [candidates]),
  ]);
  const at = own.statements.length;
  const decided = await decisions(main, [shard], p, {
    index: index === null ? null : [rows[at] ?? []],
    stands: asked.stands,
    strict: [rows[at + 1] ?? []],
    candidates: placed,
    places,
  });
  const byName = new Map([...own.names.map((name, i) => [name, rows[i] ?? []] as const), ...decided]);
  return new TripRows(
    trip.names,
    trip.names.map((name) => ({ rows: byName.get(name) ?? [] })),
  );
}

/**
 * What runs a venue search's trips in one venue database (`shard`), its decisions split with
 * `main`; a trip whose place readings ask what it does not know, in `shard` whole (src/d1/route.ts
 * sends them to the main database).
 */
export const routedOver = (main: Runner, shard: Runner): Merges => ({
  first: (first, p) =>
    splitTrip(main, shard, first.trip, p, { stands: first.search.stands, places: placesAskedOf(first, p) }),
  search: async (trip, asked, p) =>
    trip.names.includes(PLACES) && asked.places === undefined
      ? null
      : splitTrip(main, shard, trip, p, { stands: asked.search?.stands, places: asked.places }),
});
