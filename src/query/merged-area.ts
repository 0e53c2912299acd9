/**
 * A venue search without a name in an area (a box, a circle) over several venue databases
 * (docs/deploy.md#past-one-database), as one database reads it (src/geo/index.ts):
 *
 * - every venue or a kind near a point, nearest first, and every venue in a box that holds few
 *   (EDGE_RECORDS): one database pages them exactly, so each venue database reads the part of the
 *   area that meets its bounds (src/geo/places.ts `within`) up to the page's end — every venue near
 *   a point from the circle one database would choose — with its total; their positions merged in
 *   the area's order (docs/api.md#order), the totals summed, then the page's records read;
 * - any other in a box, and with filters near a point: one database reads the first candidates of
 *   the area's cover in pos order, so the page and a total within filters come from those
 *   candidates over every venue database (merged-window.ts).
 */
import { isCircle, type Area, type Circle } from "../data-contract/distance.ts";
import type { Language } from "../data-contract/languages.ts";
import { EDGE_RECORDS, PLACED_CANDIDATES } from "../match/capped.ts";
import { ITEMS_PER_PAGE, pageOffset } from "../params/paging.ts";
import { hasFilters, type SearchParams } from "../params/search-params.ts";
import { pageRecords, type Page, type VenueRecord } from "./records.ts";
import { mergedOnce, MERGED, rowsOfEach, type Row } from "./merged-rows.ts";
import { coverWindow, windowRecords, type Candidate } from "./merged-window.ts";
import type { InAreaMerge, Runner } from "./resource.ts";
import { areaBrowse, areaBrowseMerge, areaRings, type AreaPart } from "./trips.ts";
import type { MergeHint } from "../geo/index.ts";
import { VENUES } from "./venues.ts";

const SIZE = ITEMS_PER_PAGE.venues;

/** Rows in an area's order: how far (NULL in a box), then pos (column `column`); each pos once. */
const inAreaOrder = (lists: readonly Row[][], column: string): Row[] =>
  mergedOnce(
    lists.map((rows) => rows.filter((row) => row[column] !== null && row[column] !== undefined)),
    (a, b) => Number(a.dist ?? 0) - Number(b.dist ?? 0) || Number(a[column]) - Number(b[column]),
    column,
  );

/**
 * What venue database `i` of `shards` reads of an area: the part within its bounds, its total with
 * how many edge records it measured (src/geo/places.ts countsEdges).
 */
const partOf = (shards: readonly Runner[], i: number): AreaPart => ({ within: shards[i]?.within, countsEdges: true });

/**
 * The sum of the databases' totals (each row of theirs carries it, with the edge records it
 * measured: partOf); null where those are more than one database measures, whose total is then a
 * lower bound that theirs do not make.
 */
function summed(lists: readonly Row[][]): { total: number } | null {
  if (lists.reduce((n, rows) => n + Number(rows[0]?.more ?? 0), 0) > EDGE_RECORDS) return null;
  return { total: lists.reduce((n, rows) => n + Number(rows[0]?.total ?? 0), 0) };
}

/**
 * The first `size` records of a venue search without a name in `area` from each of `shards`, its
 * total on each row (none: one row of the total alone).
 */
const firstPages = (shards: readonly Runner[], p: SearchParams, area: Area, language: Language, size: number) =>
  rowsOfEach(shards, MERGED, (i) =>
    pageRecords("venues", areaBrowse(VENUES, p, area, 0, size, partOf(shards, i)), language, true, true),
  );

/**
 * The circle one database reads a page of every venue near a point from, ending at `need`: the
 * smallest whose inside cells hold that many over every venue database (src/geo/near-pages.ts
 * ringsInside), else the search's own (0).
 */
async function ringOf(shards: readonly Runner[], near: Circle, need: number): Promise<number> {
  const counts = await rowsOfEach(shards, `${MERGED}: the circles' counts`, (i) =>
    areaRings(VENUES, near, shards[i]?.within),
  );
  const rings = Object.keys(counts[0]?.[0] ?? {}).filter((column) => column !== "l0").length;
  for (let j = rings; j >= 1; j--) {
    if (counts.reduce((n, rows) => n + Number(rows[0]?.[`l${j}`] ?? 0), 0) >= need) return j;
  }
  return 0;
}

/** How many of the window's start lie in the area among the candidates one database reads in a box. */
const keptIn = (start: readonly Candidate[]) => start.slice(0, PLACED_CANDIDATES).filter((c) => c.kept).length;

/** The candidates of a page near a point in one database's order: how far, then pos. */
const nearestFirst = (a: Candidate, b: Candidate) => (a.dist ?? 0) - (b.dist ?? 0) || a.pos - b.pos;

/**
 * A page from the first candidates of the area's cover over `shards` (coverWindow): in a box those
 * in it of the first PLACED_CANDIDATES in pos order (src/geo/box-page.ts placedReading), near a
 * point those in it of one more, nearest first (src/geo/scanned.ts); the total `counted` from the
 * databases' own counts, else those in the area of one more than PLACED_CANDIDATES, a lower bound
 * where there were more (src/match/capped.ts cappedCount). Null past the window's rounds.
 */
