/**
 * Running a search: the statements of a resource (venues.ts, cities.ts, names.ts) in one D1 round
 * trip — the total, the page, and, when the name may be forgiven typos, what the typo fallback
 * needs (corrections.ts) — and, only when the strict search matches nothing, a second round trip
 * with the corrected readings of the name (docs/api.md#typo-tolerance).
 */
import type { Language } from "../data-contract/languages.ts";
import { words } from "../data-contract/normalize.ts";
import { ITEMS_PER_PAGE, pageOffset } from "../params/paging.ts";
import { areaOf, hasFilters, type SearchParams } from "../params/search-params.ts";
import { areaPositions } from "../geo/index.ts";
import { numbered, type Sql } from "../sql/sql.ts";
import { corrections, correctionsSql } from "./corrections.ts";
import { anchoredPositions, everyWord, fuzzyTiers, tiered, tiersOf } from "./names.ts";
import type { Page } from "./records.ts";
import type { ResourceQueries, Runner, Search } from "./resource.ts";
import { readingsTotal, storedTotal } from "./totals.ts";
import {
  alternatives,
  bestReading,
  everyAlternative,
  lookups,
  readings,
  spreads,
  type Alternative,
  type Candidate,
  type Reading,
} from "./typos.ts";

/** The strict search of a request, or null when nothing can match (a name without words). */
function strictSearch<R>(q: ResourceQueries<R>, p: SearchParams): Search | null {
  const offset = pageOffset(q.resource, p.page);
  const area = areaOf(p);
  if (p.name === undefined) {
    if (area === undefined) return q.browse(p, offset);
    const size = ITEMS_PER_PAGE[q.resource];
    const query = { places: q.places, kind: q.prefixKind, area, tiers: [], everything: null, params: p };
    return { positions: areaPositions({ ...query, offset, size }) };
  }
  const word = p.nameWords.length === 1 ? p.nameWords[0] : undefined;
  const search = tiered(q, p, tiersOf(p.name, 0), offset, { word });
  if (search === null || search.count === undefined) return search;
  const alone = word !== undefined && area === undefined && !hasFilters(p) && p.kind === undefined;
  const positions = alone ? anchoredPositions(q, word, offset) : null;
  return { ...search, positions: positions ?? search.positions, count: storedTotal(q, p, search.count) };
}

/** A search's statements: its total apart, or not (in an area), then its page's records. */
function searchStatements<R>(q: ResourceQueries<R>, search: Search, language: Language, count?: Sql): Sql[] {
  const page = q.page(search.positions, language, search.count === undefined);
  return search.count === undefined ? [page] : [count ?? search.count, page];
}

/** The total and the page's rows from the results of searchStatements(). */
function totalAndRows(search: Search, results: readonly { rows: Record<string, unknown>[] }[]) {
  if (search.count !== undefined) {
    return { total: Number(results[0]?.rows[0]?.n ?? 0), rows: results[1]?.rows ?? [] };
  }
  const rows = results[0]?.rows ?? [];
  // An empty page is one row of the total alone.
  return { total: Number(rows[0]?.total ?? 0), rows: rows.filter((r) => r.id !== null) };
}

/** The first round trip of a search: total, page, and, when the name may be forgiven typos, corrections. */
export interface FirstTrip {
  search: Search;
  statements: Sql[];
  /** Whether a third statement reads what the typo fallback needs (correctionsSql). */
  fuzzy: boolean;
}

export function firstTrip<R>(q: ResourceQueries<R>, p: SearchParams, language: Language): FirstTrip | null {
  const strict = strictSearch(q, p);
  if (strict === null) return null;
  const queryWords = p.typos ? p.nameWords : [];
  const list = lookups(queryWords);
  const fallback = list.length > 0 ? [correctionsSql(q.resource, q.fts, queryWords, list, strict.matches)] : [];
  const statements = [...searchStatements(q, strict, language), ...fallback].map(numbered);
  return { search: strict, statements, fuzzy: list.length > 0 };
}

/**
 * The second round trip, when the name as typed matches nothing (everyAlternative() counts on
 * it): the name's readings within the allowed edits, or null without any.
 */
export function fuzzyTrip<R>(
  q: ResourceQueries<R>,
  p: SearchParams,
  language: Language,
  candidates: readonly Candidate[],
  present: readonly boolean[] = [],
): { search: Search; statements: Sql[]; options: Alternative[][]; readings: Reading[] } | null {
  const options = alternatives(p.nameWords, candidates, present);
  const list = readings(options);
  const groups = everyAlternative(options);
  const every = groups === null ? undefined : everyWord(groups);
  const fuzzy = tiered(q, p, fuzzyTiers(list, spreads(options)), pageOffset(q.resource, p.page), { every });
  if (fuzzy === null) return null;
  const count = fuzzy.count === undefined ? undefined : readingsTotal(q, p, list, fuzzy.count);
  return {
    search: fuzzy,
    statements: searchStatements(q, fuzzy, language, count).map(numbered),
    options,
    readings: list,
  };
}

/** The answer of the typo fallback, or null when no reading matches. */
async function forgivingTypos<R>(
  q: ResourceQueries<R>,
  session: Runner,
  p: SearchParams,
  language: Language,
  fallbackRow: Record<string, unknown> | undefined,
): Promise<Page<R> | null> {
  const { present, candidates } = corrections(fallbackRow, p.nameWords.length);
  const second = fuzzyTrip(q, p, language, candidates, present);
  if (second === null) return null;
  const results = await session.run(`${q.resource} search forgiving typos`, second.statements);
  const { total, rows } = totalAndRows(second.search, results);
  if (total === 0) return null;
  const items = rows.map((r) => q.record(r));
  const suggested = items[0] === undefined ? null : bestReading(second.options, q.names(items[0]).map(words));
  const suggestion = (suggested ?? second.readings[0])?.words.join(" ");
  return { page: p.page, total, items, match: "fuzzy", ...(suggestion === undefined ? {} : { suggestion }) };
}

export async function runSearch<R>(
  q: ResourceQueries<R>,
  session: Runner,
  p: SearchParams,
  language: Language,
): Promise<Page<R>> {
  const empty: Page<R> = { page: p.page, total: 0, items: [], match: "exact" };
  const first = firstTrip(q, p, language);
  if (first === null) return empty;
  const results = await session.run(`${q.resource} search`, first.statements);
  const { total, rows } = totalAndRows(first.search, results);
  if (total > 0 || !first.fuzzy) return { page: p.page, total, items: rows.map((r) => q.record(r)), match: "exact" };
  const fallback = results[results.length - 1]?.rows[0];
  return (await forgivingTypos(q, session, p, language, fallback)) ?? empty;
}
