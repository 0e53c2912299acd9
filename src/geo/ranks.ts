/**
 * Every record in an area (no name, no kind), counted along the order of the records' finest cells
 * (docs/architecture.md#places-on-a-grid): `cell_rank` numbers the records in that order within
 * their block and cell_blocks counts the blocks before (src/data-contract/blocks.ts), so the
 * records of any cell, or of any range of finest cells, are a few seeks (the rank before its end,
 * less the rank before its start).
 *
 * The area is cut into cells without the data (decompose.ts): the ranges wholly inside are
 * counted by their ranks; from each cell on the edge a recursive walk opens the cells that the
 * edge crosses into their 4 kids while they hold more than LEAF records, so the edge is measured
 * at the resolution the data's density asks for. The walk's cells are the CTE node of
 * src/geo/cells.ts (no kids: each measured whole), so the edge is counted there.
 */
import { CELL_BLOCK_SHIFT } from "../data-contract/blocks.ts";
import { FINEST_LEVEL } from "../data-contract/grid.ts";
import { int, num, raw, sql, type Sql } from "../sql/sql.ts";
import { boxReachSql, cellBoxSql } from "./area.ts";
import type { Area } from "../data-contract/distance.ts";
import type { ShardBox } from "../data-contract/shards.ts";
import type { Areas, Places } from "./places.ts";
import { decompose, type GridCell } from "./decompose.ts";

/** A cell on the edge with at most this many records is measured rather than opened. */
const LEAF = 32;
/**
 * Cells the walk opens at most (two seeks each: about 5 rows read a cell). The edges of thin strips
 * across dense places open thousands; the cells it did not open are not counted, so the total is a
 * lower bound when it stopped there (walkCut).
 */
const WALK_CELLS = 1_000;

/** Whether the walk stopped at WALK_CELLS (an SQL condition). */
export const walkCut = (): Sql => sql`(SELECT count(*) FROM walk) >= ${int(WALK_CELLS)}`;

/**
 * The records of finest cells [lo, hi): the rank before hi, less the rank before lo. Within one
 * block (every cell of level 7 or finer), both ranks within it: their blocks' counts cancel out.
 */
function recordsBetween(places: Places, lo: Sql, hi: Sql): Sql {
  const block = sql`(${lo} >> ${int(CELL_BLOCK_SHIFT)})`;
  return sql`(CASE WHEN ${block} = ((${hi}) - 1) >> ${int(CELL_BLOCK_SHIFT)}
                   THEN ${places.rankInBlock(hi, block)} - ${places.rankInBlock(lo, block)}
                   ELSE ${places.rankBefore(hi)} - ${places.rankBefore(lo)} END)`;
}

/** The records of a cell of a level. */
function recordsIn(places: Places, level: Sql, cell: Sql): Sql {
  const span = sql`(1 << (2 * (${int(FINEST_LEVEL)} - ${level})))`;
  return recordsBetween(places, sql`${cell} * ${span}`, sql`(${cell} + 1) * ${span}`);
}

/** A cell's columns: level, cell, x, y, n, near, far. */
function cellColumns(areas: Areas, places: Places, level: Sql, cell: Sql, x: Sql, y: Sql): Sql {
  const box = cellBoxSql(level, x, y);
  return sql`${level}, ${cell}, ${x}, ${y}, ${recordsIn(places, level, cell)}, ${areas.place(box, boxReachSql(box))}`;
}

/** The CTE node for every record in the first area: the walk from its edge cells, those that hold records. */
export function everyRecordNodes(areas: Areas, places: Places, edge: readonly GridCell[]): Sql {
  const limit = num(areas.limits[0] ?? 0, "km");
  // The edge cells as one bound JSON list, so that the text is the same for every area; materialized,
  // since json_each read again at each use of start doubled the walk's time.
  const cells = JSON.stringify(edge.map((c) => [c.level, c.cell, c.x, c.y]));
  const start = sql`SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(${cells})`;
  const kid = raw("(p.level + 1)");
  const kidCell = raw("(p.cell * 4 + k.column1)");
  return sql`start(level, cell, x, y) AS MATERIALIZED (${start}),
    walk(level, cell, x, y, n, near, far, pfar, pcell) AS MATERIALIZED (
      SELECT ${cellColumns(areas, places, raw("s.level"), raw("s.cell"), raw("s.x"), raw("s.y"))}, NULL, NULL FROM start s
      UNION ALL
      SELECT ${cellColumns(areas, places, kid, kidCell, raw("(p.x * 2 + (k.column1 & 1))"), raw("(p.y * 2 + (k.column1 >> 1))"))},
             p.far, p.cell
      FROM walk p CROSS JOIN (VALUES (0), (1), (2), (3)) k
      WHERE p.level < ${int(FINEST_LEVEL)} AND p.n > ${int(LEAF)} AND p.near <= ${limit} AND p.far > ${limit}
      LIMIT ${int(WALK_CELLS)}),
    node(level, cell, x, y, n, rest, kid_rest, near, far, pfar, pcell) AS NOT MATERIALIZED (
      SELECT level, cell, x, y, n, CASE WHEN n <= ${int(LEAF)} OR level = ${int(FINEST_LEVEL)} THEN n ELSE 0 END, NULL,
             near, far, pfar, pcell FROM walk WHERE n > 0)`;
}

/** The records of ranges of finest cells (a JSON list of [lo, hi], an SQL expression), by their ranks. */
export function rangesTotal(places: Places, ranges: Sql): Sql {
  const lo = raw("(r.value ->> 0)");
  const hi = raw("(r.value ->> 1)");
  return sql`(SELECT coalesce(sum(${recordsBetween(places, lo, hi)}), 0) FROM json_each(${ranges}) r)`;
}

/** The records in ranges of finest cells (a JSON list, an SQL expression): pos and how far away. */
export function rangesRecords(areas: Areas, places: Places, ranges: Sql): Sql {
  return sql`SELECT ${places.pos} AS pos, ${areas.away(places.lat, places.lng)} AS away FROM json_each(${ranges}) r
    CROSS JOIN ${places.inCells(raw("(r.value ->> 0)"), raw("(r.value ->> 1)"))}`;
}

type Cut = { inside: string; all: string; edge: GridCell[] };

/** The last areas cut: a search cuts its area for its total, its walk and its page. */
const cuts = new Map<string, Cut>();
const CUTS_KEPT = 16;

/**
 * The cells of an area for the walk: its inside as JSON ranges and its edge cells; only those that
 * meet `within` where the records all lie within those boxes (a venue database's: places.ts).
 */
export function cut(area: Area, within?: readonly ShardBox[]): Cut {
  const key = JSON.stringify([area, within ?? null]);
  const kept = cuts.get(key);
  if (kept !== undefined) return kept;
  const made = cutOf(area, within);
  if (cuts.size >= CUTS_KEPT) cuts.delete(cuts.keys().next().value ?? "");
  cuts.set(key, made);
  return made;
}

function cutOf(area: Area, within: readonly ShardBox[] | undefined): Cut {
  const d = decompose(area, within);
  const edgeRanges = d.edge.map((c) => {
    const size = 4 ** (FINEST_LEVEL - c.level);
    return [c.cell * size, (c.cell + 1) * size];
  });
  return { inside: JSON.stringify(d.inside), all: JSON.stringify([...d.inside, ...edgeRanges]), edge: d.edge };
}
