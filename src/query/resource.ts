/**
 * What a search is made of: a resource's queries (venues.ts, cities.ts), a search as its
 * statements, and what runs them. Every search is made of positions: a statement whose rows are
 * (pos, rank, dist) in the answer's order, which the page statement turns into records.
 */
import type { Area } from "../data-contract/distance.ts";
import type { Language } from "../data-contract/languages.ts";
import type { ShardBox } from "../data-contract/shards.ts";
import type { Places } from "../geo/places.ts";
import type { Resource } from "../params/paging.ts";
import type { SearchParams } from "../params/search-params.ts";
import type { Sql } from "../sql/sql.ts";

/**
 * A search as two statements, its total (one row, column n) and its page's positions; or, in an
 * area (src/geo/), one statement whose position rows carry the total (column total), one row of
 * the total alone when the page is empty.
 */
export interface Search {
  count?: Sql;
  positions: Sql;
  /**
   * For a name search outside an area: an SQL condition, true when some record's name is or
   * starts with the name (the first two tiers, docs/api.md#order), which typos never overrule.
   */
  stands?: Sql;
  /**
   * For a name search outside an area, its parts over several venue databases (merged-names.ts):
   * each record's best key with its size (src/match/own-names.ts: sizedBest), and its total's count
   * within `limit` candidates; for a page deeper than they read whole, the tiers' keys in order and
   * a statement of slices of them (each read's rows k, pos and size: merged-slices.ts).
   */
  merge?: {
    best: Sql;
    countWithin(limit: number): Sql;
    keys: readonly number[];
    slices(slices: readonly TierSlice[]): Sql;
  };
  /** For a name search in an area, its reads over several venue databases. */
  inArea?: InAreaMerge;
}

/**
 * A name search in an area, its reads over several venue databases (merged-area-names.ts): its
 * candidates counted up to a limit (column n), every record in the area with its best tier (pos,
 * k, dist, size), and the positions of records by their pos, each with its distance near a point.
 */
export interface InAreaMerge {
  area: Area;
  candidates(limit: number): Sql;
  matches: Sql;
  placed(pos: readonly number[]): Sql;
  /**
   * Its cover's candidates after pos `after`, at most `limit`, in pos order, each placed: its pos,
   * whether it lies in the area (kept) and its distance near a point (dist, else NULL).
   */
  window(after: number, limit: number): Sql;
}

/**
 * What a merge reads of the tier `key` in one venue database (merged-slices.ts): its matches after
 * pos `after` (null: from its first) up to pos `until` (null: no bound), at most `limit`.
 */
export interface TierSlice {
  key: number;
  after: number | null;
  until: number | null;
  limit: number;
}

/**
 * What runs statements: a D1 session (src/d1/session.ts), one round trip per call; `names`, when
 * a trip (trip.ts) gives them, say what each statement is (npm run sql prints them).
 */
export interface Runner {
  /** Boxes that hold every venue's point in the database it runs in, where known (a venue database's bounds). */
  readonly within?: readonly ShardBox[];
  run(
    what: string,
    statements: readonly Sql[],
    names?: readonly string[],
  ): Promise<{ rows: Record<string, unknown>[] }[]>;
}

/** D1's simultaneous connections an invocation may open, less the one the main database's session holds. */
const AT_ONCE = 5;

/** `run` for each runner (several databases: src/d1/route.ts), at most AT_ONCE at once; the results in their order. */
export async function eachAtOnce<T>(
  runners: readonly Runner[],
  run: (r: Runner, i: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (let at = 0; at < runners.length; at += AT_ONCE) {
    results.push(...(await Promise.all(runners.slice(at, at + AT_ONCE).map((r, i) => run(r, at + i)))));
  }
  return results;
}

/** What a resource module provides. */
export interface ResourceQueries<R> {
  resource: Resource;
  fts: "venues_fts" | "cities_fts";
  /** The one-word totals stored for this resource (name_prefix_counts.kind). */
  prefixKind: "venue" | "city";
  /** Searches without a name and without a point. */
  browse(p: SearchParams, offset: number): Search | null;
  /** Where its records and their points are (src/geo/cells.ts). */
  places: Places;
  /** The records of a page, from its positions, in order; with their total when the positions carry it. */
  page(positions: Sql, language: Language, total: boolean): Sql;
  /** A row of the page statement as a record. */
  record(row: Record<string, unknown>): R;
  /** A record's id (a venue id, a city's geonameid). */
  id(record: R): string;
  /** The normalized names of a record (for the suggestion of a fuzzy answer). */
  names(record: R): string[];
}
