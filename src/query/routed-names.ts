/**
 * A venue name search routed to one venue database (docs/deploy.md#past-one-database), in an area
 * too: its round trips run there as in one database, but for the decisions (a typo's corrections,
 * the place readings: merged-decisions.ts), whose parts the venue database and the main database
 * each read, at the same time, as a merge over several reads them (merged-names.ts) — so the main
 * database reads no venue of it.
 */
import { areaOf, type SearchParams } from "../params/search-params.ts";
import type { Sql } from "../sql/sql.ts";
import { CORRECTIONS } from "./corrections.ts";
import { decisions } from "./merged-decisions.ts";
import { MERGED, rowsOfEach, rowsOfTrip } from "./merged-rows.ts";
import { PLACES, placeCandidatesSql, strictTierRowSql, type PlacesAsked } from "./places.ts";
import type { Runner } from "./resource.ts";
import { TripRows, type Trip } from "./trip.ts";
import { correctionsOf, placesAskedOf, type Merges } from "./trips.ts";
import { VENUES } from "./venues.ts";

const isDecision = (name: string) => name === CORRECTIONS || name === PLACES;

/**
 * The venue databases a search's place readings read their tiers in: its own, or in an area, every
 * one (`every`) — a place is read there as without the area (docs/api.md#a-place-in-the-text), so
 * the text's strict tier and each candidate place's are those of every venue, as in one database.
 */
const placesFrom = (own: Runner, every: readonly Runner[], p: SearchParams) =>
  areaOf(p) === undefined || every.length === 0 ? [own] : every;

/**
 * The rows of `trip` run in `shard`, its decisions from their parts: the corrections' index part
 * and the place readings' strict tier there (in an area, in every venue database), beside its
 * other statements; the candidate places in the main database meanwhile; then what they decide
 * by (decisions()).
 */
async function splitTrip(
  databases: { main: Runner; shard: Runner; every: readonly Runner[] },
  trip: Trip,
  p: SearchParams,
  asked: { stands: Sql | undefined; places: PlacesAsked | undefined },
): Promise<TripRows> {
  const { main, shard } = databases;
  const own = trip.but(isDecision);
  const index = trip.names.includes(CORRECTIONS) ? correctionsOf(VENUES, p, asked.stands, "index") : null;
  const places = trip.names.includes(PLACES) ? asked.places : undefined;
  const tiersIn = placesFrom(shard, databases.every, p);
  const strict = places === undefined ? null : strictTierRowSql(VENUES, places);
  const candidates = places === undefined ? null : placeCandidatesSql(VENUES, places);
  // Its own strict tier in its own round trip; every venue database's beside it.
  const alone = tiersIn.length === 1 && tiersIn[0] === shard;
  const [rows, [placed = []], others] = await Promise.all([
    rowsOfTrip(shard, "venues search (a venue database)", [...own.statements, index, alone ? strict : null]),
    rowsOfTrip(main, "venues search: the places", [candidates]),
    rowsOfEach(alone ? [] : tiersIn, `${MERGED}: the strict tier`, () => strict),
  ]);
  const at = own.statements.length;
  const decided = await decisions(main, tiersIn, p, {
    index: index === null ? null : [rows[at] ?? []],
    stands: asked.stands,
    strict: alone ? [rows[at + 1] ?? []] : others,
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
 * `main` (and, in an area, its place readings' tiers read in `every` venue database); a trip whose
 * place readings ask what it does not know, in `shard` whole (src/d1/route.ts sends them to the
 * main database).
 */
export function routedOver(main: Runner, shard: Runner, every: readonly Runner[] = []): Merges {
  const databases = { main, shard, every };
  return {
    first: (first, p) =>
      splitTrip(databases, first.trip, p, { stands: first.search.stands, places: placesAskedOf(first, p) }),
    search: async (trip, asked, p) =>
      trip.names.includes(PLACES) && asked.places === undefined
        ? null
        : splitTrip(databases, trip, p, { stands: asked.search?.stands, places: asked.places }),
  };
}
