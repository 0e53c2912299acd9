/**
 * One pass over the walk's cells (CTEs node and kid of src/geo/cells.ts) for nested areas: the
 * records that cells place inside each area, and, where asked, the cells' tokens that each area's
 * reads of the search index need (which cells areaCellsText and unplacedText of cells.ts read):
 * each pass over a materialized CTE is read again row by row (D1's rows read), so a statement
 * reads the walk's cells once for all of its areas.
 */
import { COUNT_LEVELS, FINEST_LEVEL } from "../data-contract/grid.ts";
import { int, join, raw, sql, type Sql } from "../sql/sql.ts";

const ROOT_LEVEL = COUNT_LEVELS[0];

/** Whether a cell (columns near, far) lies on the edge of the area whose limit `limit` is (an SQL value). */
export const onEdgeOf = (limit: Sql): Sql => sql`(near <= ${limit} AND far > ${limit})`;

/** The sum of the cells wholly inside the area of limit `limit` (an SQL value), not inside a bigger such cell. */
const insideSum = (limit: Sql): Sql =>
  sql`coalesce(sum(CASE WHEN far <= ${limit} AND (pfar IS NULL OR pfar > ${limit}) THEN n END), 0)`;

/** A cell's token as SQL text (columns level, cell; src/data-contract/grid.ts cellToken), quoted for FTS5. */
export const TOKEN_SQL = raw(`'"__g' || level || '_' || cell || '"'`);

/** Whether a cell of node is one areaCellsText reads for the area of limit `limit`: wholly inside it and in no bigger such cell, or finest on its edge. */
const nodeRead = (limit: Sql): Sql =>
  sql`(far <= ${limit} AND (pfar IS NULL OR pfar > ${limit}) OR level = ${int(FINEST_LEVEL)} AND ${onEdgeOf(limit)})`;
/** Whether a kid is one areaCellsText reads for the area of limit `limit`: wholly inside it, or on its edge, its parent on it. */
const kidRead = (limit: Sql): Sql =>
  sql`(far <= ${limit} AND pfar > ${limit} OR ${onEdgeOf(limit)} AND pnear <= ${limit} AND pfar > ${limit})`;
/** Whether a cell of node is one unplacedText reads for the area of limit `limit`. */
export const nodeUnplaced = (limit: Sql): Sql => sql`(level = ${int(FINEST_LEVEL)} AND ${onEdgeOf(limit)})`;
/** Whether a kid is one unplacedText reads for the area of limit `limit`. */
export const kidUnplaced = (limit: Sql): Sql => sql`(${onEdgeOf(limit)} AND pnear <= ${limit} AND pfar > ${limit})`;
/** The tokens of the rows where `when` holds, an FTS5 OR list (NULL where none). */
const tokensWhere = (when: Sql): Sql => sql`group_concat(CASE WHEN ${when} THEN ${TOKEN_SQL} END, ' OR ')`;
/** Two OR lists (SQL values, NULL where empty) as one. */
const eitherList = (a: string, b: string): Sql =>
  raw(`CASE WHEN ${a} IS NULL THEN ${b} WHEN ${b} IS NULL THEN ${a} ELSE ${a} || ' OR ' || ${b} END`);

/**
 * A one-row SELECT of columns l0, l1, …: the term's records that cells place inside the area of
 * each limit (SQL values): the stored cells wholly inside it, and the kids not stored that lie
 * wholly inside it while their parent lies on its edge. With columns u0, u1, … too: at most what
 * the area holds, l plus the records of the cells whose records are measured on its edge (those
 * of unplacedText). One pass over node and one over kid. With `lists`, in the same passes, the
 * cells' tokens each area's reads need (cellLists): each pass over a materialized CTE is read
 * again row by row (D1's rows read), so the walk's cells are read once a statement.
 */
export function insideCounts(limits: readonly Sql[], lists = false): Sql {
  const kidSum = (limit: Sql) => sql`coalesce(sum(CASE WHEN far <= ${limit} AND pfar > ${limit} THEN n END), 0)`;
  const finestEdge = (limit: Sql) =>
    sql`coalesce(sum(CASE WHEN level = ${int(FINEST_LEVEL)} AND ${onEdgeOf(limit)} THEN n END), 0)`;
  const kidEdge = (limit: Sql) =>
    sql`coalesce(sum(CASE WHEN ${onEdgeOf(limit)} AND pnear <= ${limit} AND pfar > ${limit} THEN n END), 0)`;
  const columns = (f: (limit: Sql) => Sql, edge: (limit: Sql) => Sql, read: Lists) =>
    join(
      limits.map((limit, j) => {
        const counts = sql`${f(limit)} AS ${raw(`s${j}`)}, ${edge(limit)} AS ${raw(`e${j}`)}`;
        if (!lists) return counts;
        return sql`${counts}, ${tokensWhere(read.cells(limit))} AS ${raw(`a${j}`)}, min(CASE WHEN ${read.cells(limit)} THEN level END) AS ${raw(`m${j}`)},
          ${tokensWhere(read.unplaced(limit))} AS ${raw(`t${j}`)}`;
      }),
      ", ",
    );
  const sums = join(
    limits.map((_, j) => {
      const counts = raw(
        `cells.s${j} + kids.s${j} AS l${j}, cells.s${j} + kids.s${j} + cells.e${j} + kids.e${j} AS u${j}`,
      );
      if (!lists) return counts;
      // The world's cell is node's alone (a kid's level is at least KID_STEP).
      return sql`${counts}, ${eitherList(`cells.a${j}`, `kids.a${j}`)} AS ${raw(`cells${j}`)},
        cells.m${raw(String(j))} = ${int(ROOT_LEVEL ?? 0)} AS ${raw(`world${j}`)}, ${eitherList(`kids.t${j}`, `cells.t${j}`)} AS ${raw(`unplaced${j}`)}`;
    }),
    ", ",
  );
  return sql`SELECT ${sums} FROM (SELECT ${columns(insideSum, finestEdge, NODE_LISTS)} FROM node) cells,
    (SELECT ${columns(kidSum, kidEdge, KID_LISTS)} FROM kid) kids`;
}

/** Which cells of node or kid the reads of an area list (areaCellsText, unplacedText). */
interface Lists {
  cells: (limit: Sql) => Sql;
  unplaced: (limit: Sql) => Sql;
}
const NODE_LISTS: Lists = { cells: nodeRead, unplaced: nodeUnplaced };
const KID_LISTS: Lists = { cells: kidRead, unplaced: kidUnplaced };

/** Column `name` of insideCounts of area j (an SQL value, such as `r.j`) of `count`: name0, name1, … */
export const areaColumn = (j: Sql, count: number, name: string): Sql =>
  sql`CASE ${j} ${join(
    Array.from({ length: count }, (_, i) => sql`WHEN ${int(i)} THEN ${raw(`${name}${i}`)}`),
    " ",
  )} END`;

/**
 * The columns of insideCounts(…, true) for area j of `count`: `cells`, the tokens of the cells
 * areaCellsText reads, NULL where none; `world`, whether the world's cell is among them;
 * `unplaced`, those of unplacedText, NULL where none.
 */
export function cellLists(j: Sql, count: number): { cells: Sql; world: Sql; unplaced: Sql } {
  const column = (name: string) => areaColumn(j, count, name);
  return { cells: column("cells"), world: column("world"), unplaced: column("unplaced") };
}
