/**
 * The statements of a search's round trips (src/query/search.ts runs them): the strict search of a
 * resource (venues.ts, cities.ts, names.ts) with what the typo fallback and the place readings need
 * (corrections.ts, places.ts), and the typo fallback's own (docs/api.md#typo-tolerance).
 */
import type { Area, Circle } from "../data-contract/distance.ts";
import type { ShardBox } from "../data-contract/shards.ts";
import type { Language } from "../data-contract/languages.ts";
import { ITEMS_PER_PAGE, pageOffset } from "../params/paging.ts";
import { areaOf, type SearchParams } from "../params/search-params.ts";
import { areaMatches, areaPositions, ringsInside, type AreaQuery, type MergeHint } from "../geo/index.ts";
import { everyWordText, nameTierText, wordsShared } from "../match/fts.ts";
import { ftsFilters } from "../match/filters.ts";
import type { Sql } from "../sql/sql.ts";
import { CORRECTIONS, correctionsSql, type CorrectionsPart } from "./corrections.ts";
import { everyMatchText, fuzzyTiers, tiered, tiersOf, type Tier } from "./names.ts";
import { aloneWord, anchoredPositions } from "./anchored.ts";
import { ownNames } from "../match/own-names.ts";
import { PLACES, placeReadingsSql, readingsOf, type AskedReading, type PlacesAsked } from "./places.ts";
import type { InAreaMerge, ResourceQueries, Search } from "./resource.ts";
import { Trip, type TripRows } from "./trip.ts";
import { heldSql, holds } from "./held.ts";
import { readingsTotal, storedTotal } from "./totals.ts";
import {
  alternatives,
  everyAlternative,
  lookups,
  readings,
  spreads,
  type Alternative,
  type Candidate,
  type Reading,
} from "./typos.ts";

/**
 * Where a venue database reads an area (its records' bounds), how a merge asks for its page
 * (src/geo/pages.ts), and whether its total says how many edge records it measured (src/geo/places.ts).
 */
export interface AreaPart extends MergeHint {
  within?: readonly ShardBox[];
  countsEdges?: boolean;
}

/**
 * The positions of a search without a name in an area, `size` of them from `offset`, each row with
 * the total (src/geo/: one row of the total alone when there are none).
 */
export function areaBrowse<R>(
  q: ResourceQueries<R>,
  p: SearchParams,
  area: Area,
  offset: number,
  size: number,
  { within, countsEdges, ...merge }: AreaPart = {},
): Sql {
  const places = within === undefined && countsEdges === undefined ? q.places : { ...q.places, within, countsEdges };
  const query = { places, kind: q.prefixKind, area, tiers: [], everything: null, params: p, merge };
  return areaPositions({ ...query, filters: ftsFilters(p, q.fts), held: null, offset, size });
}

/** What the inside cells of each circle a page of every record near `near` is looked for in hold (src/geo/near-pages.ts). */
export const areaRings = <R>(q: ResourceQueries<R>, near: Circle, within?: readonly ShardBox[]): Sql =>
  ringsInside(within === undefined ? q.places : { ...q.places, within }, near);

/**
 * A search without a name in an area, its reads over several venue databases (merged-area.ts, its
 * deeper pages): every record in the area as one tier, within the filters.
 */
export function areaBrowseMerge<R>(q: ResourceQueries<R>, p: SearchParams, area: Area): InAreaMerge {
  const query: AreaQuery = {
    places: q.places,
    kind: q.prefixKind,
    area,
    tiers: [{ key: 0, text: null }],
    everything: null,
    filters: ftsFilters(p, q.fts),
    held: null,
    params: p,
    offset: 0,
    size: 0,
  };
  return areaMatches(query);
}

/** The strict search of a request, or null when nothing can match (a name without words). */
function strictSearch<R>(q: ResourceQueries<R>, p: SearchParams, language: Language): Search | null {
  const offset = pageOffset(q.resource, p.page);
  const area = areaOf(p);
  if (p.name === undefined) {
    if (area === undefined) return q.browse(p, offset);
    return { positions: areaBrowse(q, p, area, offset, ITEMS_PER_PAGE[q.resource]) };
  }
  const word = p.nameWords.length === 1 ? p.nameWords[0] : undefined;
  const search = tiered(q, p, tiersOf(p.name, 0, ownNames(q.fts, language)), offset, { word });
  if (search === null || search.count === undefined) return search;
  const alone = aloneWord(p);
  const positions = alone === undefined ? null : anchoredPositions(q, alone, offset, language);
  return { ...search, positions: positions ?? search.positions, count: storedTotal(q, p, search.count) };
}

/** A search's statements: its total apart ("total"), or not (in an area), then its page's records ("page"). */
function searchTrip<R>(q: ResourceQueries<R>, search: Search, language: Language, count?: Sql): Trip {
  const page = q.page(search.positions, language, search.count === undefined);
  const total = search.count === undefined ? null : (count ?? search.count);
  return new Trip().add("total", total).add("page", page);
}

/** A page's total, marked a lower bound when the count stopped at its candidates (src/match/capped.ts). */
const counted = (total: unknown, more: unknown) =>
  Number(more ?? 0) > 0 ? { total: Number(total ?? 0), totalAtLeast: true as const } : { total: Number(total ?? 0) };

/** The total (and whether it is a lower bound) and the page's rows from the rows of searchTrip(). */
export function totalAndRows(rows: TripRows) {
  const page = rows.rows("page");
  if (rows.has("total")) {
    const count = rows.rows("total")[0];
    return { ...counted(count?.n, count?.more), rows: page };
  }
  // An empty page is one row of the total alone.
  return { ...counted(page[0]?.total, page[0]?.more), rows: page.filter((r) => r.id !== null) };
}

