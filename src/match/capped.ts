/**
 * What a search that cannot seek reads at most (docs/api.md#what-one-request-may-cost). Its
 * matches are FTS5 matches in pos order, each checked (src/match/one-name.ts, a point in an area),
 * so every such read stops after the first CANDIDATES matches of the search index (in an area,
 * PLACED_CANDIDATES: each is read with its record and maybe its city), whatever the checks keep. A
 * total counted over them is exact when fewer matched, and a lower bound (`more`) otherwise; a
 * page reads no further than the window of src/params/window.ts within them.
 */
import { int, raw, sql, type Sql } from "../sql/sql.ts";
import type { Fts } from "./one-name.ts";

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
