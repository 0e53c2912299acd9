/**
 * City search SQL (SPEC §3), as statements with bound values; FTS5 text from fts.ts and
 * conditions.ts, quoted.
 *
 * `pos` is each city's rank by population (largest first) then id, and the rank columns are
 * its position within its country and state (migrations/): a page of a country or a state is
 * an index seek, and region totals are stored numbers.
 *
 * `name` matches when every query word starts a word of one of the city's names (name, ASCII
 * name, GeoNames alternate names). Order: cities with a name equal to the query, then with a
 * name starting with it, then the other matches; each in `pos` order. Each of the three is one
 * FTS query on cities_fts (one document per city, rowid = pos), so it streams in order and
 * reads at most offset + 50 matches; filters join as FTS tokens (migration 0002).
 */
import type { Language } from "../language";
import type { SearchParams } from "../params";
import { andFilters, filterMatch, nameTotal, rankedScope, statesTotal } from "./conditions";
import { cityNameQueries, singleWord } from "./fts";
import { CITY_JOINS, cityColumns } from "./columns";
import { ftsPositions, sql, withTotal, type Sql } from "./sql";

export const CITIES_PER_PAGE = 50;

/** The page's cities, in order. */
function pageColumns(language: Language): Sql {
  const columns = cityColumns(language);
  return {
    sql: `${columns.sql} FROM page h JOIN cities c ON c.pos = h.pos ${CITY_JOINS} ORDER BY h.tier, h.pos`,
    params: columns.params,
  };
}

function search(positions: Sql, count: Sql, language: Language): Sql {
  return withTotal(positions, count, pageColumns(language));
}

/** The statements for a city search, or null when it cannot match anything. */
export function citySearchSql(p: SearchParams, language: Language = "en"): Sql | null {
  const offset = (p.page - 1) * CITIES_PER_PAGE;
  if (p.name !== undefined) return byName(p, p.name, offset, language);

  const ranked = rankedScope(p, "cities", offset, CITIES_PER_PAGE);
  if (ranked !== null) return search(ranked.positions, ranked.count, language);
  // A state by name (maybe in several countries), or a state code in any country: page
  // through the FTS list of the filter tokens; the total is the sum of stored state totals.
  const filters = filterMatch(p, false);
  if (filters === null) return null;
  return search(ftsPositions("cities_fts", 0, filters, CITIES_PER_PAGE, offset), statesTotal(p, "cities"), language);
}

function byName(p: SearchParams, name: string, offset: number, language: Language): Sql | null {
  const q = cityNameQueries(name);
  if (q === null) return null;
  const filters = filterMatch(p, false);
  const limit = offset + CITIES_PER_PAGE;
  const exact = ftsPositions("cities_fts", 0, andFilters(q.exact, filters), limit, 0);
  const starts = ftsPositions("cities_fts", 1, andFilters(`(${q.starts} NOT ${q.exact})`, filters), limit, 0);
  const others = ftsPositions("cities_fts", 2, andFilters(`(${q.words} NOT ${q.starts})`, filters), limit, 0);
  const positions = sql(
    `SELECT tier, pos FROM (${exact.sql})
     UNION ALL SELECT tier, pos FROM (${starts.sql})
     UNION ALL SELECT tier, pos FROM (${others.sql})
     ORDER BY tier, pos LIMIT ? OFFSET ?`,
    ...exact.params,
    ...starts.params,
    ...others.params,
    CITIES_PER_PAGE,
    offset,
  );

  const count = nameTotal("city", "cities_fts", p, singleWord(name), andFilters(q.words, filters));
  return search(positions, count, language);
}
