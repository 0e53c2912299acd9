/**
 * Whether a search's filters, kind and area hold any record at all. When they hold none, no
 * reading of its name can match, typos forgiven or not: the typo fallback (forgiving.ts) is not
 * run, and the answer is the strict one, empty (docs/api.md#typo-tolerance).
 */
import { ftsFilters } from "../match/filters.ts";
import { areaOf, hasFilters, type SearchParams } from "../params/search-params.ts";
import { areaPositions } from "../geo/index.ts";
import { numbered, raw, sql, type Sql } from "../sql/sql.ts";
import type { ResourceQueries, Runner } from "./resource.ts";

/** One statement of one row whose column `total` is above 0 when the filters hold a record; null without filters. */
export function heldSql<R>(q: ResourceQueries<R>, p: SearchParams): Sql | null {
  const area = areaOf(p);
  if (area !== undefined) {
    const params: SearchParams = { ...p, nameWords: [] };
    delete params.name;
    const query = { places: q.places, kind: q.prefixKind, area, tiers: [], everything: null, params };
    return numbered(areaPositions({ ...query, offset: 0, size: 1 }));
  }
  if (!hasFilters(p) && p.kind === undefined) return null;
  const filters = ftsFilters(p, q.fts);
  if (filters === null) return null;
  const fts = raw(q.fts);
  return numbered(sql`SELECT EXISTS (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ${filters}) AS total`);
}

/** Whether the rows of heldSql() say the filters hold a record. */
export const holds = (rows: readonly Record<string, unknown>[] | undefined): boolean =>
  Number(rows?.[0]?.total ?? 0) > 0;

/** Whether the filters, kind and area of `p` hold a record (true without any), in one round trip. */
export async function filtersHold<R>(q: ResourceQueries<R>, session: Runner, p: SearchParams): Promise<boolean> {
  const statement = heldSql(q, p);
  if (statement === null) return true;
  const [result] = await session.run(`${q.resource} search: whether its filters hold a record`, [statement]);
  return holds(result?.rows);
}