async function windowPage(
  shards: readonly Runner[],
  inArea: InAreaMerge,
  p: SearchParams,
  language: Language,
  counted: { total: number } | null,
): Promise<Page<VenueRecord> | null> {
  const offset = pageOffset("venues", p.page);
  const need = offset + SIZE;
  // With its total counted apart, a page needs only the start of the window that holds it.
  const page =
    counted === null ? undefined : { first: need, holds: (start: readonly Candidate[]) => keptIn(start) >= need };
  const window = await coverWindow(shards, inArea, PLACED_CANDIDATES + 1, page);
  if (window === null) return null;
  const circle = isCircle(inArea.area);
  const read = circle ? window : window.slice(0, PLACED_CANDIDATES);
  const inside = read.filter((c) => c.kept);
  if (circle) inside.sort(nearestFirst);
  const rows = await windowRecords(shards, inArea, inside.slice(offset, need), language);
  const more = window.length > PLACED_CANDIDATES;
  const total = counted ?? { total: window.filter((c) => c.kept).length, ...(more ? { totalAtLeast: true } : {}) };
  return { page: p.page, ...total, items: rows.map((r) => VENUES.record(r)), match: "exact" };
}

/**
 * Each database's first `size` positions (pos, dist) in `area` with its total, read as one
 * database reads them, as a merge asks (src/geo/pages.ts MergeHint).
 */
const firstPositions = (shards: readonly Runner[], p: SearchParams, area: Area, size: number, merge: MergeHint) =>
  rowsOfEach(shards, MERGED, (i) => areaBrowse(VENUES, p, area, 0, size, { ...partOf(shards, i), ...merge }));

/** The positions of several databases in the area's order (inAreaOrder), each pos once, as candidates. */
const inOrder = (lists: readonly Row[][]): Candidate[] =>
  inAreaOrder(
    lists.map((rows, shard) => rows.map((row) => ({ ...row, shard }))),
    "pos",
  ).map((row) => ({
    pos: Number(row.pos),
    kept: true,
    dist: row.dist === null ? null : Number(row.dist),
    shard: Number(row.shard),
  }));

/**
 * A page that one database reads exactly — every venue or a kind near a point, every venue in a
 * box that holds few — from each database's positions up to the page's end (`lists`), merged,
 * then its records from the databases that hold them; the total theirs (where they give it), null
 * where one is a lower bound.
 */
async function pageAlike(
  shards: readonly Runner[],
  p: SearchParams,
  inArea: InAreaMerge,
  language: Language,
  lists: Row[][],
  total = summed(lists),
) {
  if (total === null) return null;
  const offset = pageOffset("venues", p.page);
  const page = inOrder(lists).slice(offset, offset + SIZE);
  const rows = await windowRecords(shards, inArea, page, language);
  return { page: p.page, ...total, items: rows.map((r) => VENUES.record(r)), match: "exact" as const };
}

/**
 * A page of a venue search without a name in a box, merged from `shards` as one database reads it:
 * every venue from each database's positions where the box holds few, else (and a kind) from the
 * cover's first candidates, the total their databases' counts.
 */
async function inBox(shards: readonly Runner[], p: SearchParams, box: Area, language: Language) {
  const inArea = areaBrowseMerge(VENUES, p, box);
  if (p.kind !== undefined) {
    const total = summed(await firstPages(shards, p, box, language, 0));
    return total === null ? null : windowPage(shards, inArea, p, language, total);
  }
  const offset = pageOffset("venues", p.page);
  const need = offset + SIZE;
  // Each database's total, and its page up to the page's end where it holds few — past the first
  // page, few of its share: where the box holds more, what they read of their pages stays within it.
  const share = offset === 0 ? EDGE_RECORDS : Math.floor(EDGE_RECORDS / shards.length);
  const lists = await firstPositions(shards, p, box, need, { fewBelow: share });
  const total = summed(lists);
  if (total === null) return null;
  if (total.total > EDGE_RECORDS) return windowPage(shards, inArea, p, language, total);
  // The box holds few: the pages of the databases past their share, read now.
  const past = lists.map((rows) => Number(rows[0]?.total ?? 0) > share);
  const more = await rowsOfEach(shards, MERGED, (i) =>
    past[i] === true ? areaBrowse(VENUES, p, box, 0, need, { ...partOf(shards, i), few: true }) : null,
  );
  return pageAlike(
    shards,
    p,
    inArea,
    language,
    lists.map((rows, i) => (past[i] === true ? (more[i] ?? []) : rows)),
    total,
  );
}

/**
 * A page of a venue search without a name in `area`, merged from `shards` as one database reads it
 * (above). Null where a database's total is a lower bound and one database's total is not their
 * sum, or past the window's rounds (the main database answers).
 */
export async function mergedAreaVenues(
  shards: readonly Runner[],
  p: SearchParams,
  area: Area,
  language: Language,
): Promise<Page<VenueRecord> | null> {
  if (hasFilters(p)) return windowPage(shards, areaBrowseMerge(VENUES, p, area), p, language, null);
  if (!isCircle(area)) return inBox(shards, p, area, language);
  const offset = pageOffset("venues", p.page);
  if (offset > 0) {
    const need = offset + SIZE;
    const ring = p.kind === undefined ? await ringOf(shards, area, need) : undefined;
    const lists = await firstPositions(shards, p, area, need, { ring });
    return pageAlike(shards, p, areaBrowseMerge(VENUES, p, area), language, lists);
  }
  // Near a point the first page with its records at once.
  const lists = await firstPages(shards, p, area, language, SIZE);
  const total = summed(lists);
  if (total === null) return null;
  const items = inAreaOrder(lists, "by_pos").slice(0, SIZE);
  return { page: p.page, ...total, items: items.map((r) => VENUES.record(r)), match: "exact" };
}
