/**
 * A venue name search outside an area over several venue databases
 * (docs/deploy.md#past-one-database): the trips of runSearch() (search.ts) — its strict answer, a
 * place's answer (place-answers.ts), the typo fallback's pages (forgiving.ts) — merged from each
 * database's part, their decisions from their parts (merged-decisions.ts); the main database reads
 * what is chosen among every place or word, the stored totals and a broad word's anchors.
 *
 * A name search reads, in each tier, the first matches up to the page's end (names.ts: tiered),
 * so each database's tiers hold its part of the page: merged, each record keeps its best key, and
 * the records found only by another name are promoted by the first record found by an own name of
 * them all (src/match/own-names.ts: rankedOnce), which no database alone can know. Then the
 * records of the page from the databases that hold them, and the total: stored in the main
 * database for a one-word name, or counted by the venue databases in turn (merged-browse.ts).
 * Past its first page, a broad word alone seeks: the main database gives the anchor before the page
 * in each segment of its order it overlaps (anchored.ts), and each venue database reads its records
 * of those segments after it, merged in pos order. Any other name reads its tiers whole up to the
 * page's end in each database as far as MOST_MERGED_MATCHES in all; deeper, in slices
 * (merged-slices.ts).
 */
import type { Language } from "../data-contract/languages.ts";
import { rankedOnce } from "../match/own-names.ts";
import { ITEMS_PER_PAGE, pageOffset } from "../params/paging.ts";
import { areaOf, type SearchParams } from "../params/search-params.ts";
import type { Sql } from "../sql/sql.ts";
import { aloneWord, pageAnchorsSql, segmentReadsSql, type PageAnchor } from "./anchored.ts";
import { totalRow } from "./merged-browse.ts";
import { fallbackPage, slicedPage, tooDeep, type MergeParts } from "./merged-slices.ts";
import {
  inPosOrder,
  MERGED,
  recordsOf,
  rowsOf,
  rowsOfEach,
  rowsOfEachTrip,
  rowsOfTrip,
  sizedOf,
  combineOf,
  type Row,
} from "./merged-rows.ts";
import { PLACES, placeCandidatesSql, strictTierRowSql, type PlacesAsked } from "./places.ts";
import { placeRows } from "./merged-places.ts";
import { decisions } from "./merged-decisions.ts";
import { routedOver } from "./routed-names.ts";
import { areaMergesOver } from "./merged-area-names.ts";
import type { Runner, Search } from "./resource.ts";
import { storedCount } from "./totals.ts";
import { TripRows, type Trip } from "./trip.ts";
import { correctionsOf, placesAskedOf, type FirstTrip, type Merges } from "./trips.ts";
import { VENUES } from "./venues.ts";

/**
 * The main database's part of a first trip: the stored total, a broad word's page anchors, and the
 * places the name's end may stand for, among every place (places.ts: placeCandidatesSql).
 */
async function mainPart(main: Runner, p: SearchParams, anchors: Sql | null, places: PlacesAsked | undefined) {
  const stored = storedCount(VENUES, p);
  const candidates = places === undefined ? null : placeCandidatesSql(VENUES, places);
  const [storedRows, anchorRows, candidateRows] = await rowsOfTrip(main, "venues search (the main database)", [
    stored,
    anchors,
    candidates,
  ]);
  return { stored: storedRows?.[0], anchors: anchorRows ?? [], candidates: candidateRows ?? [] };
}

/** The first trip's reads in each venue database, at once: the name's best tiers, the corrections' index part, the strict tier. */
async function shardsPart(
  shards: readonly Runner[],
  first: FirstTrip,
  p: SearchParams,
  read: { tiers: Sql | null; places: PlacesAsked | undefined },
) {
  const index = first.fuzzy ? correctionsOf(VENUES, p, first.search.stands, "index") : null;
  const strict = read.places === undefined ? null : strictTierRowSql(VENUES, read.places);
  const lists = await rowsOfEachTrip(shards, `${MERGED}: the best tiers`, [read.tiers, index, strict]);
  const column = (k: number) => lists.map((l) => l[k] ?? []);
  return { best: column(0), index: index === null ? null : column(1), strict: column(2) };
}

/** A page's pos, and each database's rows that hold them. */
interface MergedPage {
  page: number[];
  lists: Row[][];
}

/** A page past the last match. */
const NO_PAGE: MergedPage = { page: [], lists: [] };

