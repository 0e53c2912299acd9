/**
 * A venue name search in an area over several venue databases (docs/deploy.md#past-one-database).
 * Where the area's cover holds at most PLACED_CANDIDATES matches of the name in all, one database
 * reads every one of them, whichever way it reads the area (src/geo/): so each venue database
 * reads every record of its own in the area with its best tier, and they are ranked as one
 * database ranks them (docs/api.md#order) — the far larger found only by another name promoted by
 * the first found by an own name of them all (rankedOnce), then rankCompare() — at any page, the
 * total their count. The first trip's decisions (a typo's corrections, the place readings) from
 * their parts, as merged-names.ts reads them outside an area. Where the cover holds more, null: the
 * main database answers.
 */
import type { Language } from "../data-contract/languages.ts";
import { rankCompare } from "../data-contract/ranking.ts";
import { PLACED_CANDIDATES } from "../match/capped.ts";
import { rankedOnce } from "../match/own-names.ts";
import { ITEMS_PER_PAGE, pageOffset } from "../params/paging.ts";
import type { SearchParams } from "../params/search-params.ts";
import { CORRECTIONS } from "./corrections.ts";
import { decisions } from "./merged-decisions.ts";
import { placeRows } from "./merged-places.ts";
import { combineOf, MERGED, rowsOf, rowsOfEach, rowsOfEachTrip, sizedOf, type Row } from "./merged-rows.ts";
import { PLACES, placeCandidatesSql, strictTierRowSql, type PlacesAsked } from "./places.ts";
import type { InAreaMerge, Runner, Search } from "./resource.ts";
import { TripRows, type Trip } from "./trip.ts";
import { correctionsOf, placesAskedOf, type FirstTrip, type Merges } from "./trips.ts";
import { VENUES } from "./venues.ts";
import { windowRecords } from "./merged-window.ts";

const SIZE = ITEMS_PER_PAGE.venues;

/** The venue databases asked, and every one the deployment binds (where a place in the text reads its tiers). */
interface Databases {
  main: Runner;
  shards: readonly Runner[];
  every: readonly Runner[];
}

/** What each of `databases` venue databases first counts of the candidates one database reads whole, less one. */
const shareOf = (databases: number) => Math.floor(PLACED_CANDIDATES / databases);

/** The first count's statement in each of `shards`: up to its share and one. */
const firstCount = (inArea: InAreaMerge, shards: readonly Runner[]) => inArea.candidates(shareOf(shards.length) + 1);

/**
 * Whether the venue databases' covers hold at most PLACED_CANDIDATES candidates together, from
 * their first counts (`counted`, each up to its share and one: firstCount): those past their share
 * are counted again, each up to what the others leave it, so the counts read at most about twice
 * PLACED_CANDIDATES rows however many databases a search asks.
 */
async function fewEnough(shards: readonly Runner[], inArea: InAreaMerge, counted: readonly number[]) {
  const share = shareOf(shards.length);
  const past = shards.filter((_, i) => (counted[i] ?? 0) > share);
  const within = counted.filter((n) => n <= share).reduce((a, b) => a + b, 0);
  if (past.length === 0) return true;
  // Each database past its share holds at least share + 1: what the others leave each of them.
  const left = PLACED_CANDIDATES - within - (past.length - 1) * (share + 1);
  if (left <= share) return false;
  const again = await rowsOfEach(past, `${MERGED}: the area's candidates`, () => inArea.candidates(left + 1));
  return within + again.reduce((a, rows) => a + Number(rows[0]?.n ?? 0), 0) <= PLACED_CANDIDATES;
}

/** A record in the area as one database's statement ranks it. */
const matchOf = (row: Row) => ({ ...sizedOf(row), dist: row.dist === null ? null : Number(row.dist) });

/**
 * The rows of the page at `offset` of a name search in an area, as one database's statement gives
 * them (each with the total; an empty page one row of the total alone), from the candidates each
 * venue database first counted (`counts`); null where they are more than one database reads whole.
 */
async function areaPage(
  shards: readonly Runner[],
  inArea: InAreaMerge,
  counts: Row[][],
  offset: number,
  language: Language,
) {
  const counted = counts.map((rows) => Number(rows[0]?.n ?? 0));
  if (!(await fewEnough(shards, inArea, counted))) return null;
  return everyInArea(shards, inArea, counted, offset, language);
}

/**
 * The rows of the page at `offset` from every record in the area of each venue database whose
 * cover holds some (`counted`: their covers hold few enough, fewEnough), ranked as one database
 * ranks them; each with the total, an empty page one row of the total alone.
 */
async function everyInArea(
  shards: readonly Runner[],
  inArea: InAreaMerge,
  counted: readonly number[],
  offset: number,
  language: Language,
): Promise<Row[]> {
  const lists = await rowsOfEach(shards, `${MERGED}: the records in the area`, (i) =>
    counted[i] === 0 ? null : inArea.matches,
  );
  const ranked = rankedOnce(lists.flat().map(matchOf)).sort(rankCompare);
  const page = ranked.slice(offset, offset + SIZE).map((r) => r.pos);
  const total = { total: ranked.length, more: 0 };
  if (page.length === 0) return [{ ...total, id: null }];
  // Each record from the first database that holds it.
  const holder = new Map<number, number>();
  lists.forEach((rows, shard) =>
    rows.forEach((row) => holder.has(Number(row.pos)) || holder.set(Number(row.pos), shard)),
  );
  const candidates = page.map((pos) => ({ pos, kept: true, dist: null, shard: holder.get(pos) ?? -1 }));
  return windowRecords(shards, inArea, candidates, language, total);
}

