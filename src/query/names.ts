/**
 * Name searches (docs/api.md#matching): a name as its tiers of FTS5 text (src/data-contract/ranking.ts),
 * each tier one FTS5 query with the filters, a record in the best tier it matches; and, for a broad
 * word alone, deep pages from the stored anchors of its tiers.
 */
import { EXACT, STARTS, tierKey, tierOfKey, WORDS, type NameTier } from "../data-contract/ranking.ts";
import { rankOrder } from "../data-contract/ranking.ts";
import { areaOf, type SearchParams } from "../params/search-params.ts";
import { areaPositions } from "../geo/index.ts";
import { ITEMS_PER_PAGE } from "../params/paging.ts";
import { int, raw, sql, unionAll, type Sql } from "../sql/sql.ts";
import { ftsFilters } from "../match/filters.ts";
import { anyOf, butNot, everyWordText, nameTierText, withFilters } from "../match/fts.ts";
import { oneName, wordsOf, type Fts, type NameWords } from "../match/one-name.ts";
import { CANDIDATE_POS, cappedCount, keptOfFirst, matchesOf } from "../match/capped.ts";
import { words as wordsIn } from "../data-contract/normalize.ts";
import type { ResourceQueries, Search } from "./resource.ts";
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

const isWordsTier = (t: Tier) => tierOfKey(t.key) === WORDS;

/** FTS5 text of the first two tiers: a name that is the name, or starts with it (its name token as a prefix). */
const startsText = (tiers: readonly Tier[]): string =>
  anyOf(tiers.filter((t) => tierOfKey(t.key) === STARTS).map((t) => t.text));

/** The tiers of one reading of the name. */
export function tiersOf(normalized: string, edits: number): Tier[] {
  const t = nameTierText(normalized);
  if (t === null) return [];
  return [
    { key: tierKey(edits, EXACT), text: t.exact },
    { key: tierKey(edits, STARTS), text: t.starts },
    { key: tierKey(edits, WORDS), text: t.words, readings: [wordsOf(wordsIn(normalized))] },
  ];
}

/**
 * The tiers of a search forgiving typos, one per edit count and name tier: the exact and starts
 * tiers of the readings (OR-ed), and the words tier of every spread of edits (src/query/typos.ts),
 * which holds every record any reading's words tier would.
 */
export function fuzzyTiers(list: readonly Reading[], spreadList: readonly Spread[]): Tier[] {
  const byKey = new Map<number, { texts: string[]; readings: NameWords[] }>();
  const add = (key: number, text: string, readings: NameWords[]) => {
    const tier = byKey.get(key) ?? { texts: [], readings: [] };
    byKey.set(key, { texts: [...tier.texts, text], readings: [...tier.readings, ...readings] });
  };
  for (const r of list) {
    for (const tier of tiersOf(r.words.join(" "), r.edits)) if (!isWordsTier(tier)) add(tier.key, tier.text, []);
  }
  for (const s of spreadList) {
    add(tierKey(s.edits, WORDS), everyWordText(s.words), [s.words]);
  }
  return [...byKey]
    .sort(([a], [b]) => a - b)
    .map(([key, t]) => ({ key, text: anyOf(t.texts), ...(t.readings.length > 0 ? { readings: t.readings } : {}) }));
}

/**
 * Each record's best tier (pos, k) among tiers that each read at most `limit` matches in pos order;
 * a tier whose names are checked (words of one name) reads no more than its first CANDIDATES.
 */
function bestTiers(q: { fts: Fts }, tiers: readonly Tier[], filters: Sql | null, limit: Sql): Sql {
  const parts = tiers.map((t) => {
    const matches = matchesOf(q.fts, withFilters(t.text, filters));
    const kept = keptOfFirst(matches, oneName(q.fts, CANDIDATE_POS, t.readings ?? []));
    return sql`SELECT ${int(t.key)} AS k, pos FROM (SELECT pos FROM (${kept})${limit})`;
  });
  return sql`SELECT pos, min(k) AS k FROM (${unionAll(parts)}) GROUP BY pos`;
}