/** The page of a name's tiers from each database's best keys (`lists`), ranked as one. */
function rankedPage(lists: Row[][], offset: number): MergedPage {
  const ranked = rankedOnce(lists.flat().map(sizedOf));
  return { page: ranked.slice(offset, offset + ITEMS_PER_PAGE.venues).map((r) => r.pos), lists };
}

/** The page of a name's tiers: each database's best keys, ranked as one. */
const tieredPage = async (shards: readonly Runner[], best: Sql, offset: number): Promise<MergedPage> =>
  rankedPage(await rowsOfEach(shards, `${MERGED}: the best tiers`, () => best), offset);

/**
 * The page of a broad word alone past its first page: each segment's records after the anchor
 * before the page (the main database's: anchored.ts), read in each database, merged in pos order,
 * the segment's skip dropped, the segments in order.
 */
async function anchoredPage(shards: readonly Runner[], word: string, language: Language, rows: Row[]) {
  const anchors: PageAnchor[] = rows.map((a) => ({
    seg: Number(a.seg),
    skip: Number(a.skip),
    after: Number(a.after),
    b: a.b === null || a.b === undefined ? null : Number(a.b),
    every: Number(a.every),
  }));
  const lists = await rowsOfEach(shards, `${MERGED}: a broad word's segments`, () =>
    segmentReadsSql(VENUES, word, language, anchors),
  );
  const page = anchors.flatMap((a) =>
    inPosOrder(
      lists.map((list) => list.filter((r) => Number(r.o) === a.seg)),
      "pos",
    )
      .slice(a.skip)
      .map((r) => Number(r.pos)),
  );
  return { page: page.slice(0, ITEMS_PER_PAGE.venues), lists };
}

/**
 * A first trip's merged page: its tiers' best keys read with it (`best`), ranked; a broad word
 * alone's from its anchors; a word alone that is not broad (no anchors) read as any name is; deeper
 * than the databases may read whole, in slices (merged-slices.ts; null: the main database's).
 */
async function mergedPage(
  shards: readonly Runner[],
  asked: { word: string | undefined; deep: boolean; offset: number; parts: MergeParts; language: Language },
  anchors: Row[],
  best: Row[][],
): Promise<MergedPage | null> {
  const { word, offset, parts } = asked;
  if (word !== undefined && anchors.length > 0) return anchoredPage(shards, word, asked.language, anchors);
  if (asked.deep) return slicedPage(shards, parts, offset);
  return word === undefined ? rankedPage(best, offset) : tieredPage(shards, parts.best, offset);
}

/**
 * The rows of runSearch()'s first round trip for a venue name search outside an area, merged from
 * `shards` (what is chosen among every place or word in `main`); null where the main database
 * answers it alone (not a name outside an area, or slices that did not settle: merged-slices.ts).
 */
async function mergedFirstTrip(
  main: Runner,
  shards: readonly Runner[],
  first: FirstTrip,
  p: SearchParams,
  language: Language,
): Promise<TripRows | null> {
  const parts = first.search.merge;
  const offset = pageOffset("venues", p.page);
  const word = offset > 0 ? aloneWord(p) : undefined;
  const deep = tooDeep(shards, offset);
  if (parts === undefined) return null;
  const anchors = word === undefined ? null : pageAnchorsSql(VENUES, word, offset, language);
  const places = placesAskedOf(first, p);
  const [inMain, inShards] = await Promise.all([
    mainPart(main, p, anchors, places),
    shardsPart(shards, first, p, { tiers: word === undefined && !deep ? parts.best : null, places }),
  ]);
  // Deeper than the databases read whole, the total first: a page past a total that is not a bound reads nothing.
  const total = deep ? await totalRow(shards, parts.countWithin, inMain.stored) : null;
  const past = total !== null && total.more === 0 && offset >= total.n;
  const read = past
    ? NO_PAGE
    : await mergedPage(shards, { word, deep, offset, parts, language }, inMain.anchors, inShards.best);
  if (read === null) return null;
  const decided = await decisions(main, shards, p, {
    ...inShards,
    stands: first.search.stands,
    candidates: inMain.candidates,
    places,
  });
  const rows = await pageRows(shards, read, language);
  const count = total ?? (await totalRow(shards, parts.countWithin, inMain.stored));
  const named: [string, Row[] | null][] = [["total", [count]], ["page", rows], ...decided];
  const asked = named.filter((n): n is [string, Row[]] => n[1] !== null);
  return new TripRows(
    asked.map(([name]) => name),
    asked.map(([, rows]) => ({ rows })),
  );
}

