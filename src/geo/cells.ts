/**
 * Counting the records of a term inside areas from the stored cell counts (migrations/0008,
 * docs/architecture.md#places-on-a-grid), without reading the records of cells that lie wholly
 * inside or outside:
 *
 * 1. `node`: from the world's count down, the stored cells of the term that an area's edge
 *    crosses are opened into their stored kids (a range of 16 Morton codes), so only cells along
 *    the edges are visited; a cell wholly inside an area counts as its stored number.
 * 2. `kid`: the kids of those cells that are not stored (fewer than the import's minimum each)
 *    with their counts (migrations/0009): a kid wholly inside an area counts as its number.
 * 3. `measured`: the records no count places — those of the unstored kids that an edge crosses,
 *    and of the finest cells on an edge — are read from the search index by their cell tokens and
 *    measured one by one.
 * 4. `counts`: per area, the cells and kids wholly inside it that are not inside a bigger such
 *    cell, plus the measured records inside it.
 *
 * The areas are nested (circles of one centre, largest first, or one box), so a cell inside area
 * j is inside every area before it. Each area has a limit, and two numbers place a cell: `near` and
 * `far`, the least and the most any of its records can be "away": for circles kilometres from the
 * centre (the cell's box centre's distance, less and plus its reach), and for a box 0 or 1 (limit
 * 0: far is 0 inside the box, near 1 outside it). A cell is inside area j when far ≤ limit, outside
 * when near > limit, on its edge otherwise; a measured record is inside when its own `away` ≤ limit.
 */
import { COUNT_LEVELS, FINEST_LEVEL, KID_STEP } from "../data-contract/grid.ts";
import { EDGE_RECORDS } from "../match/capped.ts";
import { int, join, num, raw, sql, type Sql } from "../sql/sql.ts";
import { boxReachSql, cellBoxSql, coverText, type SqlBox } from "./area.ts";
import { insideCounts, kidUnplaced, nodeUnplaced, onEdgeOf, TOKEN_SQL } from "./cell-passes.ts";
import { NOTHING_SQL } from "../match/fts.ts";
import type { Areas, Places } from "./places.ts";
import { cut, everyRecordNodes, rangesTotal, walkCut } from "./ranks.ts";

/** What is counted: a term of cell_counts and the same records as FTS5 text, or every record (text null). */
export interface Term {
  kind: "venue" | "city";
  term: string;
  text: string | null;
}

/** The box of a cell_counts row's records (or of a kid's bounds): its columns. */
const STORED_BOX: SqlBox = { south: raw("south"), north: raw("north"), west: raw("west"), east: raw("east") };

const KIDS = 4 ** KID_STEP;
const WORLD = { west: -180, east: 180, south: -90, north: 90 };
const ROOT_LEVEL = COUNT_LEVELS[0];

/** Whether a cell (columns near, far of alias `a`) lies on the edge of some area (the walk opens it). */
function onSomeEdge(areas: Areas, a: string): Sql {
  const terms = areas.limits.map(
    (limit) => sql`(${raw(a)}.near <= ${num(limit, "km")} AND ${raw(a)}.far > ${num(limit, "km")})`,
  );
  return sql`(${join(terms, " OR ")})`;
}

/**
 * A kid's column and row (SQL expressions) from its parent's (columns x, y of alias `p`) and its
 * place k among the 16: Morton order, x0 y0 x1 y1 from bit 0.
 */
function kidXY(k: Sql): { x: Sql; y: Sql } {
  return {
    x: sql`p.x * 4 + (${k} & 1) + ((${k} >> 1) & 2)`,
    y: sql`p.y * 4 + ((${k} >> 1) & 1) + ((${k} >> 2) & 2)`,
  };
}

/**
 * The CTE node: the stored cells of the term from the world down, each opened into its stored
 * kids while an area's edge crosses it (columns level, cell, x, y, n, rest, kid_rest, near, far,
 * and the parent's far and cell). The world's cell's reach is measured from its box, not read:
 * older imports stored it short of the records near its centre's antipode (boxReachKm).
 */
