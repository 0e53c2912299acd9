/**
 * Searches in an area that the cell counts cannot count (docs/architecture.md#places-on-a-grid):
 * a name of several words, a name forgiving typos, filters besides a kind. Every match in the
 * cells that cover the area is read and placed (FTS5 intersects the name and filters with the
 * cover's cell tokens), so they cost what the area holds of those matches; one statement gives
 * the page's positions and the total.
 */
import { numberedPage, ownKey, rankOrder } from "../data-contract/ranking.ts";
import { boundCte, promotedOf, sizedBest } from "../match/own-names.ts";
import { int, num, raw, sql, unionAll, type Sql } from "../sql/sql.ts";
import { inAreaSql, inCoverSql } from "./area.ts";
import type { Places } from "./places.ts";
import { distanceSql, isCircle, type Area } from "../data-contract/distance.ts";
import { boxPage, inBoxHeld, placedReading, type BoxTier } from "./box-page.ts";
import { withTotal } from "./pages.ts";
import { cappedCount, keptOfFirst, matchesOf, PLACED_CANDIDATES } from "../match/capped.ts";

/** Each record's best tier (pos, k) among the tiers, each read from its first candidates in the area's cover. */
function bestTiers(places: Places, area: Area, tiers: readonly BoxTier[], filters: Sql | null): Sql {
  const parts = tiers.map((tier) => {
    const read = keptOfFirst(
      matchesOf(places.fts, inCoverSql(tier.text, area, places.everyPlaced, filters)),
      tier.held ?? null,
      CANDIDATE_READING,
    );
    return sql`SELECT ${int(tier.key)} AS k, pos FROM (${read})`;
  });
  return sql`SELECT pos, min(k) AS k FROM (${unionAll(parts)}) GROUP BY pos`;
}

/** Candidates near a point are placed once they are read (their distance), at most PLACED_CANDIDATES + 1 a tier. */
const CANDIDATE_READING = { limit: PLACED_CANDIDATES + 1 };

/** What a scanned search reads: its tiers, the FTS5 text of every match, its filters, what every match must hold. */
interface Scanned {
  tiers: readonly BoxTier[];
  /** FTS5 text every match has (the words tiers OR-ed); null: the filters alone. */
  everything: string | null;
  /** The filters as an SQL expression of FTS5 text, null without any. */
  filters: Sql | null;
  /** What a candidate of any tier must hold (src/match/one-name.ts), null when a match is enough. */
  held: Sql | null;
}

/**
 * The positions of a page in an area, with the total: near a point, by edits, distance, name tier
 * and pos (src/data-contract/ranking.ts); in a box, by edits, name tier and pos. The filters' text
 * is computed once (its subqueries bind values) and read by every part. Each reads its first
 * candidates only (src/match/capped.ts): the total is a lower bound when there were more.
 */
export function scannedPositions(places: Places, area: Area, search: Scanned, offset: number, size: number): Sql {
  const { tiers, everything, filters } = search;
  const flt = filters === null ? raw("") : sql`flt(q) AS (SELECT ${filters}), `;
  const filtersText = filters === null ? null : raw("(SELECT q FROM flt)");
  if (!isCircle(area)) {
    const kept = inBoxHeld(places, area, search.held);
    const total = cappedCount(
      matchesOf(places.fts, inCoverSql(everything, area, places.everyPlaced, filtersText)),
      kept,
      placedReading(places),
    );
    return sql`WITH ${flt}${withTotal(boxPage(places, area, tiers, filtersText, offset, size), total)}`;
  }
  const order = rankOrder({ key: raw("pk"), distance: raw("away"), pos: raw("pos") });
  const placed = sql`SELECT best.pos AS pos, best.k AS k, ${distanceSql(area, places.lat, places.lng)} AS away
    FROM (${bestTiers(places, area, tiers, filtersText)}) best ${places.record(raw("best.pos"))}`;
  const radius = num(area.radiusKm, "km");
  // The candidates read, in one pass: whether there were more than PLACED_CANDIDATES (some tier had
  // more: the words tier holds every match), how many lie inside the circle, the first of them
  // found by an own name, and those inside as JSON (exact: SQLite writes a REAL's 17 digits), which
  // the page alone reads again: a materialized step of every candidate of the cover was read again
  // at each pass (D1's rows read), a third of them outside.
  const inCircle = sql`away <= ${radius}`;
  const within = sql`within(more, n, own, rows) AS MATERIALIZED (SELECT count(*) > ${int(PLACED_CANDIDATES)},
    count(*) FILTER (WHERE ${inCircle}), min(pos) FILTER (WHERE ${inCircle} AND ${ownKey(raw("k"))}),
    json_group_array(json_array(pos, k, away)) FILTER (WHERE ${inCircle}) FROM (${placed}))`;
  // The promoted key written once: each use of `bound` copies it, and the records in it, as SQLite
  // reads the statement (docs/benchmarks.md#statements-nested-deep).
  const page = numberedPage(
    sql`SELECT value ->> 0 AS pos, value ->> 2 AS away, ${promotedOf(raw("value ->> 1"), raw("value ->> 0"))} AS pk
      FROM within CROSS JOIN json_each(within.rows)`,
    order,
    { first: offset, size },
    raw("away"),
  );
  const bound = boundCte(places.fts, raw("SELECT own FROM within"));
  return sql`WITH ${flt}${within}, ${bound}, ${withTotal(page, raw("SELECT n, more FROM within"))}`;
}

