/**
 * Running a search: the statements of a resource (venues.ts, cities.ts) in one D1 round trip —
 * the total, the page, and, when the name may be forgiven typos, the vocabulary's candidate
 * corrections — and, only when the strict search matches nothing, a second round trip with the
 * corrected readings of the name (SPEC §10.1).
 *
 * Every search is made of positions: a statement whose rows are (pos, rank, dist) in the
 * answer's order. The page statement turns the page's positions into records.
 */
import {
  alternatives,
  bestReading,
  lookups,
  readings,
  spreads,
  type Alternative,
  type Candidate,
  type Lookup,
  type Reading,
  type Spread,
} from "../fuzzy.ts";
import type { Language } from "../language.ts";
import { words } from "../normalize.ts";
import { PER_PAGE, pageOffset, type Resource } from "../paging.ts";
import type { SearchParams } from "../params.ts";
import type { Page } from "../records.ts";
import { phrase } from "../tokens.ts";
import { distance, filterMatch, nameTiers, withFilters } from "./filters.ts";
import { join, raw, sql, type Sql } from "./sql.ts";

/** A search as two statements: its total (one row, column n) and its page's positions. */
export interface Search {
  count: Sql;
  positions: Sql;
  /** For a name search without a point: an SQL condition, true when anything matches. */
  matches?: Sql;
}

/** What runs statements: a D1 session (src/db.ts), one round trip per call. */
export interface Runner {
  run(what: string, statements: readonly Sql[]): Promise<{ rows: Record<string, unknown>[] }[]>;
}

/** What a resource module provides. */
export interface ResourceQueries<R> {
  resource: Resource;
  fts: "venues_fts" | "cities_fts";
  /** From positions (alias g.pos) to the coordinates of the place (alias c). */
  placeJoins: Sql;
  /** The one-word totals stored for this resource (name_prefix_counts.kind). */
  prefixKind: "venue" | "city";
  /** Searches without a name and without a point. */
  browse(p: SearchParams, offset: number): Search | null;
  /** Searches near a point without a name. */
  nearby(p: SearchParams, offset: number): Search;
  /** The records of a page, from its positions, in order. */
  page(positions: Sql, language: Language): Sql;
  /** A row of the page statement as a record. */
  record(row: Record<string, unknown>): R;
  /** The normalized names of a record (for the suggestion of a fuzzy answer). */
  names(record: R): string[];
}

/** One part of a name search: FTS5 text and its place in the order (tierKey). */
interface Tier {
  key: number;
  text: string;
}

/** Name tiers: exact name, name starting with the query, every query word a prefix of a word. */
const EXACT = 0;
const STARTS = 1;
const WORDS = 2;
const NAME_TIERS = 3;
/** A tier's place in the order: edits first, then the name tier (the SQL below reads it back with / and %). */
const tierKey = (edits: number, nameTier: number) => edits * NAME_TIERS + nameTier;
const isWordsTier = (t: Tier) => t.key % NAME_TIERS === WORDS;

/** The tiers of one reading of the name. */
function tiersOf(normalized: string, edits: number): Tier[] {
  const t = nameTiers(normalized);
  if (t === null) return [];
  return [
    { key: tierKey(edits, EXACT), text: t.exact },
    { key: tierKey(edits, STARTS), text: t.starts },
    { key: tierKey(edits, WORDS), text: t.words },
  ];
}

/**
 * The tiers of a search forgiving typos, one per edit count and name tier: the exact and starts
 * tiers of the readings (OR-ed), and the words tier of every spread of edits (src/fuzzy.ts), which
 * holds every record any reading's words tier would.
 */
function fuzzyTiers(list: readonly Reading[], spreadList: readonly Spread[]): Tier[] {
  const byKey = new Map<number, string[]>();
  const add = (key: number, text: string) => byKey.set(key, [...(byKey.get(key) ?? []), `(${text})`]);
  for (const r of list) {
    for (const tier of tiersOf(r.words.join(" "), r.edits)) if (!isWordsTier(tier)) add(tier.key, tier.text);
  }
  for (const s of spreadList) {
    // FTS5 needs an explicit AND next to a parenthesized group.
    add(
      tierKey(s.edits, WORDS),
      s.words.map((group) => `(${group.map((w) => `${phrase(w)}*`).join(" OR ")})`).join(" AND "),
    );
  }
  return [...byKey].sort(([a], [b]) => a - b).map(([key, texts]) => ({ key, text: texts.join(" OR ") }));
}

