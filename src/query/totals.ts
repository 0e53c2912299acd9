/**
 * Totals of name searches without counting their matches where the import stored them: a one-word
 * name in every record, a country or a state (src/data-contract/scopes.ts). Any other search counts, and
 * its statement is the count the caller gives.
 */
import { scopeKeySql } from "../data-contract/scopes.ts";
import { kindTerm } from "../data-contract/grid.ts";
import { areaOf, type SearchParams } from "../params/search-params.ts";
import { sql, type Sql } from "../sql/sql.ts";
import { countryCode, ftsFilters } from "../match/filters.ts";
import { NOTHING_SQL, prefixOf } from "../match/fts.ts";
import { cappedCount, matchesOf } from "../match/capped.ts";
import type { ResourceQueries } from "./resource.ts";
import type { Reading } from "./typos.ts";

/** The stored-total scope of a search's region filters, or null when none is stored for them. */
function regionScope(p: SearchParams): Sql | null {
  const plain = p.cityId === undefined && p.cityName === undefined && p.state === undefined && areaOf(p) === undefined;
  if (!plain || (p.stateCode !== undefined && p.country === undefined)) return null;
  return scopeKeySql(p.country === undefined ? null : countryCode(p.country), p.stateCode);
}

/** The stored-total scope of a name search's filters (no kind among them), or null. */
const storedScope = (p: SearchParams): Sql | null => (p.kind === undefined ? regionScope(p) : null);

/** The stored total of the venues of a kind in a region, or null when none is stored for the search. */
export function storedKindTotal(p: SearchParams): Sql | null {
  const scope = regionScope(p);
  if (p.kind === undefined || p.name !== undefined || scope === null) return null;
  return sql`SELECT coalesce((SELECT n FROM name_prefix_counts WHERE kind = 'venue' AND scope = ${scope} AND prefix = ${kindTerm(p.kind)}), 0) AS n`;
}

/** The total of the venues of a kind in a region from its stored total when there is one, else `count`. */
export const kindTotal = (p: SearchParams, count: Sql): Sql => storedKindTotal(p) ?? count;

/**
 * The total of a one-word name search from its stored total when there is one (one row: n, more
 * 0), else `count`'s row (n, more: src/match/capped.ts). UNION ALL with LIMIT 1: the count runs only
 * without a stored total.
 */
export function storedTotal<R>(q: ResourceQueries<R>, p: SearchParams, count: Sql): Sql {
  const stored = storedCount(q, p);
  return stored === null ? count : sql`${stored} UNION ALL SELECT * FROM (${count}) LIMIT 1`;
}

/** The stored total of a one-word name search (a row n, more 0; none when not stored), or null where none may be. */
export function storedCount<R>(q: ResourceQueries<R>, p: SearchParams): Sql | null {
  const scope = storedScope(p);
  const word = p.nameWords.length === 1 ? p.nameWords[0] : undefined;
  if (word === undefined || scope === null) return null;
  return sql`SELECT n, 0 AS more FROM name_prefix_counts WHERE kind = ${q.prefixKind} AND scope = ${scope} AND prefix = ${word}`;
}

/**
 * The total of a one-word name search forgiving typos: the records any reading matches. When one
 * reading is a broad word (a stored total in the scope), its stored total plus the records of the
 * other readings that it does not match (counted over the first CANDIDATES of them), so a common
 * correction ("clbu" → "club") is not counted record by record; otherwise `count` (few records, or
 * several broad words: rare).
 */
export function readingsTotal<R>(q: ResourceQueries<R>, p: SearchParams, list: readonly Reading[], count: Sql): Sql {
  const scope = storedScope(p);
  if (scope === null || list.some((r) => r.words.length !== 1)) return count;
  const filters = ftsFilters(p, q.fts);
  const readingsJson = JSON.stringify(list.map((r) => [r.words[0] ?? "", prefixOf(r.words[0] ?? "")]));
  // Never NULL (FTS5 refuses a NULL text), though only read when there is one broad reading.
  const others = sql`'(' || coalesce((SELECT text FROM rest), ${NOTHING_SQL}) || ') NOT ' || coalesce((SELECT text FROM broad), ${NOTHING_SQL})`;
  const text = filters === null ? others : sql`'(' || ${others} || ') AND (' || ${filters} || ')'`;
  const restCount = cappedCount(matchesOf(q.fts, text), null);
  // CROSS JOIN: the readings drive the lookups (without statistics, SQLite would rather read every
  // stored total of the scope).
  return sql`WITH readings AS (SELECT value ->> 0 AS word, value ->> 1 AS text FROM json_each(${readingsJson})),
    broad AS (SELECT r.word, r.text, c.n FROM readings r CROSS JOIN name_prefix_counts c
              ON c.kind = ${q.prefixKind} AND c.scope = ${scope} AND c.prefix = r.word),
    rest AS (SELECT group_concat(text, ' OR ') AS text FROM readings WHERE word NOT IN (SELECT word FROM broad))
    SELECT (SELECT n FROM broad) + counts.n AS n, counts.more AS more
    FROM (${restCount}) counts
    WHERE (SELECT count(*) FROM broad) = 1
    UNION ALL SELECT * FROM (${count}) LIMIT 1`;
}