function nodeCte(t: Term, areas: Areas): Sql {
  const key = sql`kind = ${t.kind} AND term = ${t.term}`;
  const kid = kidXY(raw("(k.cell % 16)"));
  return sql`node(level, cell, x, y, n, rest, kid_rest, near, far, pfar, pcell) AS MATERIALIZED (
    SELECT level, cell, 0, 0, n, rest, kid_rest, ${areas.place(STORED_BOX, boxReachSql(STORED_BOX))}, NULL, NULL FROM cell_counts
    WHERE ${key} AND level = ${int(ROOT_LEVEL ?? 0)} AND cell = 0
    UNION ALL
    SELECT k.level, k.cell, ${kid.x}, ${kid.y},
           k.n, k.rest, k.kid_rest, k.near, k.far, p.far, p.cell FROM node p CROSS JOIN (
      SELECT level, cell, n, rest, kid_rest, ${areas.place(STORED_BOX, raw("reach"))} FROM cell_counts WHERE ${key}) k
      ON k.level = p.level + ${int(KID_STEP)} AND k.cell >= p.cell * ${int(KIDS)} AND k.cell < (p.cell + 1) * ${int(KIDS)}
    WHERE p.level < ${int(FINEST_LEVEL)} AND ${onSomeEdge(areas, "p")})`;
}

/**
 * The CTE kid: the kids that are not stored of the cells of node on some area's edge, each with
 * its count (cell_counts.kid_rest), where it lies (near, far, from its bounds) and where its
 * parent does (pnear, pfar). Every record has no stored kids: an empty kid. Built in two
 * materialized steps (bounds, then measures and place), since SQLite would otherwise expand the
 * bounds into the measures at every use: measured, that cost more than the rest of the walk. The
 * measures are not a step of their own: each step is one more read of every kid (D1's rows read).
 */
function kidCte(t: Term, areas: Areas): Sql {
  const columns = "kid(level, cell, n, near, far, pnear, pfar)";
  if (t.text === null) return sql`${raw(columns)} AS (SELECT 0, 0, 0, 0, 0, 0, 0 WHERE 0)`;
  // The JSON object's keys are the kids' places, as text.
  const k = raw("(kid_counts.key + 0)");
  const kid = kidXY(k);
  const bounds = cellBoxSql(raw("level"), raw("x"), raw("y"));
  const box = sql`SELECT level, cell, n, ${bounds.south} AS south, ${bounds.north} AS north, ${bounds.west} AS west,
           ${bounds.east} AS east, pnear, pfar FROM (
      SELECT p.level + ${int(KID_STEP)} AS level, p.cell * ${int(KIDS)} + ${k} AS cell,
             ${kid.x} AS x, ${kid.y} AS y,
             kid_counts.value AS n, p.near AS pnear, p.far AS pfar
      FROM node p CROSS JOIN json_each(p.kid_rest) kid_counts
      WHERE p.rest > 0 AND p.level < ${int(FINEST_LEVEL)} AND ${onSomeEdge(areas, "p")}) LIMIT -1`;
  const measured = sql`SELECT *, ${areas.measure(STORED_BOX)} FROM (${box}) LIMIT -1`;
  return sql`${raw(columns)} AS MATERIALIZED (
    SELECT level, cell, n, ${areas.placeMeasured}, pnear, pfar FROM (${measured}) WHERE ${counted(areas)})`;
}

/**
 * Whether a kid (its near, its parent's pnear and pfar) is one some area counts or measures: not
 * wholly outside an area whose edge its parent lies on — the largest such area is enough, the
 * areas being nested. The others (a third of them round a dense point) are read by nothing after.
 */