/** D1 allows a compound SELECT of at most this many parts. */
const COMPOUND_PARTS = 5;

/** SELECTs joined with UNION ALL, nested so that no compound SELECT has more than COMPOUND_PARTS. */
function unionAll(parts: readonly Sql[]): Sql {
  if (parts.length <= COMPOUND_PARTS) return join(parts, " UNION ALL ");
  const groups: Sql[] = [];
  for (let i = 0; i < parts.length; i += COMPOUND_PARTS) {
    groups.push(sql`SELECT * FROM (${join(parts.slice(i, i + COMPOUND_PARTS), " UNION ALL ")})`);
  }
  return unionAll(groups);
}

/**
 * A name search over tiers: each tier an FTS query with the filters, a record in the lowest tier
 * it matches. Without a point, each tier reads at most offset + page size matches (the records
 * before the page's last are all in the first ones of their tier). With a point, every match
 * in the circle's cells is measured and kept when within the radius, ordered by edits, distance,
 * name tier, position.
 */
function tiered<R>(q: ResourceQueries<R>, p: SearchParams, tiers: readonly Tier[], offset: number): Search | null {
  if (tiers.length === 0) return null;
  const perPage = PER_PAGE[q.resource];
  const near = p.near;
  const filters = filterMatch(p, { venueCities: q.resource === "venues", near: near !== undefined });
  // The filters' FTS text is computed once (its subqueries bind values) and read by every tier.
  const withFlt = (body: Sql) => (filters === null ? body : sql`WITH flt(q) AS (SELECT ${filters}) ${body}`);
  const fltRef = filters === null ? null : raw("(SELECT q FROM flt)");
  const fts = raw(q.fts);
  const limit = near === undefined ? sql` LIMIT ${offset + perPage}` : raw("");
  const parts = tiers.map(
    (t) =>
      // The key is a number from this code, written into the text: D1 would bind it as a REAL.
      sql`SELECT ${raw(String(t.key))} AS k, rowid AS pos FROM (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${withFilters(t.text, fltRef)} ORDER BY rowid${limit})`,
  );
  const best = sql`SELECT pos, min(k) AS k FROM (${unionAll(parts)}) GROUP BY pos`;
  // Every match is in a words tier (a name equal to, or starting with, a reading has its words).
  const everything = withFilters(
    tiers
      .filter(isWordsTier)
      .map((t) => `(${t.text})`)
      .join(" OR "),
    fltRef,
  );
  if (near === undefined) {
    return {
      positions: withFlt(
        sql`SELECT pos, row_number() OVER (ORDER BY k, pos) AS rank, NULL AS dist FROM (${best}) ORDER BY k, pos LIMIT ${perPage} OFFSET ${offset}`,
      ),
      count: withFlt(sql`SELECT count(*) AS n FROM ${fts} WHERE ${fts} MATCH ${everything}`),
      matches: sql`EXISTS (${withFlt(sql`SELECT 1 FROM ${fts} WHERE ${fts} MATCH ${everything}`)})`,
    };
  }
  const d = distance(near);
  return {
    positions: withFlt(
      sql`SELECT pos, row_number() OVER (ORDER BY k / ${raw(String(NAME_TIERS))}, dist, k % ${raw(String(NAME_TIERS))}, pos) AS rank, dist FROM (
            SELECT g.pos, g.k, ${d} AS dist FROM (${best}) g ${q.placeJoins}
          ) WHERE dist <= ${near.radiusKm} ORDER BY rank LIMIT ${perPage} OFFSET ${offset}`,
    ),
    count: withFlt(
      sql`SELECT count(*) AS n FROM (SELECT f.rowid AS pos FROM ${fts} f WHERE ${fts} MATCH ${everything}) g ${q.placeJoins}
          WHERE ${d} <= ${near.radiusKm}`,
    ),
  };
}

