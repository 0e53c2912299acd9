/**
 * Name searches (docs/api.md#matching, #order): a name as its tiers of FTS5 text
 * (src/data-contract/ranking.ts), each tier one FTS5 query with the filters, a record in the best
 * tier it matches, its own names' before its others' (src/match/own-names.ts); and, for a broad
 * word alone, deep pages from the stored anchors of its tiers (anchored.ts).
 */
import { EXACT, OTHER, OWN, STARTS, tierKey, tierOfKey, classOfKey, WORDS } from "../data-contract/ranking.ts";
import { numberedPage, rankOrder } from "../data-contract/ranking.ts";
import type { Area } from "../data-contract/distance.ts";
import { areaOf, type SearchParams } from "../params/search-params.ts";
import { areaMatches, areaPositions, type AreaQuery } from "../geo/index.ts";
import { ITEMS_PER_PAGE } from "../params/paging.ts";
import { int, join, num, raw, sql, unionAll, type Sql } from "../sql/sql.ts";
import { ftsFilters } from "../match/filters.ts";
import { anyOf, withFilters } from "../match/fts.ts";
import { ANY_NAMES, matchesMarked, othersApart, rankedCtes, sizedBest, type NamesText } from "../match/own-names.ts";
import { oneName, wordsOf, type Fts, type NameWords } from "../match/one-name.ts";
import { CANDIDATE_POS, CANDIDATES, cappedCount, keptOfFirst, matchesOf } from "../match/capped.ts";
import { words as wordsIn } from "../data-contract/normalize.ts";
import type { ResourceQueries, Search, TierSlice } from "./resource.ts";
import type { Reading, Spread } from "./typos.ts";

/** One part of a name search: FTS5 text and its tierKey. */
export interface Tier {
  key: number;
  text: string;
  /**
   * A words tier's readings, one of which a name must hold (src/match/one-name.ts): its FTS5 text
   * finds records whose names hold the words together.
   */
  readings?: readonly NameWords[];
}

/** The readings of the tiers, for a match of any of them (the exact and starts tiers' are a name). */
const readingsOf = (tiers: readonly Tier[]): NameWords[] => tiers.flatMap((t) => t.readings ?? []);

/** A tier of every name of a record (whose matches are every match of the search), of a name tier. */
const anyNameTier = (tier: number) => (t: Tier) => classOfKey(t.key) === OTHER && tierOfKey(t.key) === tier;

/** FTS5 text of the first two tiers: a name that is the name, or starts with it (its name token as a prefix). */
const startsText = (tiers: readonly Tier[]): string => anyOf(tiers.filter(anyNameTier(STARTS)).map((t) => t.text));

/**
 * The tiers of one reading of the name: by the record's own names (`own`), then by any of its
 * names, each the name is the text, starts with it, or holds its words.
 */
export function tiersOf(normalized: string, edits: number, own: NamesText): Tier[] {
  const list = wordsIn(normalized);
  if (list.length === 0) return [];
  const groups = wordsOf(list);
  return [
    { key: tierKey(edits, EXACT, OWN), text: own.exact(normalized) },
    { key: tierKey(edits, STARTS, OWN), text: own.starts(normalized) },
    { key: tierKey(edits, WORDS, OWN), text: own.words(groups) },
    { key: tierKey(edits, EXACT, OTHER), text: ANY_NAMES.exact(normalized) },
    { key: tierKey(edits, STARTS, OTHER), text: ANY_NAMES.starts(normalized) },
    { key: tierKey(edits, WORDS, OTHER), text: ANY_NAMES.words(groups), readings: [groups] },
  ];
}

/**
 * The tiers of a search forgiving typos, one per class, edit count and name tier: the exact and
 * starts tiers of the readings (OR-ed), and the words tier of every spread of edits
 * (src/query/typos.ts), which holds every record any reading's words tier would.
 */
export function fuzzyTiers(list: readonly Reading[], spreadList: readonly Spread[], own: NamesText): Tier[] {
  const byKey = new Map<number, { texts: string[]; readings: NameWords[] }>();
  const add = (key: number, text: string, readings: NameWords[] = []) => {
    const tier = byKey.get(key) ?? { texts: [], readings: [] };
    byKey.set(key, { texts: [...tier.texts, text], readings: [...tier.readings, ...readings] });
  };
  for (const r of list) {
    for (const tier of tiersOf(r.words.join(" "), r.edits, own))
      if (tierOfKey(tier.key) !== WORDS) add(tier.key, tier.text);
  }
  for (const s of spreadList) {
    add(tierKey(s.edits, WORDS, OWN), own.words(s.words));
    add(tierKey(s.edits, WORDS, OTHER), ANY_NAMES.words(s.words), [s.words]);
  }
  return [...byKey]
    .sort(([a], [b]) => a - b)
    .map(([key, t]) => ({ key, text: anyOf(t.texts), ...(t.readings.length > 0 ? { readings: t.readings } : {}) }));
}