function counted(areas: Areas): Sql {
  const whens = areas.limits.map((limit) => {
    const km = num(limit, "km");
    return sql`WHEN pnear <= ${km} AND pfar > ${km} THEN ${km}`;
  });
  return sql`near <= CASE ${join(whens, " ")} ELSE -1 END`;
}

/** The finest cells of a cell (columns level and cell of alias `a`): from `cell × span` on, `span` of them. */
function finestCells(a: string): { lo: Sql; hi: Sql } {
  const span = raw(`(1 << (2 * (${FINEST_LEVEL} - ${a}.level)))`);
  return { lo: sql`${raw(a)}.cell * ${span}`, hi: sql`(${raw(a)}.cell + 1) * ${span}` };
}

/** The cells of unplacedText (columns level, cell). */
const unplacedCells = (limit: Sql): Sql =>
  sql`SELECT level, cell FROM kid WHERE ${kidUnplaced(limit)}
      UNION ALL
      SELECT level, cell FROM node WHERE ${nodeUnplaced(limit)}`;

/**
 * The FTS5 text of the cells whose records no count places, for the area of limit `limit`: the
 * kids not stored that its edge crosses (their parent on it too), and the finest stored cells on
 * it. NULL when there are none.
 */
function unplacedText(limit: Sql): Sql {
  return sql`SELECT '(' || group_concat(${TOKEN_SQL}, ' OR ') || ')' FROM (${unplacedCells(limit)})`;
}

/**
 * FTS5 text (an SQL value) of the term's records that can lie inside an area, from its lists
 * (cellLists): those of the cells insideCounts counts and of the cells on its edge that
 * unplacedText reads — the walk's own cells, which hold few records outside the area, where a
 * cover of the area's span holds many (`cover`, the text of that, is kept for a term without
 * stored counts, and for an area that holds the world's cell, which has no token).
 */
export function areaCellsText(t: Term, lists: { cells: Sql; world: Sql }, cover: Sql): Sql {
  const text = sql`${`(${t.text ?? ""}) AND `}`;
  return sql`CASE WHEN NOT EXISTS (SELECT 1 FROM node) OR ${lists.world} THEN ${cover} WHEN ${lists.cells} IS NULL THEN ${NOTHING_SQL}
      ELSE ${text} || '(' || ${lists.cells} || ')' END`;
}

/**
 * A SELECT of (pos, away): the records that the cells of node on the edge of the area of limit
 * `limit` (an SQL value) do not place. For every record (ranks.ts), the small cells on the edge,
 * each a range of the cells' index; for a term, its records in the unstored kids that the edge
 * crosses (and in finest cells on it), from the search index with the term; when the term has no
 * stored count at all (few records), all of them in the cover.
 */
export function edgeRecords(t: Term, areas: Areas, places: Places, limit: Sql, unplaced?: Sql): Sql {
  const away = areas.away(places.lat, places.lng);
  if (t.text === null) {
    const cells = finestCells("n");
    const edge = sql`${onEdgeOf(limit)} AND (rest > 0 OR level = ${int(FINEST_LEVEL)})`;
    return sql`SELECT ${places.pos} AS pos, ${away} AS away FROM (SELECT * FROM node WHERE ${edge}) n
               CROSS JOIN ${places.inCells(cells.lo, cells.hi)}`;
  }
  const fts = raw(places.fts);
  const root = sql`SELECT 1 FROM cell_counts WHERE kind = ${t.kind} AND term = ${t.term} AND level = ${int(ROOT_LEVEL ?? 0)} AND cell = 0`;
  const cover = coverText(areas.list[0] ?? WORLD);
  const listed = unplaced === undefined ? sql`(${unplacedText(limit)})` : sql`'(' || ${unplaced} || ')'`;
  const cells = sql`CASE WHEN EXISTS (${root}) THEN coalesce(${listed}, ${NOTHING_SQL}) ELSE ${cover} END`;
  return sql`SELECT f.rowid AS pos, ${away} AS away FROM ${fts} f ${places.record(raw("f.rowid"))}
             WHERE ${fts} MATCH ${`(${t.text}) AND `} || ${cells}`;
}

