/**
 * A venue search without a name in an area (a box, a circle) over several venue databases
 * (docs/deploy.md#past-one-database): each venue database reads the part of the area that meets its
 * bounds (src/geo/places.ts `within`), its total and its first page as one database reads them;
 * merged in the area's order (nearest first near a point, then pos: docs/api.md#order), the totals
 * summed. A deeper page from every venue in the area, where the databases' covers hold few.
 */
import type { Area } from "../data-contract/distance.ts";
import type { Language } from "../data-contract/languages.ts";
import { ITEMS_PER_PAGE, pageOffset } from "../params/paging.ts";
import type { SearchParams } from "../params/search-params.ts";
import { pageRecords, type Page, type VenueRecord } from "./records.ts";
import { mergedOnce, MERGED, rowsOfEach, type Row } from "./merged-rows.ts";
import { everyInArea, fewEnough, firstCount } from "./merged-area-names.ts";
import type { Runner } from "./resource.ts";
import { areaBrowse, areaBrowseMerge } from "./trips.ts";
import { VENUES } from "./venues.ts";

const SIZE = ITEMS_PER_PAGE.venues;

/** Rows in an area's order: how far (NULL in a box), then pos (column `column`); each pos once. */
const inAreaOrder = (lists: readonly Row[][], column: string): Row[] =>
  mergedOnce(
    lists.map((rows) => rows.filter((row) => row[column] !== null && row[column] !== undefined)),
    (a, b) => Number(a.dist ?? 0) - Number(b.dist ?? 0) || Number(a[column]) - Number(b[column]),
    column,
  );

/** The sum of the databases' totals (each row of theirs carries it); null where one of them is a lower bound. */
function summed(lists: readonly Row[][]): { total: number } | null {
  if (lists.some((rows) => Number(rows[0]?.more ?? 0) > 0)) return null;
  return { total: lists.reduce((n, rows) => n + Number(rows[0]?.total ?? 0), 0) };
}

/**
 * The first `size` records of a venue search without a name in `area` from each of `shards`, its
 * total on each row (none: one row of the total alone).
 */
const firstPages = (shards: readonly Runner[], p: SearchParams, area: Area, language: Language, size: number) =>
  rowsOfEach(shards, MERGED, (i) =>
    pageRecords("venues", areaBrowse(VENUES, p, area, 0, size, shards[i]?.within), language, true, true),
  );

/**
 * A page of a venue search without a name in `area`, merged from `shards`: the first from each
 * one's first page; a deeper one, where their covers hold few enough venues for each to read every
 * one in the area (merged-area-names.ts: fewEnough, everyInArea), those ranked as one database
 * ranks them, the total from their first pages. Null where a database's count is a lower bound,
 * or the covers hold more (the main database answers).
 */
export async function mergedAreaVenues(
  shards: readonly Runner[],
  p: SearchParams,
  area: Area,
  language: Language,
): Promise<Page<VenueRecord> | null> {
  const offset = pageOffset("venues", p.page);
  if (offset === 0) {
    const lists = await firstPages(shards, p, area, language, SIZE);
    const total = summed(lists);
    if (total === null) return null;
    const items = inAreaOrder(lists, "by_pos").slice(0, SIZE);
    return { page: p.page, ...total, items: items.map((r) => VENUES.record(r)), match: "exact" };
  }
  // The covers counted first: where they hold more, the first pages are not read.
  const inArea = areaBrowseMerge(VENUES, p, area);
  const counts = await rowsOfEach(shards, MERGED, () => firstCount(inArea, shards));
  const counted = counts.map((rows) => Number(rows[0]?.n ?? 0));
  if (!(await fewEnough(shards, inArea, counted))) return null;
  // Their totals, each as its first page reads it (none of its records).
  const [lists, rows] = await Promise.all([
    firstPages(shards, p, area, language, 0),
    everyInArea(shards, inArea, counted, offset, language),
  ]);
  const total = summed(lists);
  if (total === null) return null;
  const items = rows.filter((r) => r.id !== null).map((r) => VENUES.record(r));
  return { page: p.page, ...total, items, match: "exact" };
}