/** The records of a merged page, in its order, from the databases that hold them. */
async function pageRows(shards: readonly Runner[], read: MergedPage, language: Language): Promise<Row[]> {
  const records = await recordsOf(shards, read.lists, new Set(read.page), language);
  const byPos = new Map(records.map((r) => [Number(r.by_pos), r]));
  return read.page.map((pos) => byPos.get(pos)).filter((r) => r !== undefined);
}

/**
 * Whether the merge knows how to make each statement of a fallback trip of the venue databases'
 * (else the main database's, and so the trip): its page, its place readings where asked, its
 * one-row statements (combineOf).
 */
function mergeable(trip: Trip, page: string, asked: { prefix: string; places: PlacesAsked | undefined }): boolean {
  const known = (name: string) => name === PLACES || name === page || combineOf(name, asked.prefix) !== undefined;
  return trip.names.every(known) && (asked.places !== undefined || !trip.names.includes(PLACES));
}

/**
 * The rows of a trip of the typo fallback (forgiving.ts) that holds a name search under `prefix`,
 * or none (`search` null): its page merged from `shards` as the first trip's strict page is, its
 * one-row statements combined from theirs (combineOf), its place readings (`places`: what they
 * ask) as the first trip's are; null where the main database answers it alone (a statement the
 * merge does not know, slices that did not settle).
 */
async function mergedSearchTrip(
  main: Runner,
  shards: readonly Runner[],
  trip: Trip,
  asked: { search: Search | null; prefix: string; places: PlacesAsked | undefined },
  p: SearchParams,
  language: Language,
): Promise<TripRows | null> {
  const offset = pageOffset("venues", p.page);
  const parts = asked.search === null ? null : (asked.search.merge ?? undefined);
  const page = `${asked.prefix}page`;
  if (parts === undefined || !mergeable(trip, page, asked)) return null;
  const reads = await fallbackPage(shards, parts, offset);
  if (reads === null) return null;
  const places = trip.names.includes(PLACES) ? asked.places : undefined;
  const combined = trip.but((name) => combineOf(name, asked.prefix) === undefined);
  const strict = places === undefined ? null : strictTierRowSql(VENUES, places);
  const [candidates, lists] = await Promise.all([
    places === undefined ? [] : rowsOf(main, `${MERGED}: the places`, [placeCandidatesSql(VENUES, places)]),
    rowsOfEachTrip(shards, `${MERGED}: forgiving typos`, [reads.best, strict, ...combined.statements]),
  ]);
  const column = (k: number) => lists.map((l) => l[k] ?? []);
  const byName = new Map<string, Row[]>();
  if (places !== undefined) byName.set(PLACES, await placeRows(shards, places, column(1), candidates[0] ?? []));
  const read = reads.sliced ?? (reads.best === null ? null : rankedPage(column(0), offset));
  if (read !== null) byName.set(page, await pageRows(shards, read, language));
  combined.names.forEach((name, i) => {
    const combine = combineOf(name, asked.prefix);
    if (combine !== undefined) byName.set(name, [combine(column(i + 2).map((rows) => rows[0] ?? {}))]);
  });
  return new TripRows(
    trip.names,
    trip.names.map((name) => ({ rows: byName.get(name) ?? [] })),
  );
}

/**
 * What merges a venue search's trips over `shards` (its other statements in `main`; in an area:
 * merged-area-names.ts); over one alone, what runs them there, their decisions split
 * (routed-names.ts; `every` venue database where a place is read in an area).
 */
export function mergesOver(
  main: Runner,
  shards: readonly Runner[],
  language: Language,
  every: readonly Runner[] = [],
): Merges {
  const [shard] = shards;
  if (shards.length === 1 && shard !== undefined) return routedOver(main, shard, every);
  const inArea = areaMergesOver(main, shards, language, every);
  return {
    first: (first, p) =>
      areaOf(p) === undefined ? mergedFirstTrip(main, shards, first, p, language) : inArea.first(first, p),
    search: (trip, asked, p) =>
      areaOf(p) === undefined
        ? mergedSearchTrip(main, shards, trip, asked, p, language)
        : inArea.search(trip, asked, p),
  };
}