/** A tier's matches whose names hold its words, in pos order (`rowids`: a range of pos, where FTS5 seeks). */
function tierKept(q: { fts: Fts }, t: Tier, filters: Sql | null, rowids?: Sql): Sql {
  const text = withFilters(classOfKey(t.key) === OTHER ? othersApart(q.fts, t.text) : t.text, filters);
  return keptOfFirst(matchesOf(q.fts, text, rowids), oneName(q.fts, CANDIDATE_POS, t.readings ?? []));
}

/**
 * Each record's best tier (pos, k) among tiers that each read at most `limit` matches in pos order;
 * a tier whose names are checked (words of one name) reads no more than its first CANDIDATES. A
 * tier of any name reads only the records an own tier does not find first (othersApart). With a
 * `guard` (a one-row CTE of column g), the tiers are read only where g is 1: behind one use of it,
 * as SQLite copies a CTE at each use (docs/benchmarks.md#statements-nested-deep).
 */
export function bestTiers(
  q: { fts: Fts },
  tiers: readonly Tier[],
  filters: Sql | null,
  limit: Sql,
  guard: Sql | null = null,
): Sql {
  const parts = tiers.map(
    (t) => sql`SELECT ${int(t.key)} AS k, pos FROM (SELECT pos FROM (${tierKept(q, t, filters)})${limit})`,
  );
  if (guard === null) return sql`SELECT pos, min(k) AS k FROM (${unionAll(parts)}) GROUP BY pos`;
  return sql`SELECT pos, min(k) AS k FROM ${guard} CROSS JOIN (${unionAll(parts)}) WHERE ${guard}.g GROUP BY pos`;
}

/** What a statement of a name's tiers reads with: the filters' text, its CTEs before its own (flt, guard), whether guarded. */
interface TiersRead {
  filters: Sql | null;
  ctes: Sql;
  guarded: boolean;
}

/**
 * Rows (pos, k, size) of the slices of the tiers (merged-slices.ts), a record once per tier it is
 * read in, each with its size (sizedBest); guarded as bestTiers().
 */
function tierSlices(q: { fts: Fts }, tiers: readonly Tier[], read: TiersRead, slices: readonly TierSlice[]): Sql {
  const parts = slices.map((s) => {
    const tier = tiers.find((t) => t.key === s.key);
    if (tier === undefined) throw new Error(`no tier ${s.key}`);
    const range = [
      s.after === null ? null : sql`rowid > ${int(s.after)}`,
      s.until === null ? null : sql`rowid <= ${int(s.until)}`,
    ];
    const bounds = range.filter((b) => b !== null);
    const kept = tierKept(q, tier, read.filters, bounds.length === 0 ? undefined : join(bounds, " AND "));
    return sql`SELECT ${int(s.key)} AS k, pos FROM (SELECT pos FROM (${kept}) LIMIT ${num(s.limit, "limit")})`;
  });
  const rows = read.guarded
    ? sql`SELECT k, pos FROM guard CROSS JOIN (${unionAll(parts)}) WHERE guard.g`
    : unionAll(parts);
  return sql`WITH ${read.ctes}sl AS MATERIALIZED (${rows}) ${sizedBest(q.fts, raw("sl"))}`;
}

/**
 * FTS5 text that every match of the tiers matches: `every` when given (shorter), else the OR of the
 * words tiers of any name (a name equal to, or starting with, a reading has its words).
 */
export const everyMatchText = (tiers: readonly Tier[], every?: string): string =>
  every ?? anyOf(tiers.filter(anyNameTier(WORDS)).map((t) => t.text));

/** SQL: whether some record matches `every` (FTS5 text, an SQL expression). */
export const someMatch = (fts: Fts, every: Sql): Sql =>
  sql`EXISTS (SELECT 1 FROM ${raw(fts)} WHERE ${raw(fts)} MATCH ${every})`;

/** `positions`, read only when some record matches `every` (FTS5 text). */
const guardedBy = (q: { fts: Fts }, every: Sql, positions: Sql): Sql =>
  sql`WITH guard(g) AS MATERIALIZED (SELECT ${someMatch(q.fts, every)}) SELECT * FROM (${positions}) WHERE (SELECT g FROM guard)`;

