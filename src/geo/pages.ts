/**
 * Pages of a counted term in an area (src/geo/cells.ts), each one statement whose rows are the
 * page's positions with the total (docs/architecture.md#places-on-a-grid):
 *
 * - near a point, nearest first: the counts of circles around the point, each half the radius of
 *   the one before, tell the smallest circle that holds the whole page; only its records are read
 *   (those of its cells wholly inside it, by their cell tokens, and the measured ones);
 * - inside a box, in the default order: each name tier (or the term alone) is read in pos order
 *   from the cells that cover the box, the records outside the box skipped, until the page is full.
 */
import { int, join, num, raw, sql, type Sql } from "../sql/sql.ts";
import { boxAreas, circleAreas, finestCells, countedCtes, type Places, type Term } from "./cells.ts";
import { coverTokens, inAreaSql, type Box } from "./area.ts";
import type { Circle } from "./distance.ts";

/** A token no document has. */
const NOTHING = '"__none"';
/** The smallest circle a page is looked for in, km, and how many circles at most. */
const SMALLEST_RING_KM = 0.1;
const MAX_RINGS = 5;

/** The circles a page near a point is looked for in: the search's, then half its radius, and so on. */
function rings(near: Circle): Circle[] {
  const out = [near];
  while (out.length < MAX_RINGS && near.radiusKm / 2 ** out.length >= SMALLEST_RING_KM) {
    out.push({ ...near, radiusKm: near.radiusKm / 2 ** out.length });
  }
  return out;
}

/**
 * Page rows (pos, rank, dist) with the total on each, or one row of the total alone when the page
 * is empty. `total` is a one-row SELECT of column n (a join, not a UNION: each part of a compound
 * SELECT would read the CTEs again).
 */
export function withTotal(page: Sql, total: Sql): Sql {
  return sql`paged AS MATERIALIZED (${page}), total(n) AS MATERIALIZED (${total})
    SELECT paged.pos, paged.rank, paged.dist, total.n AS total FROM total LEFT JOIN paged ON 1`;
}

/** FTS5 text of a cell of the CTE node (alias n): its token (the world: the cover's tokens). */
function cellText(cover: string): Sql {
  return sql`CASE WHEN n.level = 0 THEN ${cover} ELSE '"__g' || n.level || '_' || n.cell || '"' END`;
}

const anyToken = (tokens: readonly string[]) => `(${tokens.map((t) => `"${t}"`).join(" OR ")})`;

/** FTS5 texts of a name's first two tiers (src/query/fts.ts nameTierText): they order records at one distance. */
export interface TieTiers {
  exact: string;
  starts: string;
}

/** A record's name tier (0, 1, 2: src/format/ranking.ts) when another record lies at its distance, else 0. */
function tieTier(fts: Sql, ties: TieTiers | null): Sql {
  if (ties === null) return raw("0");
  const has = (text: string) => sql`EXISTS (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ${text} AND rowid = pos)`;
  return sql`CASE WHEN count(*) OVER (PARTITION BY away) = 1 THEN 0 WHEN ${has(ties.exact)} THEN 0
              WHEN ${has(ties.starts)} THEN 1 ELSE 2 END`;
}

/** FTS5 text of the term's records in the node cells that `which` selects (none: a token no document has). */
function innerText(text: string, near: Circle, which: Sql): Sql {
  const cover = anyToken(coverTokens(near));
  const cells = sql`SELECT '(' || group_concat(${cellText(cover)}, ' OR ') || ')' FROM node n, ring WHERE ${which}`;
  return sql`${`(${text}) AND `} || coalesce((${cells}), ${NOTHING})`;
}