/**
 * The total of a one-word name search without a point, from name_prefix_counts when the filters
 * are none, a country, or a country and a state code (the scopes stored there), else counted.
 */
function storedTotal<R>(q: ResourceQueries<R>, p: SearchParams, count: Sql): Sql {
  const list = p.name === undefined ? [] : words(p.name);
  const scope = storedScope(p);
  if (list.length !== 1 || scope === null) return count;
  return sql`SELECT coalesce((SELECT n FROM name_prefix_counts WHERE kind = ${q.prefixKind} AND scope = ${scope} AND prefix = ${list[0] ?? ""}), (${count})) AS n`;
}

/** The name_prefix_counts scope of a search's filters, or null when none is stored for them. */
function storedScope(p: SearchParams): Sql | null {
  const plain = p.cityId === undefined && p.cityName === undefined && p.state === undefined && p.near === undefined;
  if (!plain || (p.stateCode !== undefined && p.country === undefined)) return null;
  if (p.country === undefined) return sql`''`;
  const country =
    "code" in p.country
      ? sql`${p.country.code}`
      : sql`(SELECT code FROM countries WHERE name_norm = ${p.country.nameNorm})`;
  return p.stateCode === undefined ? sql`'c:' || ${country}` : sql`'s:' || ${country} || ':' || ${p.stateCode}`;
}

/**
 * The total of a one-word name search forgiving typos: the records any reading matches. When one
 * reading is a broad word (a stored total in the scope), its stored total plus the records of the
 * other readings that it does not match, so a common correction ("clbu" → "club") is not counted
 * record by record; otherwise counted by FTS5 (few records, or several broad words: rare).
 */
function readingsTotal<R>(q: ResourceQueries<R>, p: SearchParams, list: readonly Reading[], count: Sql): Sql {
  const scope = storedScope(p);
  if (scope === null || list.some((r) => r.words.length !== 1)) return count;
  const fts = raw(q.fts);
  const filters = filterMatch(p, { venueCities: q.resource === "venues", near: false });
  const readingsJson = JSON.stringify(list.map((r) => [r.words[0] ?? "", `${phrase(r.words[0] ?? "")}*`]));
  const others = sql`'(' || (SELECT text FROM rest) || ') NOT ' || (SELECT text FROM broad)`;
  // CROSS JOIN: the readings drive the lookups (without statistics, SQLite would rather read every
  // stored total of the scope).
  return sql`WITH readings AS (SELECT value ->> 0 AS word, value ->> 1 AS text FROM json_each(${readingsJson})),
    broad AS (SELECT r.word, r.text, c.n FROM readings r CROSS JOIN name_prefix_counts c
              ON c.kind = ${q.prefixKind} AND c.scope = ${scope} AND c.prefix = r.word),
    rest AS (SELECT group_concat(text, ' OR ') AS text FROM readings WHERE word NOT IN (SELECT word FROM broad))
    SELECT CASE (SELECT count(*) FROM broad)
      WHEN 1 THEN (SELECT n FROM broad) + CASE WHEN (SELECT text FROM rest) IS NULL THEN 0
        ELSE (SELECT count(*) FROM ${fts} WHERE ${fts} MATCH ${
          filters === null ? others : sql`'(' || ${others} || ') AND (' || ${filters} || ')'`
        }) END
      ELSE (${count}) END AS n`;
}

/** Larger than any pos. */
const BEYOND = raw("9223372036854775807");

/**
 * The positions of a one-word name search without filters or a point. A broad word (one with
 * stored tier sizes and anchors: name_tiers, name_anchors) reads each tier from the anchor before
 * the page, so a deep page reads about a page and an anchor interval, not everything before it;
 * any other word matches few records, and its tiers are read from the start as in tiered().
 */