/**
 * What a search in an area reads for a merge over venue databases (src/query/merged-area-names.ts;
 * without a name, one tier of every record): `candidates`, how many matches of the name and
 * filters its cover holds, counted up to `limit` (column n; past PLACED_CANDIDATES one database
 * reads only its first ones, and a merge cannot know which); `matches`, every record in the area
 * with its best tier (pos, k), its distance near a point (dist, else NULL) and the population it
 * is ranked by (size: sizedBest), read from the first candidates of each tier as bestTiers() does.
 */
export function areaMatchRows(
  places: Places,
  area: Area,
  search: Scanned,
): { candidates(limit: number): Sql; matches: Sql; window(after: number, limit: number): Sql } {
  const { tiers, everything, filters } = search;
  const fltCte = filters === null ? null : sql`flt(q) AS (SELECT ${filters})`;
  const flt = fltCte === null ? raw("") : sql`${fltCte}, `;
  const filtersText = filters === null ? null : raw("(SELECT q FROM flt)");
  const text = inCoverSql(everything, area, places.everyPlaced, filtersText);
  const cover = matchesOf(places.fts, text);
  const dist = isCircle(area) ? distanceSql(area, places.lat, places.lng) : raw("NULL");
  const inArea = sql`SELECT best.pos AS pos, best.k AS k, ${dist} AS dist
    FROM (${bestTiers(places, area, tiers, filtersText)}) best ${places.record(raw("best.pos"))}
    WHERE ${inAreaSql(area, places.lat, places.lng)}`;
  return {
    candidates: (limit) =>
      sql`WITH ${flt}counted AS (SELECT 1 FROM (${cover}) LIMIT ${num(limit, "limit")}) SELECT count(*) AS n FROM counted`,
    matches: sql`WITH ${flt}inarea AS MATERIALIZED (${inArea}) ${sizedBest(places.fts, raw("inarea"))}`,
    window: (after, limit) =>
      sql`${fltCte === null ? raw("") : sql`WITH ${fltCte} `}SELECT cand.pos AS pos, ${inAreaSql(area, places.lat, places.lng)} AS kept, ${dist} AS dist
        FROM (SELECT * FROM (${matchesOf(places.fts, text, sql`rowid > ${after}`)}) LIMIT ${limit}) cand ${places.record(raw("cand.pos"))}`,
  };
}

/** Positions (pos, rank, dist) of the records at `pos`, in that order, each with its distance near a point. */
export function placedPositions(places: Places, area: Area, pos: readonly number[]): Sql {
  const dist = isCircle(area) ? distanceSql(area, places.lat, places.lng) : raw("NULL");
  return sql`SELECT ${places.pos} AS pos, j.key AS rank, ${dist} AS dist
    FROM json_each(${JSON.stringify(pos)}) j ${places.record(raw("j.value"))}`;
}
