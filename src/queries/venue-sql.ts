/**
 * Venue search SQL (SPEC §3). Bound parameters only: user text reaches SQL as values, and FTS5
 * query text is built from normalized words and filter values, each quoted (fts.ts,
 * conditions.ts).
 *
 * `pos` is each venue's rank by (normalized name, id) and the rank columns are its position
 * within its country, state and city (migrations/). So a page is an index seek that reads the
 * page's rows, and a total is a stored number wherever the filters name a whole region or city.
 *
 * With `name`: venues whose normalized name starts with the query come first (an exact match is
 * the smallest such name, so it leads), then the other matches, each in `pos` order. The names
 * starting with the query are one contiguous `pos` range, found by two index probes; each part
 * reads at most offset + 30 rows. Filters join a name search as FTS tokens (migration 0002),
 * so name and filters are one index intersection.
 */
import { prefixEnd } from "../normalize";
import type { Language } from "../language";
import type { SearchParams } from "../params";
import { and, andFilters, filterMatch, nameTotal, rankedScope, regionConditions, statesTotal } from "./conditions";
import { ftsQuery, singleWord } from "./fts";
import { VENUE_JOINS, venueColumns } from "./columns";
import { ftsPositions, sql, withTotal, type Sql } from "./sql";

export const VENUES_PER_PAGE = 30;

/** The page's venues, in order, with their cities. */
function pageColumns(language: Language): Sql {
  const columns = venueColumns(language);
  return {
    sql: `${columns.sql} FROM page h JOIN venues v ON v.pos = h.pos ${VENUE_JOINS} ORDER BY h.tier, h.pos`,
    params: columns.params,
  };
}

/** The first pos whose name is >= the bound value: one probe of venues_by_name. */
const FIRST_POS_FROM = `coalesce((SELECT pos FROM venues WHERE name_norm >= ? ORDER BY name_norm LIMIT 1), ${Number.MAX_SAFE_INTEGER})`;

function search(positions: Sql, count: Sql, language: Language): Sql {
  return withTotal(positions, count, pageColumns(language));
}

/** The statements for a venue search, or null when it cannot match anything. */
export function venueSearchSql(p: SearchParams, language: Language = "en"): Sql | null {
  const offset = (p.page - 1) * VENUES_PER_PAGE;
  if (p.name !== undefined) return byName(p, p.name, offset, language);
  if (p.cityId !== undefined) return byCityId(p, p.cityId, offset, language);

  const ranked = p.cityName === undefined ? rankedScope(p, "venues", offset, VENUES_PER_PAGE) : null;
  if (ranked !== null) return search(ranked.positions, ranked.count, language);
  // A city by name, a state by name, or a state code in any country: page through the FTS list
  // of the filter tokens; the total is the sum of the stored totals of the cities or states.
  const filters = filterMatch(p, true);
  if (filters === null) return null;
  if (p.cityName === undefined) {
    return search(ftsPositions("venues_fts", 0, filters, VENUES_PER_PAGE, offset), statesTotal(p, "venues"), language);
  }
  const cities = and([
    sql("(c.name_norm = ? OR c.ascii_norm = ?)", p.cityName, p.cityName),
    ...regionConditions("c", p),
  ]);
  return search(
    ftsPositions("venues_fts", 0, filters, VENUES_PER_PAGE, offset),
    sql(`SELECT coalesce(sum(c.venue_count), 0) AS n FROM cities c WHERE ${cities.sql}`, ...cities.params),
    language,
  );
}

/** One city: its venues are a seek on (city_pos, city_rank); other filters apply to the city. */
function byCityId(p: SearchParams, cityId: string, offset: number, language: Language): Sql {
  const conditions = [sql("c.id = ?", cityId), ...regionConditions("c", p)];
  if (p.cityName !== undefined) conditions.push(sql("(c.name_norm = ? OR c.ascii_norm = ?)", p.cityName, p.cityName));
  const city = and(conditions);
  return search(
    sql(
      `SELECT 0 AS tier, v.pos FROM venues v
       WHERE v.city_pos = (SELECT c.pos FROM cities c WHERE ${city.sql}) AND v.city_rank > ?
       ORDER BY v.city_rank LIMIT ?`,
      ...city.params,
      offset,
      VENUES_PER_PAGE,
    ),
    sql(`SELECT coalesce((SELECT c.venue_count FROM cities c WHERE ${city.sql}), 0) AS n`, ...city.params),
    language,
  );
}

function byName(p: SearchParams, name: string, offset: number, language: Language): Sql | null {
  const match = ftsQuery(name);
  if (match === null) return null;
  const filters = filterMatch(p, true);
  const matchAll = andFilters(match, filters);
  const end = prefixEnd(name);
  // Names starting with the query are the pos range [lo, hi): the first pos with a name >= the
  // query, and the first with a name >= prefixEnd(query). The other matches are outside it.
  const lo = FIRST_POS_FROM;
  const hi = FIRST_POS_FROM;
  const others = (limit: number, skip: Sql) =>
    sql(
      `SELECT 1 AS tier, f.rowid AS pos FROM venues_fts f
       WHERE venues_fts MATCH ${matchAll.sql} AND (f.rowid < ${lo} OR f.rowid >= ${hi})
       ORDER BY f.rowid LIMIT ? OFFSET ${skip.sql}`,
      ...matchAll.params,
      name,
      end,
      limit,
      ...skip.params,
    );

  let leading: Sql;
  let rest: Sql;
  if (filters === null) {
    // The range holds hi - lo venues, all matching: seek straight to the offset in it, and
    // skip what remains of the offset in the other matches.
    leading = sql(
      `SELECT 0 AS tier, v.pos FROM venues v WHERE v.pos >= ${lo} + ? AND v.pos < ${hi} ORDER BY v.pos LIMIT ?`,
      name,
      offset,
      end,
      VENUES_PER_PAGE,
    );
    rest = others(VENUES_PER_PAGE, sql(`max(0, ? - (${hi} - ${lo}))`, offset, end, name));
  } else {
    // With filters only the matching part of the range counts: take offset + 30 of each part.
    const limit = offset + VENUES_PER_PAGE;
    leading = sql(
      `SELECT 0 AS tier, f.rowid AS pos FROM venues_fts f
       WHERE venues_fts MATCH ${filters.sql} AND f.rowid >= ${lo} AND f.rowid < ${hi}
       ORDER BY f.rowid LIMIT ?`,
      ...filters.params,
      name,
      end,
      limit,
    );
    rest = others(limit, sql("0"));
  }
  const pageOffset = filters === null ? 0 : offset;
  const positions = sql(
    `SELECT tier, pos FROM (${leading.sql}) UNION ALL SELECT tier, pos FROM (${rest.sql})
     ORDER BY tier, pos LIMIT ? OFFSET ?`,
    ...leading.params,
    ...rest.params,
    VENUES_PER_PAGE,
    pageOffset,
  );

  const count = nameTotal("venue", "venues_fts", p, singleWord(name), matchAll);
  return search(positions, count, language);
}