/** What tiered() may be told besides the tiers. */
export interface TieredOptions {
  /** The name's one word, read strictly (src/geo/ may use its stored cell counts). */
  word?: string | undefined;
  /** FTS5 text of every match, when shorter than the OR of the words tiers (everyAlternative()). */
  every?: string | undefined;
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
  { word, every }: TieredOptions = {},
): Search | null {
  if (tiers.length === 0) return null;
  const perPage = ITEMS_PER_PAGE[q.resource];
  // Every match is in a words tier (a name equal to, or starting with, a reading has its words).
  const everyText = every ?? anyOf(tiers.filter(isWordsTier).map((t) => t.text));
  const area = areaOf(p);
  if (area !== undefined) {
    const positions = areaPositions({
      places: q.places,
      kind: q.prefixKind,
      area,
      tiers,
      everything: everyText,
      ...(word === undefined ? {} : { word }),
      params: p,
      offset,
      size: perPage,
    });
    return { positions };
  }
  const filters = ftsFilters(p, q.fts);
  // The filters' FTS text is computed once (its subqueries bind values) and read by every tier.
  const withFiltersText = (body: Sql) => (filters === null ? body : sql`WITH flt(q) AS (SELECT ${filters}) ${body}`);
  const filtersText = filters === null ? null : raw("(SELECT q FROM flt)");
  const fts = raw(q.fts);
  const everything = withFilters(everyText, filtersText);
  const best = bestTiers(q, tiers, filtersText, sql` LIMIT ${offset + perPage}`);
  const held = oneName(q.fts, CANDIDATE_POS, readingsOf(tiers));
  const order = rankOrder({ key: raw("k"), pos: raw("pos") });
  return {
    positions: withFiltersText(
      sql`SELECT pos, row_number() OVER (ORDER BY ${order}) AS rank, NULL AS dist FROM (${best}) ORDER BY ${order} LIMIT ${perPage} OFFSET ${offset}`,
    ),
    count: withFiltersText(cappedCount(matchesOf(q.fts, everything), held)),
    stands: sql`EXISTS (${withFiltersText(sql`SELECT 1 FROM ${fts} WHERE ${fts} MATCH ${withFilters(startsText(tiers), filtersText)}`)})`,
  };
}

/** Larger than any pos. */
const AFTER_EVERY_POS = raw("9223372036854775807");

/** The tiers of one word, disjoint, so that the anchors of each count its matches alone. */
function disjointTiers(word: string): [NameTier, string][] | null {
  const t = nameTierText(word);
  if (t === null) return null;
  return [
    [EXACT, t.exact],
    [STARTS, butNot(t.starts, t.exact)],
    [WORDS, butNot(t.words, t.starts)],
  ];
}

/**
 * The positions of a one-word name search without filters or a point. A broad word (one with
 * stored tier sizes and anchors: name_tiers, name_anchors) reads each tier from the anchor before
 * the page, so a deep page reads about a page and an anchor interval, not everything before it;
 * any other word matches few records, and its tiers are read from the start as in tiered().
 */
export function anchoredPositions<R>(q: ResourceQueries<R>, word: string, offset: number): Sql | null {
  const tiers = disjointTiers(word);
  if (tiers === null) return null;
  const perPage = ITEMS_PER_PAGE[q.resource];
  const fts = raw(q.fts);
  const kind = q.prefixKind;
  const broad = sql`EXISTS (SELECT 1 FROM name_tiers WHERE kind = ${kind} AND prefix = ${word})`;
  const anchored = tiers.map(
    ([tier, text]) =>
      sql`SELECT ${int(tier)} AS k, rowid AS pos FROM (SELECT rowid FROM ${fts}
          WHERE ${fts} MATCH ${text} AND rowid > coalesce((SELECT after FROM anchor WHERE tier = ${int(tier)}), ${AFTER_EVERY_POS})
          ORDER BY rowid LIMIT ${perPage} OFFSET coalesce((SELECT skip FROM anchor WHERE tier = ${int(tier)}), 0))`,
  );
  const plain = tiers.map(
    ([tier, text]) =>
      sql`SELECT ${int(tier)} AS k, rowid AS pos FROM (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${text}
          ORDER BY rowid LIMIT CASE WHEN ${broad} THEN 0 ELSE ${offset + perPage} END)`,
  );
  const order = rankOrder({ key: raw("k"), pos: raw("pos") });
  return sql`WITH every(n) AS (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'name_anchor_every'),
    sizes AS (SELECT tier0, tier1, tier2 FROM name_tiers WHERE kind = ${kind} AND prefix = ${word}),
    tiers(tier, before, size) AS (SELECT ${int(EXACT)}, 0, tier0 FROM sizes UNION ALL SELECT ${int(STARTS)}, tier0, tier1 FROM sizes
                                  UNION ALL SELECT ${int(WORDS)}, tier0 + tier1, tier2 FROM sizes),
    starts AS (SELECT tier, CAST(max(0, ${offset} - before) AS INTEGER) AS start FROM tiers
               WHERE before < ${offset + perPage} AND before + size > ${offset}),
    anchor AS (SELECT s.tier, s.start % (SELECT n FROM every) AS skip,
                      coalesce((SELECT pos FROM name_anchors WHERE kind = ${kind} AND prefix = ${word} AND tier = s.tier
                                AND k = s.start / (SELECT n FROM every)), 0) AS after FROM starts s)
    SELECT pos, row_number() OVER (ORDER BY ${order}) AS rank, NULL AS dist
    FROM (SELECT pos, min(k) AS k FROM (${unionAll([...anchored, ...plain])}) GROUP BY pos)
    ORDER BY ${order} LIMIT ${perPage} OFFSET CASE WHEN ${broad} THEN 0 ELSE ${offset} END`;
}
