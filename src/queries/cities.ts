/**
 * City search SQL (SPEC §3). Bound parameters only; FTS5 text from ftsQuery.
 *
 * `name` matches the city's name, ASCII name or any GeoNames alternate name (city_names, one
 * row per distinct normalized name, id = city pos * 1024 + ordinal). Order: cities with a
 * name equal to the query, then with a name starting with it, then the other matches; within
 * each by population (largest first) then id — which is `pos` order.
 */
import { countAndPage } from "../db";
import { prefixEnd } from "../normalize";
import type { SearchParams } from "../params";
import type { CityRecord, Page } from "../records";
import { and, regionConditions } from "./conditions";
import { ftsQuery } from "./fts";

export const CITIES_PER_PAGE = 50;

interface CityRow {
  id: string;
  name: string;
  state: string | null;
  state_code: string | null;
  lat: number;
  lng: number;
  country_code: string;
  country_name: string;
}

const PAGE_COLUMNS = `
  SELECT c.id, c.name, a.name AS state, c.admin1_code AS state_code, c.lat, c.lng,
         c.country_code, co.name AS country_name
  FROM page h
  JOIN cities c ON c.pos = h.pos
  JOIN countries co ON co.code = c.country_code
  LEFT JOIN admin1 a ON a.country_code = c.country_code AND a.code = c.admin1_code
  ORDER BY h.tier, h.pos`;

export async function searchCities(db: D1Database, p: SearchParams): Promise<Page<CityRecord>> {
  const where = and(regionConditions("c", p));
  const offset = (p.page - 1) * CITIES_PER_PAGE;
  let count: D1PreparedStatement;
  let page: D1PreparedStatement;

  if (p.name === undefined) {
    count =
      where.params.length === 0
        ? db.prepare("SELECT CAST(value AS INTEGER) AS n FROM meta WHERE key = 'rows_cities'")
        : db.prepare(`SELECT count(*) AS n FROM cities c WHERE ${where.sql}`).bind(...where.params);
    page = db
      .prepare(
        `WITH page AS (SELECT 0 AS tier, c.pos FROM cities c WHERE ${where.sql} ORDER BY c.pos LIMIT ? OFFSET ?)
         ${PAGE_COLUMNS}`,
      )
      .bind(...where.params, CITIES_PER_PAGE, offset);
  } else {
    const match = ftsQuery(p.name);
    if (match === null) return { page: p.page, total: 0, items: [], rowsRead: 0 };
    const matched = "SELECT DISTINCT rowid >> 10 AS pos FROM city_names_fts WHERE city_names_fts MATCH ?";
    count =
      where.params.length === 0
        ? db.prepare(`SELECT count(*) AS n FROM (${matched})`).bind(match)
        : db
            .prepare(`SELECT count(*) AS n FROM (${matched}) m JOIN cities c ON c.pos = m.pos WHERE ${where.sql}`)
            .bind(match, ...where.params);
    page = db
      .prepare(
        `WITH matched AS (${matched}),
         leading AS (
           SELECT id >> 10 AS pos, min(norm <> ?) AS tier FROM city_names
           WHERE norm >= ? AND norm < ? GROUP BY id >> 10
         ),
         page AS (
           SELECT coalesce(l.tier, 2) AS tier, m.pos FROM matched m
           JOIN cities c ON c.pos = m.pos
           LEFT JOIN leading l ON l.pos = m.pos
           WHERE ${where.sql}
           ORDER BY 1, m.pos LIMIT ? OFFSET ?
         )
         ${PAGE_COLUMNS}`,
      )
      .bind(match, p.name, p.name, prefixEnd(p.name), ...where.params, CITIES_PER_PAGE, offset);
  }

  const { total, rows, rowsRead } = await countAndPage<CityRow>(db, count, page);
  return {
    page: p.page,
    total,
    rowsRead,
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      state: r.state,
      stateCode: r.state_code,
      lat: r.lat,
      lng: r.lng,
      countryCode: r.country_code,
      countryName: r.country_name,
    })),
  };
}