/** The CTEs node and kid of a term: from its stored cell counts, or, for every record, from the records' ranks (ranks.ts). */
export function termNodes(t: Term, areas: Areas, places: Places): Sql {
  const node =
    t.text === null
      ? everyRecordNodes(areas, places, cut(areas.list[0] ?? WORLD, places.within).edge)
      : nodeCte(t, areas);
  return sql`${node}, ${kidCte(t, areas)}`;
}

/**
 * The records (pos) of the cells of node wholly inside the area of limit `limit` that no bigger
 * such cell holds (those insideCounts counts, every record: ranks.ts), when `when` holds (else
 * none, and node is not read: readOnlyWhen).
 */
export function insideNodeRecords(places: Places, limit: Sql, when: Sql): Sql {
  const cells = finestCells("n");
  return sql`SELECT ${places.pos} AS pos FROM (SELECT * FROM node WHERE far <= ${limit} AND (pfar IS NULL OR pfar > ${limit}) ${readOnlyWhen(when)}) n
    CROSS JOIN ${places.inCells(cells.lo, cells.hi)}`;
}

/**
 * A LIMIT that reads every row when `when` holds and none otherwise: SQLite tests a condition that
 * names no column of a table at each of its rows, so reads them all (a box's edges and cells when
 * its page does not come from them: docs/benchmarks.md#rows-read-by-a-box), but stops before a
 * LIMIT of 0.
 */
export const readOnlyWhen = (when: Sql): Sql => sql`LIMIT CASE WHEN ${when} THEN -1 ELSE 0 END`;

/**
 * The edge records of the area of limit `limit` that lie inside it, measured among the first
 * EDGE_RECORDS + 1 of them (src/match/capped.ts): one row (inside, more), more 1 when there were
 * more (then the total they add to is a lower bound; in a merge how many: moreOf).
 */
export function edgeCount(t: Term, areas: Areas, places: Places, limit: Sql, unplaced?: Sql): Sql {
  const first = sql`SELECT away FROM (${edgeRecords(t, areas, places, limit, unplaced)}) LIMIT ${int(EDGE_RECORDS + 1)}`;
  return sql`SELECT count(*) FILTER (WHERE away <= ${limit}) AS inside, ${moreOf(places)} AS more FROM (${first})`;
}

/** A total's `more` from the edge records measured (count(*)): whether past EDGE_RECORDS, in a merge how many (places.ts countsEdges). */
export const moreOf = (places: Places): Sql =>
  places.countsEdges === true ? raw("count(*)") : sql`count(*) > ${int(EDGE_RECORDS)}`;

/** A total's `more` (an SQL expression `more`) where its walk stopped (`stopped`): past EDGE_RECORDS in a merge's count. */
export const moreOrStopped = (places: Places, more: Sql, stopped: Sql): Sql =>
  places.countsEdges === true
    ? sql`CASE WHEN ${stopped} THEN ${int(EDGE_RECORDS + 1)} ELSE ${more} END`
    : sql`${more} OR ${stopped}`;

/** A one-row SELECT of n and more: the term's records inside the first area (the cells wholly inside, and the edge measured). */
export function totalOf(t: Term, areas: Areas, places: Places): Sql {
  const limit = num(areas.limits[0] ?? 0, "km");
  // Every record: the ranges wholly inside are counted by their ranks; node holds only the edge.
  const ranges =
    t.text === null
      ? sql`${rangesTotal(places, sql`${cut(areas.list[0] ?? WORLD, places.within).inside}`)} + `
      : raw("");
  const more = t.text === null ? moreOrStopped(places, raw("e.more"), walkCut()) : raw("e.more");
  return sql`SELECT ${ranges}(SELECT l0 FROM (${insideCounts([limit])})) + e.inside AS n, ${more} AS more
    FROM (${edgeCount(t, areas, places, limit)}) e`;
}