/** What tiered() may be told besides the tiers. */
export interface TieredOptions {
  /** The name's one word, read strictly (src/geo/ may use its stored cell counts). */
  word?: string | undefined;
  /** FTS5 text of every match, when shorter than the OR of the words tiers (everyAlternative()). */
  every?: string | undefined;
  /**
   * Whether the tiers are read only when some record matches the text of every match (the typo
   * fallback's: its tiers' many alternatives cost FTS5 most when nothing matches them).
   */
  guarded?: boolean;
}

/** tiered() in an area: src/geo/ decides how; with its reads for a merge over venue databases. */
function areaTiered<R>(
  q: ResourceQueries<R>,
  p: SearchParams,
  area: Area,
  tiers: readonly Tier[],
  offset: number,
  options: TieredOptions,
): Search {
  const { word, every, guarded = false } = options;
  const everyText = everyMatchText(tiers, every);
  const filters = ftsFilters(p, q.fts);
  const query: AreaQuery = {
    places: q.places,
    kind: q.prefixKind,
    area,
    tiers: tiers.map((t) => ({ key: t.key, text: t.text, held: oneName(q.fts, CANDIDATE_POS, t.readings ?? []) })),
    everything: everyText,
    filters,
    held: oneName(q.fts, CANDIDATE_POS, readingsOf(tiers)),
    ...(word === undefined ? {} : { word }),
    params: p,
    offset,
    size: ITEMS_PER_PAGE[q.resource],
  };
  const positions = areaPositions(query);
  return {
    positions: guarded ? guardedBy(q, withFilters(everyText, filters), positions) : positions,
    inArea: areaMatches(query),
  };
}

/**
 * A name search over tiers. Without an area, each tier reads at most offset + page size matches
 * (the records before the page's last are all in the first ones of their tier). In an area,
 * src/geo/ decides how.
 */
export function tiered<R>(
  q: ResourceQueries<R>,
  p: SearchParams,
  tiers: readonly Tier[],
  offset: number,
  options: TieredOptions = {},
): Search | null {
  if (tiers.length === 0) return null;
  const area = areaOf(p);
  if (area !== undefined) return areaTiered(q, p, area, tiers, offset, options);
  const { every, guarded = false } = options;
  const perPage = ITEMS_PER_PAGE[q.resource];
  const everyText = everyMatchText(tiers, every);
  const filters = ftsFilters(p, q.fts);
  const held = oneName(q.fts, CANDIDATE_POS, readingsOf(tiers));
  // The filters' FTS text is computed once (its subqueries bind values) and read by every tier.
  const flt = filters === null ? raw("") : sql`flt(q) AS (SELECT ${filters}), `;
  const withFiltersText = (body: Sql) => (filters === null ? body : sql`WITH flt(q) AS (SELECT ${filters}) ${body}`);
  const filtersText = filters === null ? null : raw("(SELECT q FROM flt)");
  const fts = raw(q.fts);
  const everything = withFilters(everyText, filtersText);
  const guard = guarded ? sql`guard(g) AS MATERIALIZED (SELECT ${someMatch(q.fts, everything)}), ` : raw("");
  const best = bestTiers(
    q,
    tiers,
    filtersText,
    // One bound value for every tier's limit: a typo's readings make many tiers, past D1's 100 bound values.
    sql` LIMIT ${num(offset + perPage, "limit")}`,
    guarded ? raw("guard") : null,
  );
  const order = rankOrder({ key: raw("k"), pos: raw("pos") });
  // The total's candidates without names apart are counted without asking (matchesMarked).
  const countWithin = (limit: number) =>
    withFiltersText(
      held === null
        ? cappedCount(matchesOf(q.fts, everything), null, { limit })
        : cappedCount(matchesMarked(q.fts, everything), sql`(cand.plain = 1 OR ${held})`, { limit }),
    );
  return {
    positions: sql`WITH ${flt}${guard}${rankedCtes(q.fts, best)}
      ${numberedPage(raw("SELECT * FROM ranked"), order, { first: offset, size: perPage })}`,
    count: countWithin(CANDIDATES),
    merge: {
      best: sql`WITH ${flt}${guard}best AS MATERIALIZED (${best}) ${sizedBest(q.fts, raw("best"))}`,
      countWithin,
      keys: tiers.map((t) => t.key),
      slices: (slices) => tierSlices(q, tiers, { filters: filtersText, ctes: sql`${flt}${guard}`, guarded }, slices),
    },
    stands: sql`EXISTS (${withFiltersText(sql`SELECT 1 FROM ${fts} WHERE ${fts} MATCH ${withFilters(startsText(tiers), filtersText)}`)})`,
  };
}
