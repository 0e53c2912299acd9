/**
 * A venue name search outside an area over several venue databases
 * (docs/deploy.md#past-one-database): the first round trip of runSearch() (search.ts), its strict
 * answer merged from each database's part, its other statements (a typo's corrections, the place
 * readings: trips.ts) in the main database, at the same time; and so the searches that follow it:
 * a place's answer (place-answers.ts) and the typo fallback's page (forgiving.ts), whose decisions
 * and total stay in the main database, which holds every venue.
 *
 * A name search reads, in each tier, the first matches up to the page's end (names.ts: tiered),
 * so each database's tiers hold its part of the page: merged, each record keeps its best key, and
 * the records found only by another name are promoted by the first record found by an own name of
 * them all (src/match/own-names.ts: rankedOnce), which no database alone can know. Then the
 * records of the page from the databases that hold them, and the total: stored in the main
 * database for a one-word name, or counted by the venue databases in turn (merged-browse.ts).
 * Past its first page, a broad word alone seeks: the main database gives the anchor before the page
 * in each segment of its order it overlaps (anchored.ts), and each venue database reads its records
 * of those segments after it, merged in pos order. Any other name reads at most MOST_MERGED_MATCHES.
 */
import type { Language } from "../data-contract/languages.ts";
import { rankedOnce, type SizedBest } from "../match/own-names.ts";
import { ITEMS_PER_PAGE, pageOffset } from "../params/paging.ts";
import type { SearchParams } from "../params/search-params.ts";
import { numbered, type Sql } from "../sql/sql.ts";
import { aloneWord, pageAnchorsSql, segmentReadsSql, type PageAnchor } from "./anchored.ts";
import { countedInTurn } from "./merged-browse.ts";
import { inPosOrder, MERGED, recordsOf, rowsOfEach, type Row } from "./merged-rows.ts";
import type { Runner, Search } from "./resource.ts";
import { storedCount } from "./totals.ts";
import { TripRows, type Trip } from "./trip.ts";
import type { FirstTrip, Merges } from "./trips.ts";
import { VENUES } from "./venues.ts";

/**
 * The matches a tier reads at most over every venue database asked: the page's end in each. A
 * tier's reads cost a few rows a match (its checks), more than one database's for as many matches
 * (`the c` at page 10 from four: 14,204 rows, where the main database read 8,060 at page 11), and
 * the typo fallback may read in the main database after them, within the 20,000 of a request
 * (docs/api.md#what-one-request-may-cost); deeper pages are the main database's, until a name's
 * deep pages seek in each venue database (docs/deploy.md#past-one-database).
 */
const MOST_MERGED_MATCHES = 600;

/** The first trip's statements that the merge makes of its own: the others run in the main database. */
const MERGED_PARTS = new Set(["total", "page"]);

/** A trip's statements but those `merged` names, with their names, in the trip's order (the main database's part). */
function apart(trip: Trip, merged: (name: string) => boolean) {
  const kept = trip.names.flatMap((name, i) => (merged(name) ? [] : [{ name, statement: trip.statements[i] as Sql }]));
  return { names: kept.map((k) => k.name), statements: kept.map((k) => k.statement) };
}

const sized = (row: Row): SizedBest => ({
  pos: Number(row.pos),
  k: Number(row.k),
  size: row.size === null || row.size === undefined ? null : Number(row.size),
});

/** The main database's part: the first trip's other statements, the stored total, a broad word's page anchors. */
async function mainPart(main: Runner, first: FirstTrip, p: SearchParams, anchors: Sql | null) {
  const own = apart(first.trip, (name) => MERGED_PARTS.has(name));
  const stored = storedCount(VENUES, p);
  const extra = [stored, anchors].filter((s) => s !== null).map(numbered);
  const statements = [...own.statements, ...extra];
  const results =
    statements.length === 0 ? [] : await main.run("venues search (the main database)", statements, own.names);
  const rest = results.slice(own.names.length).map((r) => r.rows);
  const storedRow = stored === null ? undefined : rest.shift()?.[0];
  return {
    names: own.names,
    rows: results.slice(0, own.names.length),
    stored: storedRow,
    anchors: anchors === null ? [] : (rest.shift() ?? []),
  };
}

