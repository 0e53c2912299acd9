/**
 * Whether a search's filters, kind and area may hold any record at all. When they hold none, no
 * reading of its name can match, typos forgiven or not: the typo fallback (forgiving.ts) is not
 * run, and the answer is the strict one, empty (docs/api.md#typo-tolerance). In an area, the
 * cells that cover it stand for it (src/geo/area.ts): a record there may lie outside the area
 * itself, so "may hold" is all it says, and it is read from the search index alone, the first
 * match ending it (an area's own count may cost as much as its search without a name: a band
 * around the world read 25,380 rows so).
 */
import { coverText } from "../geo/area.ts";
import { ftsFilters } from "../match/filters.ts";
import { areaOf, type SearchParams } from "../params/search-params.ts";
import { numbered, raw, sql, type Sql } from "../sql/sql.ts";
import type { ResourceQueries } from "./resource.ts";

/** The FTS5 text (an SQL expression) of the filters, kind and area of `p`; null without any. */
function heldText<R>(q: ResourceQueries<R>, p: SearchParams): Sql | null {
  const filters = ftsFilters(p, q.fts);
  const area = areaOf(p);
  if (area === undefined) return filters;
  const cover = coverText(area);
  return filters === null ? sql`${cover}` : sql`${`${cover} AND (`} || ${filters} || ')'`;
}

/** A statement of one row, column `n`: 1 when the filters, kind and area may hold a record; null without any. */
export function heldSql<R>(q: ResourceQueries<R>, p: SearchParams): Sql | null {
  const text = heldText(q, p);
  if (text === null) return null;
  const fts = raw(q.fts);
  return numbered(sql`SELECT EXISTS (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ${text}) AS n`);
}

/** Whether the rows of heldSql() say the filters may hold a record. */
export const holds = (rows: readonly Record<string, unknown>[] | undefined): boolean => Number(rows?.[0]?.n ?? 0) > 0;
