/**
 * The page of a search inside a box, in the default order (docs/api.md#order: name class, tier,
 * pos): its name tiers read in pos order from the cells that cover the box, the records outside the
 * box skipped, until the page is full (docs/architecture.md#places-on-a-grid).
 */
import {
  CANDIDATE_POS,
  keptOfFirst,
  matchesOf,
  PLACED_CANDIDATES,
  STREAMED_CANDIDATES,
  type Reading,
} from "../match/capped.ts";
import { classOfKey, numberedPage, OWN, rankOrder } from "../data-contract/ranking.ts";
import { boundCte, othersApart, promotedOf, rankedCtes } from "../match/own-names.ts";
import { int, num, raw, sql, unionAll, type Sql } from "../sql/sql.ts";
import { inAreaSql, inCoverSql } from "./area.ts";
import { anyOf, butNot, NOTHING_SQL } from "../match/fts.ts";
import { holdsLongPrefix } from "../match/long-words.ts";
import type { Places } from "./places.ts";
import type { Box } from "../data-contract/distance.ts";

/**
 * A part of a box's page: FTS5 text (null: every record) and its tierKey (src/data-contract/ranking.ts),
 * with what a candidate's names must hold for a words tier (src/match/one-name.ts; none: its match).
 */
export interface BoxTier {
  key: number;
  text: string | null;
  held?: Sql | null;
}

/** How a search in an area reads its candidates: each with its record, at most PLACED_CANDIDATES. */
export const placedReading = (places: Places): Reading => ({
  limit: PLACED_CANDIDATES,
  join: places.record(CANDIDATE_POS),
});

/** A candidate lies in the box and, where `held` is given, its names hold what it says (src/match/one-name.ts). */
export function inBoxHeld(places: Places, box: Box, held: Sql | null): Sql {
  const inBox = inAreaSql(box, places.lat, places.lng);
  return held === null ? inBox : sql`${inBox} AND ${held}`;
}

/** Where a box's page is read from: its places, box, filters (an SQL expression of FTS5 text, or null), and how far. */
interface BoxRead {
  places: Places;
  box: Box;
  filters: Sql | null;
  /** The page's end, where every tier stops: one bound value for them all (D1 binds at most 100). */
  need: Sql;
}

/**
 * The pos of a tier's records in the box, in pos order, from its first candidates (at most
 * PLACED_CANDIDATES); `rowids` narrows the candidates (matchesOf), `unless` reads nothing when true.
 */
function tierRecords(r: BoxRead, text: string | null, held: Sql | null, rowids?: Sql, unless?: Sql): Sql {
  const kept = inBoxHeld(r.places, r.box, held);
  return keptOfFirst(matchesOf(r.places.fts, tierMatch(r, text, unless), rowids), kept, placedReading(r.places));
}

/** The FTS5 text (an SQL expression) of a tier's candidates in the box's cover, within the filters; nothing when `unless`. */
function tierMatch(r: BoxRead, text: string | null, unless?: Sql): Sql {
  const own = inCoverSql(text, r.box, r.places.everyPlaced, r.filters);
  return unless === undefined ? own : sql`CASE WHEN ${unless} THEN ${NOTHING_SQL} ELSE ${own} END`;
}

/**
 * The tiers' texts made disjoint (each but the first without the records of those before it), or
 * null when they cannot be: a tier whose candidates' names are checked (`held`) before another,
 * whose records matched by its text but not so held belong to the later one. Nor with a prefix
 * longer than FTS5's prefix index: each disjoint text names the tiers' before it again, and FTS5
 * merges such a prefix's lists whole each time (src/match/long-words.ts).
 */
function disjointTiers(tiers: readonly BoxTier[]): BoxTier[] | null {
  const sorted = [...tiers].sort((a, b) => a.key - b.key);
  if (sorted.slice(0, -1).some((t) => (t.held ?? null) !== null || t.text === null)) return null;
  if (sorted.some((t) => t.text !== null && holdsLongPrefix(t.text))) return null;
  return sorted.map((t, i) => {
    const before = sorted.slice(0, i).map((b) => b.text ?? "");
    return i === 0 || t.text === null ? t : { ...t, text: butNot(t.text, anyOf(before)) };
  });
}

/**
 * The records of disjoint tiers (disjointTiers) read one after another in the order of their keys,
 * as one stream of candidates (at most STREAMED_CANDIDATES in all) whose records in the box stop it
 * at the page's end: a tier behind those that already hold the page is not read. `othersRowids`
 * narrows the candidates of another name's tiers (matchesOf).
 */
