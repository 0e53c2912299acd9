/**
 * A search near a point without other filters, on the Z-order curve (migrations/0006, src/geo/circle.ts
 * circleCells): the circle's cells wholly inside it are counted from the running totals of
 * cities.z_cities and z_venues (two index seeks a range), and only the cities of its edge cells
 * are measured. A page of the nearest records is looked for in a smaller circle around the same
 * centre when the inside of that one already holds every record up to the page's end: those are
 * then the nearest, whatever lies farther.
 *
 * The ranges are bound as JSON lists, one per circle and kind, so that a statement reads only the
 * lists it needs (D1 counts each element read among the rows read).
 */
import { int, join, raw, sql, type Sql } from "../sql/sql.ts";
import { circleCells } from "./circle.ts";
import type { Circle } from "./distance.ts";
import { cityDistance } from "./index.ts";

/** Circles a page is looked for in: the search's (0), then half its radius, a quarter … */
const PAGE_CIRCLES = 5;
const SHRINK = 2;

/** One circle around the search's centre: its radius, its inside ranges, and all its ranges. */
interface Ring {
  km: number;
  inside: string;
  edge: string;
  all: string;
}

/** The circles of a search, for its two statements (total and page). */
const known = new WeakMap<Circle, Ring[]>();

function circles(near: Circle): Ring[] {
  const found = known.get(near);
  if (found !== undefined) return found;
  const out: Ring[] = [];
  for (let j = 0; j < PAGE_CIRCLES; j++) {
    const km = near.radiusKm / SHRINK ** j;
    const cells = circleCells({ ...near, radiusKm: km });
    const all = [...cells.inside, ...cells.edge];
    out.push({ km, inside: JSON.stringify(cells.inside), edge: JSON.stringify(cells.edge), all: JSON.stringify(all) });
  }
  known.set(near, out);
  return out;
}

export type Counted = "z_cities" | "z_venues";

/** Cities (or their venues) before a point of the curve: the running total of the last city before it. */
function before(point: Sql, counted: Counted): Sql {
  return sql`coalesce((SELECT ${raw(counted)} FROM cities WHERE z < ${point} ORDER BY z DESC, z_cities DESC LIMIT 1), 0)`;
}

/** What the ranges of a JSON list hold, in all. */
function heldBy(ranges: string, counted: Counted): Sql {
  const lo = raw("(value ->> 0)");
  const hi = raw("(value ->> 1)");
  return sql`(SELECT coalesce(sum(${before(hi, counted)} - ${before(lo, counted)}), 0) FROM json_each(${ranges}))`;
}

/** The cities of the ranges of a JSON list (an SQL expression), alias c: the ranges drive the index. */
const citiesOf = (ranges: Sql) =>
  sql`json_each(${ranges}) ranges CROSS JOIN cities c ON c.z >= (ranges.value ->> 0) AND c.z < (ranges.value ->> 1)`;

/**
 * `body` with `circle`: the smallest circle whose inside holds at least `need` cities (or venues),
 * circle.j, with its radius, circle.km; the search's own circle (0) when none does.
 */
export function withPageCircle(near: Circle, counted: Counted, need: number, body: Sql): Sql {
  const rings = circles(near);
  // Smallest first: CASE stops at the first that holds enough.
  const smaller = rings
    .slice(1)
    .map((ring, i) => ({ ring, j: i + 1 }))
    .reverse();
  const whens = smaller.map(({ ring, j }) => sql`WHEN ${heldBy(ring.inside, counted)} >= ${need} THEN ${int(j)}`);
  const choice = whens.length === 0 ? raw("0") : sql`CASE ${join(whens, " ")} ELSE 0 END`;
  const km = join(
    rings.map((ring, j) => sql`WHEN ${int(j)} THEN ${ring.km}`),
    " ",
  );
  return sql`WITH chosen(j) AS (SELECT ${choice}), circle(j, km) AS (SELECT j, CASE j ${km} END FROM chosen) ${body}`;
}

/** The cities of the chosen circle's cells (see withPageCircle): pos, dist and `columns` (of alias c). */
export function pageCities(near: Circle, columns: Sql = raw("")): Sql {
  const lists = join(
    circles(near).map((ring, j) => sql`WHEN ${int(j)} THEN ${ring.all}`),
    " ",
  );
  return sql`SELECT c.pos, ${cityDistance(near)} AS dist${columns} FROM ${citiesOf(sql`CASE (SELECT j FROM circle) ${lists} END`)}`;
}

/**
 * The number of cities (counted z_cities) or venues (z_venues) within the circle: its inside from
 * the running totals, its edge cells' cities measured (`edgeValue`: 1 for a city, c.venue_count).
 */
export function circleTotal(near: Circle, counted: Counted, edgeValue: Sql): Sql {
  const [ring] = circles(near);
  if (ring === undefined) throw new Error("no circle");
  return sql`SELECT ${heldBy(ring.inside, counted)}
    + (SELECT coalesce(sum(${edgeValue}), 0) FROM ${citiesOf(sql`${ring.edge}`)} WHERE ${cityDistance(near)} <= ${near.radiusKm}) AS n`;
}