/** The positions of a page of a counted term near a point: nearest first, then by name tier and pos. */
export function nearPositions(
  t: Term,
  places: Places,
  near: Circle,
  ties: TieTiers | null,
  offset: number,
  size: number,
): Sql {
  const list = rings(near);
  const areas = circleAreas(list);
  const fts = raw(places.fts);
  const need = offset + size;
  const whens = list
    .map((c, j) => ({ c, j }))
    .slice(1)
    .reverse();
  const chosen = join(
    whens.map(({ j }) => sql`WHEN ${raw(`c${j}`)} >= ${int(need)} THEN ${int(j)}`),
    " ",
  );
  const km = join(
    list.map((c, j) => sql`WHEN ${int(j)} THEN ${num(c.radiusKm)}`),
    " ",
  );
  // The records of the chosen circle's cells wholly inside it: by their ranges of finest cells, or
  // (for a term) by their cell tokens.
  const insideRing = raw("n.far <= ring.km AND (n.pfar IS NULL OR n.pfar > ring.km)");
  const cells = finestCells("n");
  const away = areas.away(places.lat, places.lng);
  const innerRecords =
    t.text === null
      ? sql`SELECT ${places.pos}, ${away} FROM node n, ring CROSS JOIN ${places.inCells(cells.lo, cells.hi)} WHERE ${insideRing}`
      : sql`SELECT f.rowid, ${away} FROM ${fts} f ${places.record(raw("f.rowid"))} WHERE ${fts} MATCH ${innerText(t.text, near, insideRing)}`;
  const candidates = sql`SELECT pos, away FROM measured, ring WHERE t <= ring.j AND away <= ring.km
    UNION ALL ${innerRecords}`;
  const page = sql`SELECT pos, rank, dist FROM (
      SELECT pos, row_number() OVER (ORDER BY away, k, pos) AS rank, away AS dist FROM (
        SELECT pos, away, ${tieTier(fts, ties)} AS k FROM (${candidates})))
    WHERE rank > ${offset} ORDER BY rank LIMIT ${int(size)}`;
  const ring = whens.length === 0 ? raw("SELECT 0 AS j") : sql`SELECT CASE ${chosen} ELSE 0 END AS j FROM counts`;
  return sql`WITH RECURSIVE ${countedCtes(t, areas, places)},
    picked AS (${ring}),
    ring(j, km) AS MATERIALIZED (SELECT j, CASE j ${km} END FROM picked),
    ${withTotal(page, raw("SELECT c0 FROM counts"))}`;
}

/** A part of a box's page: FTS5 text (null: every record) and its tierKey (src/format/ranking.ts). */
export interface BoxTier {
  key: number;
  text: string | null;
}

/**
 * The positions of a page inside a box, in the order of the tiers and pos: each tier reads its
 * records in pos order from the box's cover, skipping those outside the box, up to the page's end.
 * `filters` (an SQL expression of FTS5 text) narrows every tier; the total is `total`.
 */
export function boxPage(
  places: Places,
  box: Box,
  tiers: readonly BoxTier[],
  filters: Sql | null,
  offset: number,
  size: number,
): Sql {
  const fts = raw(places.fts);
  const cover = anyToken(coverTokens(box));
  const parts = tiers.map((tier) => {
    const text = tier.text === null ? cover : `(${tier.text}) AND ${cover}`;
    const match = filters === null ? sql`${text}` : sql`${`${text} AND (`} || ${filters} || ')'`;
    return sql`SELECT ${int(tier.key)} AS k, pos FROM (SELECT f.rowid AS pos FROM ${fts} f ${places.record(raw("f.rowid"))}
               WHERE ${fts} MATCH ${match} AND ${inAreaSql(box, places.lat, places.lng)} ORDER BY f.rowid LIMIT ${int(offset + size)})`;
  });
  return sql`SELECT pos, row_number() OVER (ORDER BY k, pos) AS rank, NULL AS dist
    FROM (SELECT pos, min(k) AS k FROM (${join(parts, " UNION ALL ")}) GROUP BY pos)
    ORDER BY k, pos LIMIT ${int(size)} OFFSET ${int(offset)}`;
}

/** The positions of a page of a counted term inside a box, with its total from the cell counts. */
export function boxPositions(
  t: Term,
  places: Places,
  box: Box,
  tiers: readonly BoxTier[],
  offset: number,
  size: number,
): Sql {
  return sql`WITH RECURSIVE ${countedCtes(t, boxAreas(box), places)},
    ${withTotal(boxPage(places, box, tiers, null, offset, size), raw("SELECT c0 FROM counts"))}`;
}