/** The venue databases a place in the text reads its tiers in: every one, as without the area. */
const tiersIn = (d: Databases) => (d.every.length > 0 ? d.every : d.shards);

/** TripRows of `names` from rows by name. */
const tripRows = (names: readonly string[], byName: ReadonlyMap<string, Row[]>) =>
  new TripRows(
    names,
    names.map((name) => ({ rows: byName.get(name) ?? [] })),
  );

/**
 * The rows of runSearch()'s first round trip for a venue name search in an area, merged: its page
 * (areaPage), its decisions from their parts; null where the main database answers it.
 */
async function firstTrip(d: Databases, first: FirstTrip, p: SearchParams, language: Language) {
  const inArea = first.search.inArea;
  const known = ["page", CORRECTIONS, PLACES];
  if (inArea === undefined || !first.trip.names.every((name) => known.includes(name))) return null;
  const places = placesAskedOf(first, p);
  const index = first.fuzzy ? correctionsOf(VENUES, p, first.search.stands, "index") : null;
  const strict = places === undefined ? null : strictTierRowSql(VENUES, places);
  const [parts, strictRows, candidates] = await Promise.all([
    rowsOfEachTrip(d.shards, `${MERGED}: the area's candidates`, [firstCount(inArea, d.shards), index]),
    rowsOfEach(strict === null ? [] : tiersIn(d), `${MERGED}: the strict tier`, () => strict),
    places === undefined ? [] : rowsOf(d.main, "venues search: the places", [placeCandidatesSql(VENUES, places)]),
  ]);
  const offset = pageOffset("venues", p.page);
  const [page, decided] = await Promise.all([
    areaPage(
      d.shards,
      inArea,
      parts.map((l) => l[0] ?? []),
      offset,
      language,
    ),
    decisions(d.main, tiersIn(d), p, {
      index: index === null ? null : parts.map((l) => l[1] ?? []),
      stands: first.search.stands,
      strict: strictRows,
      candidates: candidates[0] ?? [],
      places,
    }),
  ]);
  if (page === null) return null;
  return tripRows(
    first.trip.names,
    new Map([["page", page], ...decided.filter((n): n is [string, Row[]] => n[1] !== null)]),
  );
}

/**
 * The rows of a trip of the typo fallback (forgiving.ts) in an area: its name search's page under
 * `prefix` (areaPage), its one-row statements combined from each venue database's (combineOf), its
 * place readings (`places`) from their parts; null where the main database answers it (a statement
 * the merge does not know, a cover of more candidates).
 */
async function searchTrip(
  d: Databases,
  trip: Trip,
  asked: { search: Search | null; prefix: string; places: PlacesAsked | undefined },
  p: SearchParams,
  language: Language,
) {
  const name = `${asked.prefix}page`;
  const inArea = asked.search?.inArea;
  const places = trip.names.includes(PLACES) ? asked.places : undefined;
  const known = (n: string) =>
    (n === name && inArea !== undefined) ||
    (n === PLACES && places !== undefined) ||
    combineOf(n, asked.prefix) !== undefined;
  if (!trip.names.every(known)) return null;
  const combined = trip.but((n) => combineOf(n, asked.prefix) === undefined);
  const strict = places === undefined ? null : strictTierRowSql(VENUES, places);
  const [lists, strictRows, candidates] = await Promise.all([
    rowsOfEachTrip(d.shards, `${MERGED}: forgiving typos`, [
      inArea === undefined ? null : firstCount(inArea, d.shards),
      ...combined.statements,
    ]),
    rowsOfEach(strict === null ? [] : tiersIn(d), `${MERGED}: the strict tier`, () => strict),
    places === undefined ? [] : rowsOf(d.main, `${MERGED}: the places`, [placeCandidatesSql(VENUES, places)]),
  ]);
  const column = (k: number) => lists.map((l) => l[k] ?? []);
  const byName = new Map<string, Row[]>();
  if (inArea !== undefined) {
    const page = await areaPage(d.shards, inArea, column(0), pageOffset("venues", p.page), language);
    if (page === null) return null;
    byName.set(name, page);
  }
  combined.names.forEach((n, i) => {
    const combine = combineOf(n, asked.prefix);
    if (combine !== undefined) byName.set(n, [combine(column(i + 1).map((rows) => rows[0] ?? {}))]);
  });
  if (places !== undefined) byName.set(PLACES, await placeRows(tiersIn(d), places, strictRows, candidates[0] ?? []));
  return tripRows(trip.names, byName);
}

/**
 * What merges a venue name search's trips in an area over `shards` (its other statements in
 * `main`, a place in its text read in `every` venue database).
 */
export function areaMergesOver(
  main: Runner,
  shards: readonly Runner[],
  language: Language,
  every: readonly Runner[],
): Merges {
  const d = { main, shards, every };
  return {
    first: (first, p) => firstTrip(d, first, p, language),
    search: (trip, asked, p) => searchTrip(d, trip, asked, p, language),
  };
}
