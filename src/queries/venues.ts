/**
 * Venue search SQL (SPEC §3). Bound parameters only: user text reaches SQL as values, and the
 * FTS5 query is built from normalized words, each quoted (ftsQuery).
 *
 * Order: when `name` is given, venues whose normalized name starts with the query come first
 * (an exact match is the smallest such name, so it leads), then the other matches; within
 * each, by name then id — which is `pos` order, assigned at import. The names starting with
 * the query are one contiguous `pos` range, found with two index probes.
 */
import { countAndPage } from "../db";
import { prefixEnd } from "../normalize";
import type { SearchParams } from "../params";
import type { Page, VenueRecord } from "../records";
import { and, regionConditions, type Condition } from "./conditions";
import { ftsQuery } from "./fts";

export const VENUES_PER_PAGE = 30;

/** The filters other than `name`, as conditions on `venues v`. */
function filters(p: SearchParams): Condition[] {
  const out: Condition[] = [];
  if (p.cityId !== undefined)
    out.push({ sql: "v.city_pos = (SELECT pos FROM cities WHERE id = ?)", params: [p.cityId] });
  if (p.cityName !== undefined) {
    out.push({
      sql: "v.city_pos IN (SELECT pos FROM cities WHERE name_norm = ? UNION SELECT pos FROM cities WHERE ascii_norm = ?)",
      params: [p.cityName, p.cityName],
    });
  }
  return [...out, ...regionConditions("v", p)];
}

interface VenueRow {
  id: string;
  name: string;
  url: string | null;
  city_id: string | null;
  city_name: string | null;
  state: string | null;
  state_code: string | null;
}

const PAGE_COLUMNS = `
  SELECT v.id, v.name, v.url, c.id AS city_id, c.name AS city_name, a.name AS state, c.admin1_code AS state_code
  FROM page h
  JOIN venues v ON v.pos = h.pos
  LEFT JOIN cities c ON c.pos = v.city_pos
  LEFT JOIN admin1 a ON a.country_code = c.country_code AND a.code = c.admin1_code
  ORDER BY h.tier, h.pos`;

const NO_POS = Number.MAX_SAFE_INTEGER;

export async function searchVenues(db: D1Database, p: SearchParams): Promise<Page<VenueRecord>> {
  const where = and(filters(p));
  const offset = (p.page - 1) * VENUES_PER_PAGE;
  let count: D1PreparedStatement;
  let page: D1PreparedStatement;

  if (p.name === undefined) {
    count =
      where.params.length === 0
        ? db.prepare("SELECT CAST(value AS INTEGER) AS n FROM meta WHERE key = 'rows_venues'")
        : db.prepare(`SELECT count(*) AS n FROM venues v WHERE ${where.sql}`).bind(...where.params);
    page = db
      .prepare(
        `WITH page AS (SELECT 0 AS tier, v.pos FROM venues v WHERE ${where.sql} ORDER BY v.pos LIMIT ? OFFSET ?)
         ${PAGE_COLUMNS}`,
      )
      .bind(...where.params, VENUES_PER_PAGE, offset);
  } else {
    const match = ftsQuery(p.name);
    if (match === null) return { page: p.page, total: 0, items: [], rowsRead: 0 };
    count =
      where.params.length === 0
        ? db.prepare("SELECT count(*) AS n FROM venues_fts WHERE venues_fts MATCH ?").bind(match)
        : db
            .prepare(
              `SELECT count(*) AS n FROM venues_fts f JOIN venues v ON v.pos = f.rowid
               WHERE venues_fts MATCH ? AND ${where.sql}`,
            )
            .bind(match, ...where.params);
    page = db
      .prepare(
        `WITH bounds AS (
           SELECT coalesce((SELECT pos FROM venues WHERE name_norm >= ? ORDER BY name_norm LIMIT 1), ${NO_POS}) AS lo,
                  coalesce((SELECT pos FROM venues WHERE name_norm >= ? ORDER BY name_norm LIMIT 1), ${NO_POS}) AS hi
         ),
         hits AS (
           SELECT 0 AS tier, v.pos FROM bounds, venues v
           WHERE v.pos >= bounds.lo AND v.pos < bounds.hi AND ${where.sql}
           UNION ALL
           SELECT 1 AS tier, v.pos FROM bounds, venues_fts f JOIN venues v ON v.pos = f.rowid
           WHERE venues_fts MATCH ? AND (f.rowid < bounds.lo OR f.rowid >= bounds.hi) AND ${where.sql}
         ),
         page AS (SELECT tier, pos FROM hits ORDER BY tier, pos LIMIT ? OFFSET ?)
         ${PAGE_COLUMNS}`,
      )
      .bind(p.name, prefixEnd(p.name), ...where.params, match, ...where.params, VENUES_PER_PAGE, offset);
  }

  const { total, rows, rowsRead } = await countAndPage<VenueRow>(db, count, page);
  return {
    page: p.page,
    total,
    rowsRead,
    items: rows.map((r) => ({
      id: r.id,
      name: r.name,
      url: r.url,
      city:
        r.city_id === null || r.city_name === null
          ? null
          : { id: r.city_id, name: r.city_name, state: r.state, stateCode: r.state_code },
    })),
  };
}
