/**
 * What a search that cannot seek reads at most (docs/api.md#what-one-request-may-cost). Its
 * matches are FTS5 matches in pos order, each checked (src/match/one-name.ts, a point in an area),
 * so every such read stops after the first CANDIDATES matches of the search index (in an area,
 * PLACED_CANDIDATES: each is read with its record and maybe its city), whatever the checks keep. A
 * total counted over them is exact when fewer matched, and a lower bound (`more`) otherwise; a
 * page reads no further than the window of src/params/window.ts within them.
 */
import { NAME_SLOTS } from "../data-contract/name-sets.ts";
import { NAMES_APART } from "../data-contract/tokens.ts";
import { int, raw, sql, type Sql } from "../sql/sql.ts";
import { aNameOf, NAMES_INDEX, oneNameOf, type Fts } from "./one-name.ts";
import { matchesMarked } from "./own-names.ts";

/** Matches of a city's total that are asked one by one, past which it reads streams of the index (heldCount). */
const FEW_CANDIDATES = 64;

/** Candidates read at most by one part of a search: its total, a tier of its page, a check. */
export const CANDIDATES = 5_000;
/** The same for a search in an area that places each candidate (its record, maybe its city: 2-3 rows). */
export const PLACED_CANDIDATES = 1_500;
/**
 * The same for the name tiers of a page in a box read one after another (src/geo/box-page.ts): all
 * of them together, so that the tier that holds most of the page may read past PLACED_CANDIDATES.
 */
export const STREAMED_CANDIDATES = 3 * PLACED_CANDIDATES;
/**
 * Records measured at most on the edge of an area whose inside is counted from the grid (src/geo/:
 * a row or two each, from the cells' index, and read again when they are the page). The edges of
 * thin strips across dense places measure thousands (a strip of 0.01° of latitude through London
 * at 1M venues: about 8,000); the total is a lower bound past it.
 */
export const EDGE_RECORDS = 2_500;

/** A candidate's pos, as the conditions on candidates name it (its table `cand`: never a column name of the tables they read). */
export const CANDIDATE_POS = raw("cand.pos");

/** How candidates are read: their limit, and a join that places them (after `cand`). */
export interface Reading {
  limit: number;
  join?: Sql;
}

const NAMES: Reading = { limit: CANDIDATES };

/** The first `limit` (+ `extra`) rows of `candidates` (a SELECT with column pos, in pos order) as `cand`, joined. */
const first = (candidates: Sql, r: Reading, extra = 0): Sql =>
  sql`(SELECT * FROM (${candidates}) LIMIT ${int(r.limit + extra)}) cand${r.join === undefined ? raw("") : sql` ${r.join}`}`;

/**
 * One row (n, more): of the first candidates, how many `kept` keeps (a condition on CANDIDATE_POS
 * and the join's columns; null: all), and 1 in `more` when there were more candidates than the
 * limit (n is then a lower bound of the total).
 */
export function cappedCount(candidates: Sql, kept: Sql | null, r: Reading = NAMES): Sql {
  const n = kept === null ? raw("count(*)") : sql`count(*) FILTER (WHERE ${kept})`;
  return sql`SELECT ${n} AS n, count(*) > ${int(r.limit)} AS more FROM ${first(candidates, r, 1)}`;
}

/**
 * One row (n, more), as cappedCount() counts it: of the first matches of `match` (FTS5 text, an SQL
 * expression) in pos order, those one of whose names matches `held` (FTS5 text of a name:
 * oneNameText()). A venue's come as two streams of the index merged, those without names apart
 * (NAMES_APART: the document's match suffices) and those with, each asked once (matchesMarked):
 * few venues have names apart. Most cities have them (every large one), and such a stream costs
 * them more than asking each (oneNameOf) — unless there is no filter (`unfiltered`: the names'
 * index has no filter tokens) and more than FEW_CANDIDATES match: then a city's total asks none. It
 * counts those without names apart and, instead of the others, the cities of the names' index that
 * match, each once, up to the last of the first matches (a name's match is its record's document's,
 * so that stream holds no city that is not one of them).
 */
export function heldCount(fts: Fts, match: Sql, held: Sql, unfiltered: boolean): Sql {
  if (fts !== "cities_fts") {
    return cappedCount(matchesMarked(fts, match), sql`cand.plain = 1 OR ${aNameOf(fts, CANDIDATE_POS, held)}`);
  }
  if (!unfiltered) return cappedCount(matchesOf(fts, match), oneNameOf(fts, CANDIDATE_POS, held));
  const asked = sql`(SELECT count(*) FROM cand WHERE ${oneNameOf(fts, CANDIDATE_POS, held)})`;
  const index = raw(fts);
  const names = raw(NAMES_INDEX[fts]);
  const streamed = sql`(SELECT count(*) FROM ${index} WHERE ${index} MATCH '(' || ${match} || ${`) NOT "${NAMES_APART}"`} AND rowid <= last.p)
      + (SELECT count(DISTINCT rowid / ${int(NAME_SLOTS)}) FROM ${names} WHERE ${names} MATCH ${held}
         AND rowid < (last.p + 1) * ${int(NAME_SLOTS)})`;
  // A subquery: its statement may open with filters' common table expressions (src/query/names.ts).
  return sql`SELECT n, more FROM (WITH cand AS MATERIALIZED (SELECT * FROM (${matchesOf(fts, match)}) LIMIT ${int(CANDIDATES + 1)})
    SELECT CASE WHEN last.k <= ${int(FEW_CANDIDATES)} THEN ${asked} ELSE ${streamed} END AS n, last.more AS more
    FROM (SELECT max(pos) AS p, count(*) AS k, count(*) > ${int(CANDIDATES)} AS more FROM cand) last)`;
}

/** The pos of the first candidates that `kept` keeps (all when null), in their order. */
export const keptOfFirst = (candidates: Sql, kept: Sql | null, r: Reading = NAMES): Sql =>
  sql`SELECT cand.pos AS pos FROM ${first(candidates, r)}${kept === null ? raw("") : sql` WHERE ${kept}`}`;

/**
 * The matches of FTS5 text `match` (an SQL expression) in `fts`, as candidates (column pos, in pos
 * order); `rowids`, a condition on column rowid, narrows them where FTS5 seeks (a range of pos).
 */
export const matchesOf = (fts: Fts, match: Sql, rowids?: Sql): Sql =>
  sql`SELECT rowid AS pos FROM ${raw(fts)} WHERE ${raw(fts)} MATCH ${match}${rowids === undefined ? raw("") : sql` AND ${rowids}`} ORDER BY rowid`;

/** Whether one of the first matches of `match` is kept by `kept` (null: any). */
export const anyKept = (fts: Fts, match: Sql, kept: Sql | null): Sql =>
  sql`EXISTS (${keptOfFirst(matchesOf(fts, match), kept)})`;

/** The first of the first matches of `match` that `kept` keeps, or NULL. */
export const firstKept = (fts: Fts, match: Sql, kept: Sql | null): Sql =>
  sql`(SELECT pos FROM (${keptOfFirst(matchesOf(fts, match), kept)}) LIMIT 1)`;