/**
 * The plan of a search's first round trip: total and page; when the name may be forgiven typos,
 * what the fallback needs ("corrections": correctionsSql); then, for a name, the strict answer's
 * best tier and the place readings ("places": placeReadingsSql).
 */
export interface FirstTrip {
  search: Search;
  trip: Trip;
  /** Whether the trip reads what the typo fallback needs. */
  fuzzy: boolean;
  /** The readings of a place at the end of the name it asks about. */
  readings: AskedReading[];
}

/** What the first trip's place readings' statement (PLACES) asks, where it holds one. */
export function placesAskedOf(first: FirstTrip, p: SearchParams): PlacesAsked | undefined {
  const strict = p.name === undefined ? null : nameTierText(p.name);
  return strict === null || !first.trip.names.includes(PLACES) ? undefined : { p, strict, list: first.readings };
}

/** What the first trip read after the page: corrections, place readings (null when not asked). */
export function firstTripRows(rows: TripRows) {
  const corrections = rows.rows(CORRECTIONS)[0];
  return {
    corrections,
    places: rows.has(PLACES) ? rows.rows(PLACES) : null,
    filtersHold: rows.has(CORRECTIONS) ? holds(corrections) : undefined,
  };
}

/**
 * The statement of what the typo fallback needs (corrections.ts: its `part`), unless the strict
 * answer (whose condition is `stands`) stands; null when the name may not be forgiven typos.
 */
export function correctionsOf<R>(
  q: ResourceQueries<R>,
  p: SearchParams,
  stands: Sql | undefined,
  part?: CorrectionsPart,
) {
  const queryWords = p.typos ? p.nameWords : [];
  const list = lookups(queryWords);
  if (list.length === 0) return null;
  return correctionsSql(q.resource, q.fts, queryWords, list, { unless: stands, held: heldSql(q, p), part });
}

export function firstTrip<R>(q: ResourceQueries<R>, p: SearchParams, language: Language): FirstTrip | null {
  const strict = strictSearch(q, p, language);
  if (strict === null) return null;
  const trip = searchTrip(q, strict, language);
  const corrections = correctionsOf(q, p, strict.stands);
  const fuzzy = corrections !== null;
  trip.add(CORRECTIONS, corrections);
  // The strict answer's best tier (for the typo fallback to overrule a words-only answer), and the
  // places the end of the name may stand for (read as without an area; the answer is in it).
  const text = p.name === undefined ? null : nameTierText(p.name);
  const reads = text !== null && (fuzzy || (p.places && p.nameWords.length > 1));
  const readings = reads && p.places ? readingsOf(p, q.resource) : [];
  if (reads) trip.add(PLACES, placeReadingsSql(q, p, text, readings));
  return { search: strict, trip, fuzzy, readings };
}

/**
 * The round trip of the typo fallback: the name's readings within the allowed edits, or null
 * without any. `typedMatches`: the name as typed matches some records (their names only at the
 * start of a word), so the total cannot be counted as everyAlternative() does.
 */
export function fuzzyTrip<R>(
  q: ResourceQueries<R>,
  p: SearchParams,
  language: Language,
  candidates: readonly Candidate[],
  { present = [], typedMatches = false }: { present?: readonly boolean[]; typedMatches?: boolean } = {},
): FuzzyTrip | null {
  const options = alternatives(p.nameWords, candidates, present);
  const list = readings(options);
  const spreadList = spreads(options);
  // Words that may take the same words of a name ask of each spread more than of all alternatives
  // at once (sharedNeeded): then only the spreads' own texts count exactly.
  const groups = typedMatches || spreadList.some((s) => wordsShared(s.words)) ? null : everyAlternative(options);
  const every = groups === null ? undefined : everyWordText(groups);
  const tiers = fuzzyTiers(list, spreadList, ownNames(q.fts, language));
  const fuzzy = tiered(q, p, tiers, pageOffset(q.resource, p.page), { every, guarded: true });
  if (fuzzy === null) return null;
  const count = fuzzy.count === undefined ? undefined : readingsTotal(q, p, list, fuzzy.count);
  return {
    search: fuzzy,
    trip: searchTrip(q, fuzzy, language, count),
    options,
    readings: list,
    tiers,
    every: everyMatchText(tiers, every),
  };
}

/** The typo fallback's round trip: its search, statements, and the readings and tiers they are made of. */
export interface FuzzyTrip {
  search: Search;
  trip: Trip;
  options: Alternative[][];
  readings: Reading[];
  /** Its tiers (tierKey and FTS5 text), fewest edits first. */
  tiers: Tier[];
  /** FTS5 text that every record its tiers find matches. */
  every: string;
}

/**
 * Where a search's round trips read several venue databases at once (merged-names.ts): each
 * method gives the rows of its trip, or null where the search's runner runs the trip alone.
 */
export interface Merges {
  /** The first round trip. */
  first(first: FirstTrip, p: SearchParams): Promise<TripRows | null>;
  /**
   * A trip of the typo fallback, holding a name search under `prefix` (its total and page:
   * searchTrip) or none, and place readings (PLACES) that ask `places`, or none.
   */
  search(
    trip: Trip,
    asked: { search: Search | null; prefix: string; places: PlacesAsked | undefined },
    p: SearchParams,
  ): Promise<TripRows | null>;
}
