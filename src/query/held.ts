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
import { raw, sql, type Sql } from "../sql/sql.ts";
import type { ResourceQueries } from "./resource.ts";

/** The FTS5 text (an SQL expression) of the filters, kind and area of `p`; null without any. */
function heldText<R>(q: ResourceQueries<R>, p: SearchParams): Sql | null {
  const filters = ftsFilters(p, q.fts);
  const area = areaOf(p);
  if (area === undefined) return filters;
  const cover = coverText(area);
  return filters === null ? sql`${cover}` : sql`${`${cover} AND (`} || ${filters} || ')'`;
}

/**
 * An SQL condition: the filters, kind and area of `p` may hold a record; null without any. Read as a
 * column of the corrections' row (corrections.ts), which a search reads only when its strict answer
 * does not stand: a search whose name is found pays nothing for it.
 */
export function heldSql<R>(q: ResourceQueries<R>, p: SearchParams): Sql | null {
  const text = heldText(q, p);
  if (text === null) return null;
  const fts = raw(q.fts);
  return sql`EXISTS (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ${text})`;
}

/** Whether the filters may hold a record, from the corrections' row: undefined when it was not read or did not ask. */
export const holds = (row: Record<string, unknown> | undefined): boolean | undefined =>
  row?.held === undefined || row.held === null ? undefined : Number(row.held) !== 0;
