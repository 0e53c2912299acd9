/**
 * Whether a search's filters and kind hold any record at all. When they hold none, no reading of
 * its name can match, typos forgiven or not: the typo fallback (forgiving.ts) is not run, and the
 * answer is the strict one, empty (docs/api.md#typo-tolerance). Not asked in an area: whether an
 * area holds a record may cost as much as its search without a name (a band around the world:
 * 25,000 rows read).
 */
import { ftsFilters } from "../match/filters.ts";
import { areaOf, type SearchParams } from "../params/search-params.ts";
import { numbered, raw, sql, type Sql } from "../sql/sql.ts";
import type { ResourceQueries } from "./resource.ts";

/** A statement of one row, column `n`: 1 when the filters hold a record; null in an area or without filters. */
export function heldSql<R>(q: ResourceQueries<R>, p: SearchParams): Sql | null {
  const filters = areaOf(p) === undefined ? ftsFilters(p, q.fts) : null;
  if (filters === null) return null;
  const fts = raw(q.fts);
  return numbered(sql`SELECT EXISTS (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ${filters}) AS n`);
}

/** Whether the rows of heldSql() say the filters hold a record. */
export const holds = (rows: readonly Record<string, unknown>[] | undefined): boolean => Number(rows?.[0]?.n ?? 0) > 0;
