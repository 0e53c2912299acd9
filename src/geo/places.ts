/**
 * Where a resource's records are on the grid (Places), and how nested areas place a box of records
 * or a record's point against their limits (Areas): what the counting walks (cells.ts, ranks.ts)
 * are written over.
 */
import { distanceSql, isCircle, type Area } from "../data-contract/distance.ts";
import { CELL_BLOCK_SHIFT } from "../data-contract/blocks.ts";
import type { ShardBox } from "../data-contract/shards.ts";
import { int, raw, sql, type Sql } from "../sql/sql.ts";
import { boxCentreDistance, boxInsideBox, boxOutsideBox, boxReachSql, inAreaSql, type SqlBox } from "./area.ts";

/**
 * Where a resource's records and their points are: its search index, the join to a record by pos
 * or to the records of a range of finest cells (column cell), whose `pos` and point `lat`, `lng`
 * then read.
 */
export interface Places {
  fts: "venues_fts" | "cities_fts";
  record(pos: Sql): Sql;
  /** The table of the records in finest cells [lo, hi) and its join condition (after CROSS JOIN). */
  inCells(lo: Sql, hi: Sql): Sql;
  /** The records in the finest cells before `cell`: the number of the last of them, 0 without one. */
  rankBefore(cell: Sql): Sql;
  /** The same within block `block` (src/data-contract/blocks.ts) that holds `cell`: one seek, no block read. */
  rankInBlock(cell: Sql, block: Sql): Sql;
  pos: Sql;
  lat: Sql;
  lng: Sql;
  /** Whether every record has a place: a city always (GeoNames gives each a point); a venue may have none. */
  everyPlaced: boolean;
  /**
   * Boxes that hold every record's point, where they are known (a venue database's bounds,
   * src/data-contract/shards.ts): an area's cells that meet none of them are not read.
   */
  within?: readonly ShardBox[];
  /**
   * A venue database's part of a merge (src/query/merged-area.ts): a total's `more` says how many
   * edge records it measured (up to EDGE_RECORDS + 1: src/match/capped.ts), so that their sum says
   * whether one database's count is a lower bound.
   */
  countsEdges?: boolean;
}

/**
 * The places of a table of records (cities or venues) on the grid: `alias` is the table's alias in
 * the SQL that the geo modules write, `lat` and `lng` its records' points.
 */
export function placesOf(table: "cities" | "venues", alias: string, lat: string, lng: string): Places {
  const a = raw(alias);
  return {
    fts: `${table}_fts`,
    record: (pos) => sql`JOIN ${raw(table)} ${a} ON ${a}.pos = ${pos}`,
    inCells: (lo, hi) => sql`${raw(table)} ${a} ON ${a}.cell >= ${lo} AND ${a}.cell < ${hi}`,
    // The last record before the cell, numbered within its block (src/data-contract/blocks.ts).
    rankBefore: (cell) =>
      sql`coalesce((SELECT b.before + lastrec.cell_rank FROM (SELECT cell, cell_rank FROM ${raw(table)} WHERE cell < ${cell}
                                                       ORDER BY cell DESC, cell_rank DESC LIMIT 1) lastrec
                    JOIN cell_blocks b ON b.records = '${raw(table)}' AND b.block = lastrec.cell >> ${int(CELL_BLOCK_SHIFT)}), 0)`,
    rankInBlock: (cell, block) =>
      sql`coalesce((SELECT cell_rank FROM ${raw(table)} WHERE cell < ${cell} AND cell >= ${block} << ${int(CELL_BLOCK_SHIFT)}
                    ORDER BY cell DESC, cell_rank DESC LIMIT 1), 0)`,
    pos: raw(`${alias}.pos`),
    lat: raw(lat),
    lng: raw(lng),
    everyPlaced: table === "cities",
  };
}

/** Nested areas, largest first, with their limits and how their cells and records are placed. */
export interface Areas {
  list: readonly Area[];
  limits: readonly number[];
  /** `near` and `far` (columns) of a box of records that is `reach` km across from its centre. */
  place(box: SqlBox, reach: Sql): Sql;
  /**
   * The same in two steps, for boxes of many rows (the kids): `measure` gives the columns of a
   * box's row that placing it needs, `placeMeasured` then near and far from them; each distance is
   * computed once (in one expression, SQLite would compute it again at every use).
   */
  measure(box: SqlBox): Sql;
  placeMeasured: Sql;
  /** How far away a record's point is (compared with the limits). */
  away(lat: Sql, lng: Sql): Sql;
}

/** Circles of one centre, largest first. */
export function circleAreas(list: readonly Area[]): Areas {
  const first = list[0];
  if (first === undefined || !list.every(isCircle) || !isCircle(first)) throw new Error("circles expected");
  return {
    list,
    limits: list.map((c) => (isCircle(c) ? c.radiusKm : 0)),
    place: (box, reach) => {
      const d = boxCentreDistance(first, box);
      return sql`${d} - ${reach} AS near, ${d} + ${reach} AS far`;
    },
    measure: (box) => sql`${boxReachSql(box)} AS reach, ${boxCentreDistance(first, box)} AS centre_km`,
    placeMeasured: raw("centre_km - reach AS near, centre_km + reach AS far"),
    away: (lat, lng) => distanceSql(first, lat, lng),
  };
}

/** One box. */
export function boxAreas(box: Area): Areas {
  if (isCircle(box)) throw new Error("a box expected");
  const place = (cells: SqlBox) =>
    sql`CASE WHEN ${boxOutsideBox(cells, box)} THEN 1 ELSE 0 END AS near, CASE WHEN ${boxInsideBox(cells, box)} THEN 0 ELSE 1 END AS far`;
  return {
    list: [box],
    limits: [0],
    place,
    // A box's cells are placed by their edges alone: in one step.
    measure: place,
    placeMeasured: raw("near, far"),
    away: (lat, lng) => sql`CASE WHEN ${inAreaSql(box, lat, lng)} THEN 0 ELSE 1 END`,
  };
}
