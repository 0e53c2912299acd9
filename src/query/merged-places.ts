/**
 * The place readings over several venue databases (docs/deploy.md#past-one-database): what one
 * database's statement reads (places.ts: placeReadingsSql) in three parts, since the places a
 * name's end may stand for are chosen among every place (the main database's) and the records of
 * the rest of the name there are the venue databases': each venue database's strict tier, the main
 * database's candidate places, then each candidate's best tier and first record in each venue
 * database, combined as one database's rows.
 */
import { EXACT } from "../data-contract/ranking.ts";
import { MERGED, rowsOfEach, type Row } from "./merged-rows.ts";
import { candidateTiersSql, type PlacesAsked } from "./places.ts";
import type { Runner } from "./resource.ts";
import { VENUES } from "./venues.ts";

/** The least of some tiers, null when none. */
const leastTier = (tiers: readonly unknown[]): number | null => {
  const known = tiers.filter((t) => typeof t === "number");
  return known.length === 0 ? null : Math.min(...known);
};

/**
 * placeReadingsSql's rows from its parts: the strict tier, the least of every venue database's;
 * each candidate (none when a name is the text) with its least tier and the first pos of that tier.
 */
function placeRowsOver(strict: readonly Row[][], candidates: readonly Row[], tiers: readonly Row[][]): Row[] {
  const tier = leastTier(strict.map((rows) => rows[0]?.tier));
  const strictRow = { i: -1, role: null, cc: null, a1: null, city_id: null, rank: null, tier, first: null };
  if (tier === EXACT) return [strictRow];
  return [
    strictRow,
    ...candidates.map((c, at) => {
      const each = tiers.flatMap((rows) => rows.filter((r) => Number(r.c) === at));
      const best = leastTier(each.map((r) => r.tier));
      const firsts = each.filter((r) => r.tier === best && typeof r.first === "number").map((r) => Number(r.first));
      const first = best === null || firsts.length === 0 ? null : Math.min(...firsts);
      return { i: c.i, role: c.role, cc: c.cc, a1: c.a1, city_id: c.city_id, rank: c.rank, tier: best, first };
    }),
  ];
}

/**
 * The place readings' rows (placeReadingsSql's) from their parts: the strict tier of each venue
 * database, the candidates of the main database, and then each candidate's tiers in each venue
 * database (one more round trip, where there are candidates and no name is the text).
 */
export async function placeRows(shards: readonly Runner[], places: PlacesAsked, strict: Row[][], candidates: Row[]) {
  const exact = strict.some((rows) => rows[0]?.tier === EXACT);
  const tiers =
    candidates.length === 0 || exact
      ? []
      : await rowsOfEach(shards, `${MERGED}: the places' tiers`, () => candidateTiersSql(VENUES, places, candidates));
  return placeRowsOver(strict, candidates, tiers);
}