function tiersInOrder(r: BoxRead, tiers: readonly BoxTier[], othersRowids: Sql, unless?: Sql): Sql {
  const candidates = tiers.map((t) => {
    const rowids = classOfKey(t.key) === OWN ? undefined : othersRowids;
    return sql`SELECT ${int(t.key)} AS k, pos FROM (${matchesOf(r.places.fts, tierMatch(r, t.text, unless), rowids)})`;
  });
  const last = tiers.at(-1);
  const held = last?.held ?? null;
  const lastHeld = last === undefined || held === null ? null : sql`(cand.k <> ${int(last.key)} OR ${held})`;
  const first = sql`(SELECT * FROM (${unionAll(candidates)}) LIMIT ${int(STREAMED_CANDIDATES)}) cand`;
  return sql`SELECT cand.k AS k, cand.pos AS pos FROM ${first} ${r.places.record(CANDIDATE_POS)}
    WHERE ${inBoxHeld(r.places, r.box, lastHeld)} LIMIT ${r.need}`;
}

/**
 * A page of several tiers whose texts are disjoint, each record in its best tier, read in order
 * (tiersInOrder). Only a record found by another name that is far larger (src/match/own-names.ts)
 * ranks out of its tier's order: those (pos up to the bound, which the first record found by an own
 * name in the box gives) are read apart, each tier up to the page's end, and the tiers read in order
 * start past them.
 */
function streamedPage(r: BoxRead, tiers: readonly BoxTier[], offset: number, size: number, unless?: Sql): Sql {
  const own = tiers.filter((t) => classOfKey(t.key) === OWN).map((t) => t.text ?? "");
  const others = tiers.filter((t) => classOfKey(t.key) !== OWN);
  const firstOwn =
    own.length === 0
      ? raw("SELECT NULL AS own")
      : sql`SELECT (SELECT pos FROM (${tierRecords(r, anyOf(own), null)}) LIMIT 1) AS own`;
  const bound = raw("(SELECT coalesce(b, -1) FROM bound)");
  // Without a bound (most searches: none is far larger) the far larger's texts are not searched at all.
  const noBound = raw("(SELECT b FROM bound) IS NULL");
  const skip = unless === undefined ? noBound : sql`(${unless}) OR ${noBound}`;
  const farLarger = others.map(
    (t) =>
      sql`SELECT * FROM (SELECT ${int(t.key)} AS k, pos FROM (${tierRecords(r, t.text, t.held ?? null, sql`rowid <= ${bound}`, skip)}) LIMIT ${r.need})`,
  );
  const inOrder = tiersInOrder(r, tiers, sql`rowid > ${bound}`, unless);
  const order = rankOrder({ key: raw("k"), pos: raw("pos") });
  return sql`WITH ${boundCte(r.places.fts, firstOwn)},
    best AS MATERIALIZED (SELECT * FROM (${inOrder})${farLarger.length === 0 ? raw("") : sql` UNION ALL ${unionAll(farLarger)}`}),
    ranked AS (SELECT pos, ${promotedOf(raw("k"), raw("pos"))} AS k FROM best)
    ${numberedPage(raw("SELECT * FROM ranked"), order, { first: offset, size })}`;
}

/**
 * The positions of a page inside a box, in the order of the tiers and pos: each tier reads its
 * records in pos order from the box's cover, skipping those outside the box, up to the page's end.
 * `filters` (an SQL expression of FTS5 text) narrows every tier; `unless` (an SQL condition) reads
 * nothing when true.
 */
export function boxPage(
  places: Places,
  box: Box,
  tiers: readonly BoxTier[],
  filters: Sql | null,
  offset: number,
  size: number,
  unless?: Sql,
): Sql {
  const r: BoxRead = { places, box, filters, need: num(offset + size, "limit") };
  const [only] = tiers;
  const apart = tiers.map((t) =>
    classOfKey(t.key) === OWN || t.text === null ? t : { ...t, text: othersApart(places.fts, t.text) },
  );
  if (tiers.length === 1 && only !== undefined) {
    // One tier: pos is the order (no other tier's record to promote), its records read once.
    const records = tierRecords(r, only.text, only.held ?? null, undefined, unless);
    return sql`WITH tier AS MATERIALIZED (SELECT pos FROM (${records}) LIMIT ${r.need})
      ${numberedPage(raw("SELECT pos FROM tier"), raw("pos"), { first: offset, size })}`;
  }
  const disjoint = disjointTiers(apart);
  if (disjoint !== null) return streamedPage(r, disjoint, offset, size, unless);
  const parts = apart.map((tier) => {
    const read = tierRecords(r, tier.text, tier.held ?? null, undefined, unless);
    return sql`SELECT ${int(tier.key)} AS k, pos FROM (SELECT pos FROM (${read}) LIMIT ${r.need})`;
  });
  const order = rankOrder({ key: raw("k"), pos: raw("pos") });
  const best = sql`SELECT pos, min(k) AS k FROM (${unionAll(parts)}) GROUP BY pos`;
  return sql`WITH ${rankedCtes(places.fts, best)} ${numberedPage(raw("SELECT * FROM ranked"), order, { first: offset, size })}`;
}