function anchoredPositions<R>(q: ResourceQueries<R>, word: string, offset: number): Sql | null {
  const t = nameTiers(word);
  if (t === null) return null;
  const perPage = PER_PAGE[q.resource];
  const fts = raw(q.fts);
  const kind = q.prefixKind;
  // Disjoint tiers, so that the anchors of each count its matches alone.
  const disjoint = [t.exact, `${t.starts} NOT ${t.exact}`, `${t.words} NOT ${t.starts}`];
  const broad = sql`EXISTS (SELECT 1 FROM name_tiers WHERE kind = ${kind} AND prefix = ${word})`;
  const anchored = disjoint.map(
    (text, tier) =>
      sql`SELECT ${raw(String(tier))} AS k, rowid AS pos FROM (SELECT rowid FROM ${fts}
          WHERE ${fts} MATCH ${text} AND rowid > coalesce((SELECT after FROM anchor WHERE tier = ${raw(String(tier))}), ${BEYOND})
          ORDER BY rowid LIMIT ${perPage} OFFSET coalesce((SELECT skip FROM anchor WHERE tier = ${raw(String(tier))}), 0))`,
  );
  const plain = disjoint.map(
    (text, tier) =>
      sql`SELECT ${raw(String(tier))} AS k, rowid AS pos FROM (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${text}
          ORDER BY rowid LIMIT CASE WHEN ${broad} THEN 0 ELSE ${offset + perPage} END)`,
  );
  return sql`WITH every(n) AS (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'name_anchor_every'),
    sizes AS (SELECT tier0, tier1, tier2 FROM name_tiers WHERE kind = ${kind} AND prefix = ${word}),
    tiers(tier, before, size) AS (SELECT 0, 0, tier0 FROM sizes UNION ALL SELECT 1, tier0, tier1 FROM sizes
                                  UNION ALL SELECT 2, tier0 + tier1, tier2 FROM sizes),
    starts AS (SELECT tier, CAST(max(0, ${offset} - before) AS INTEGER) AS start FROM tiers
               WHERE before < ${offset + perPage} AND before + size > ${offset}),
    anchor AS (SELECT s.tier, s.start % (SELECT n FROM every) AS skip,
                      coalesce((SELECT pos FROM name_anchors WHERE kind = ${kind} AND prefix = ${word} AND tier = s.tier
                                AND k = s.start / (SELECT n FROM every)), 0) AS after FROM starts s)
    SELECT pos, row_number() OVER (ORDER BY k, pos) AS rank, NULL AS dist
    FROM (SELECT pos, min(k) AS k FROM (${unionAll([...anchored, ...plain])}) GROUP BY pos)
    ORDER BY k, pos LIMIT ${perPage} OFFSET CASE WHEN ${broad} THEN 0 ELSE ${offset} END`;
}

/** The strict search of a request, or null when nothing can match (a name without words). */
function strictSearch<R>(q: ResourceQueries<R>, p: SearchParams): Search | null {
  const offset = pageOffset(q.resource, p.page);
  if (p.name === undefined) return p.near === undefined ? q.browse(p, offset) : q.nearby(p, offset);
  const search = tiered(q, p, tiersOf(p.name, 0), offset);
  if (search === null) return null;
  const list = words(p.name);
  const plain =
    list.length === 1 &&
    p.near === undefined &&
    filterMatch(p, { venueCities: q.resource === "venues", near: false }) === null;
  const positions = plain ? anchoredPositions(q, list[0] ?? "", offset) : null;
  return { ...search, positions: positions ?? search.positions, count: storedTotal(q, p, search.count) };
}

/** Candidate corrections of one query word, the most common first. */
const CANDIDATES_PER_WORD = 200;

/**
 * The vocabulary's candidate corrections of one query word (src/fuzzy.ts), as a JSON array of
 * [word, records].
 */
function candidatesJson(resource: Resource, lookup: Lookup): Sql {
  const column = raw(resource === "venues" ? "w.venues" : "w.cities");
  return sql`(SELECT json_group_array(json_array(word, records)) FROM (
               SELECT w.word, ${column} AS records FROM words_fts f JOIN words w ON w.id = f.rowid
               WHERE words_fts MATCH ${lookup.keys.map(phrase).join(" OR ")} AND ${column} > 0
               AND length(w.word) BETWEEN ${raw(String(lookup.minLength))} AND ${raw(String(lookup.maxLength))}
               ORDER BY ${column} DESC LIMIT ${raw(String(CANDIDATES_PER_WORD))}))`;
}

/**
 * What the typo fallback needs, in one row: for each query word (column w0, w1 …) whether some
 * record has a word starting with it, so that a reading may keep it as typed, and the candidate
 * corrections of each word that may differ (c0, c1 …). With `unless` (the strict search matches),
 * no row: a strict answer reads no vocabulary.
 */