/** A page's pos, and each database's rows that hold them. */
interface MergedPage {
  page: number[];
  lists: Row[][];
}

/** The page of a name's tiers: each database's best keys, ranked as one. */
async function tieredPage(shards: readonly Runner[], best: Sql, offset: number): Promise<MergedPage> {
  const lists = await rowsOfEach(shards, `${MERGED}: the best tiers`, () => best);
  const ranked = rankedOnce(lists.flat().map(sized));
  return { page: ranked.slice(offset, offset + ITEMS_PER_PAGE.venues).map((r) => r.pos), lists };
}

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

/** The total's row (n, more): stored in the main database, else counted by the venue databases in turn. */
async function totalRow(shards: readonly Runner[], countWithin: (limit: number) => Sql, stored: Row | undefined) {
  const total = stored === undefined ? await countedInTurn(shards, countWithin) : { total: Number(stored.n ?? 0) };
  return { n: total.total, more: "totalAtLeast" in total ? 1 : 0 };
}

/**
 * The rows of runSearch()'s first round trip for a venue name search outside an area, merged from
 * `shards` (the other statements in `main`); null where the main database answers it alone (not a
 * name outside an area, or a page deeper than the databases may read but a broad word's).
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
  const deep = shards.length * (offset + ITEMS_PER_PAGE.venues) > MOST_MERGED_MATCHES;
  if (parts === undefined || (deep && word === undefined)) return null;
  const anchors = word === undefined ? null : pageAnchorsSql(VENUES, word, offset, language);
  const [inMain, tiered] = await Promise.all([
    mainPart(main, first, p, anchors),
    word === undefined ? tieredPage(shards, parts.best, offset) : null,
  ]);
  // A word alone that is not broad (no anchors) is read as any name is.
  const broad = word !== undefined && inMain.anchors.length > 0;
  const later = broad ? anchoredPage(shards, word, language, inMain.anchors) : null;
  const read = tiered ?? (await later) ?? (deep ? null : await tieredPage(shards, parts.best, offset));
  if (read === null) return null;
  const rows = await pageRows(shards, read, language);
  const count = await totalRow(shards, parts.countWithin, inMain.stored);
  return new TripRows(["total", "page", ...inMain.names], [{ rows: [count] }, { rows }, ...inMain.rows]);
}

/** The records of a merged page, in its order, from the databases that hold them. */
async function pageRows(shards: readonly Runner[], read: MergedPage, language: Language): Promise<Row[]> {
  const records = await recordsOf(shards, read.lists, new Set(read.page), language);
  const byPos = new Map(records.map((r) => [Number(r.by_pos), r]));
  return read.page.map((pos) => byPos.get(pos)).filter((r) => r !== undefined);
}

/**
 * The rows of a trip that holds a name search under `prefix` (the typo fallback's: forgiving.ts),
 * its page merged from `shards` as the first trip's strict page is, its other statements (its
 * total among them) in `main`; null where the main database answers it alone.
 */
async function mergedSearchTrip(
  main: Runner,
  shards: readonly Runner[],
  trip: Trip,
  search: Search,
  prefix: string,
  p: SearchParams,
  language: Language,
): Promise<TripRows | null> {
  const offset = pageOffset("venues", p.page);
  const best = search.merge?.best;
  if (best === undefined || shards.length * (offset + ITEMS_PER_PAGE.venues) > MOST_MERGED_MATCHES) return null;
  const page = `${prefix}page`;
  const others = apart(trip, (name) => name === page);
  const [results, read] = await Promise.all([
    main.run("venues search forgiving typos (the main database)", others.statements, others.names),
    tieredPage(shards, best, offset),
  ]);
  const rows = await pageRows(shards, read, language);
  let i = 0;
  return new TripRows(
    trip.names,
    trip.names.map((name) => (name === page ? { rows } : (results[i++] ?? { rows: [] }))),
  );
}

/** What merges a venue search's trips over `shards` (its other statements in `main`). */
export const mergesOver = (main: Runner, shards: readonly Runner[], language: Language): Merges => ({
  first: (first, p) => mergedFirstTrip(main, shards, first, p, language),
  search: (trip, search, prefix, p) => mergedSearchTrip(main, shards, trip, search, prefix, p, language),
});
