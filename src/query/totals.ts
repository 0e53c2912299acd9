/**
 * Totals of name searches without counting their matches where the import stored them: a one-word
 * name in every record, a country or a state (src/data-contract/scopes.ts). Any other search counts, and
 * its statement is the count the caller gives.
 */
import { scopeKeySql } from "../data-contract/scopes.ts";
import { kindTerm } from "../data-contract/grid.ts";
import { areaOf, type SearchParams } from "../params/search-params.ts";
import { raw, sql, type Sql } from "../sql/sql.ts";
import { countryCode, ftsFilters } from "../match/filters.ts";
import { prefixOf } from "../match/fts.ts";
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

/** The total of the venues of a kind in a region from its stored total when there is one, else `count`. */
export function kindTotal(p: SearchParams, count: Sql): Sql {
  const scope = regionScope(p);
  if (p.kind === undefined || p.name !== undefined || scope === null) return count;
  return sql`SELECT coalesce((SELECT n FROM name_prefix_counts WHERE kind = 'venue' AND scope = ${scope} AND prefix = ${kindTerm(p.kind)}), 0) AS n`;
}

/** The total of a one-word name search from its stored total when there is one, else `count`. */
export function storedTotal<R>(q: ResourceQueries<R>, p: SearchParams, count: Sql): Sql {
  const scope = storedScope(p);
  const word = p.nameWords.length === 1 ? p.nameWords[0] : undefined;
  if (word === undefined || scope === null) return count;
  return sql`SELECT coalesce((SELECT n FROM name_prefix_counts WHERE kind = ${q.prefixKind} AND scope = ${scope} AND prefix = ${word}), (${count})) AS n`;
}

/**
 * The total of a one-word name search forgiving typos: the records any reading matches. When one
 * reading is a broad word (a stored total in the scope), its stored total plus the records of the
 * other readings that it does not match, so a common correction ("clbu" → "club") is not counted
 * record by record; otherwise `count` (few records, or several broad words: rare).
 */
export function readingsTotal<R>(q: ResourceQueries<R>, p: SearchParams, list: readonly Reading[], count: Sql): Sql {
  const scope = storedScope(p);
  if (scope === null || list.some((r) => r.words.length !== 1)) return count;
  const fts = raw(q.fts);
  const filters = ftsFilters(p, q.fts);
  const readingsJson = JSON.stringify(list.map((r) => [r.words[0] ?? "", prefixOf(r.words[0] ?? "")]));
  const others = sql`'(' || (SELECT text FROM rest) || ') NOT ' || (SELECT text FROM broad)`;
  // CROSS JOIN: the readings drive the lookups (without statistics, SQLite would rather read every
  // stored total of the scope).
  return sql`WITH readings AS (SELECT value ->> 0 AS word, value ->> 1 AS text FROM json_each(${readingsJson})),
    broad AS (SELECT r.word, r.text, c.n FROM readings r CROSS JOIN name_prefix_counts c
              ON c.kind = ${q.prefixKind} AND c.scope = ${scope} AND c.prefix = r.word),
    rest AS (SELECT group_concat(text, ' OR ') AS text FROM readings WHERE word NOT IN (SELECT word FROM broad))
    SELECT CASE (SELECT count(*) FROM broad)
      WHEN 1 THEN (SELECT n FROM broad) + CASE WHEN (SELECT text FROM rest) IS NULL THEN 0
        ELSE (SELECT count(*) FROM ${fts} WHERE ${fts} MATCH ${
          filters === null ? others : sql`'(' || ${others} || ') AND (' || ${filters} || ')'`
        }) END
      ELSE (${count}) END AS n`;
}