function correctionsSql<R>(
  q: ResourceQueries<R>,
  queryWords: readonly string[],
  list: readonly Lookup[],
  unless?: Sql,
): Sql {
  const fts = raw(q.fts);
  const columns = [
    ...queryWords.map(
      (w, i) => sql`EXISTS (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ${`${phrase(w)}*`}) AS ${raw(`w${i}`)}`,
    ),
    ...list.map((lookup, i) => sql`${candidatesJson(q.resource, lookup)} AS ${raw(`c${i}`)}`),
  ];
  return sql`SELECT ${join(columns, ", ")}${unless === undefined ? raw("") : sql` WHERE NOT ${unless}`}`;
}

/** The first round trip of a search: total, page, and, when the name may be forgiven typos, corrections. */
export interface FirstTrip {
  statements: Sql[];
  /** Whether a third statement reads what the typo fallback needs (correctionsSql). */
  fuzzy: boolean;
}

export function firstTrip<R>(q: ResourceQueries<R>, p: SearchParams, language: Language): FirstTrip | null {
  const strict = strictSearch(q, p);
  if (strict === null) return null;
  const queryWords = p.typos && p.name !== undefined ? words(p.name) : [];
  const list = lookups(queryWords);
  return {
    statements: [
      strict.count,
      q.page(strict.positions, language),
      ...(list.length > 0 ? [correctionsSql(q, queryWords, list, strict.matches)] : []),
    ],
    fuzzy: list.length > 0,
  };
}

/** The row of correctionsSql as which words match as typed and the candidate corrections. */
export function corrections(
  row: Record<string, unknown> | undefined,
  queryWords: number,
): { present: boolean[]; candidates: Candidate[] } {
  const present = Array.from({ length: queryWords }, (_, i) => row === undefined || Number(row[`w${i}`]) !== 0);
  const candidates: Candidate[] = [];
  for (let i = 0; row !== undefined && typeof row[`c${i}`] === "string"; i++) {
    for (const [word, records] of JSON.parse(row[`c${i}`] as string) as [string, number][]) {
      candidates.push({ word, records });
    }
  }
  return { present, candidates };
}

/** The second round trip: the name's readings within the allowed edits, or null without any. */
export function fuzzyTrip<R>(
  q: ResourceQueries<R>,
  p: SearchParams,
  language: Language,
  candidates: readonly Candidate[],
  present: readonly boolean[] = [],
): { statements: Sql[]; options: Alternative[][]; readings: Reading[] } | null {
  const options = alternatives(p.name === undefined ? [] : words(p.name), candidates, present);
  const list = readings(options);
  const fuzzy = tiered(q, p, fuzzyTiers(list, spreads(options)), pageOffset(q.resource, p.page));
  if (fuzzy === null) return null;
  return {
    statements: [readingsTotal(q, p, list, fuzzy.count), q.page(fuzzy.positions, language)],
    options,
    readings: list,
  };
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
  const [count, page, fallback] = await session.run(`${q.resource} search`, first.statements);
  const total = Number(count?.rows[0]?.n ?? 0);
  if (total > 0 || !first.fuzzy) {
    return { page: p.page, total, items: (page?.rows ?? []).map((r) => q.record(r)), match: "exact" };
  }
  const { present, candidates } = corrections(fallback?.rows[0], words(p.name ?? "").length);
  const second = fuzzyTrip(q, p, language, candidates, present);
  if (second === null) return empty;
  const [fuzzyCount, fuzzyPage] = await session.run(`${q.resource} search forgiving typos`, second.statements);
  const fuzzyTotal = Number(fuzzyCount?.rows[0]?.n ?? 0);
  if (fuzzyTotal === 0) return empty;
  const items = (fuzzyPage?.rows ?? []).map((r) => q.record(r));
  const suggested = items[0] === undefined ? null : bestReading(second.options, q.names(items[0]).map(words));
  return {
    page: p.page,
    total: fuzzyTotal,
    items,
    match: "fuzzy",
    suggestion: (suggested ?? second.readings[0])?.words.join(" "),
  };
}
