/**
 * A place in the text (docs/api.md#a-place-in-the-text), on the query side: one statement, in the
 * first round trip of a name search, finds the places that the end of the name may stand for
 * (countries and regions in place_names, a venue's city by the cities' name tokens) and, for each,
 * the best record of the rest of the name there: its name tier and its pos, the first ranking rules
 * (src/data-contract/ranking.ts). With the strict search's own best tier beside them, the reading
 * whose best record ranks first is chosen without running any reading's page. Only when no
 * record's name is the text as typed (the first tier) does the statement read any place.
 */
import { EXACT, STARTS, WORDS, type NameTier } from "../data-contract/ranking.ts";
import { nameTierText, type NameTierText } from "../match/fts.ts";
import { oneName, oneNameOf, oneNameText, wordsOf, type Fts } from "../match/one-name.ts";
import { anyKept, CANDIDATE_POS, firstKept } from "../match/capped.ts";
import { ftsFilters } from "../match/filters.ts";
import type { SearchParams } from "../params/search-params.ts";
import { int, raw, sql, type Sql } from "../sql/sql.ts";
import type { ResourceQueries } from "./resource.ts";
import { textReadings, type TextReading } from "./readings.ts";

type Row = Record<string, unknown>;

/** Places of one part read at most (the largest first): `springfield` names hundreds. */
const PLACES_PER_READING = 8;

/** The place readings' statement in a trip: it reads among every place (src/d1/main-only.ts). */
export const PLACES = "places";

/** A place the end of the name may stand for, and the best record of the rest of the name there. */
export interface PlaceCandidate {
  reading: TextReading;
  role: "city" | "region" | "country";
  countryCode: string;
  admin1Code: string | null;
  cityId: string | null;
  /** The place's size in the cities' order: the pos of its largest city (a city's own pos). */
  rank: number;
  /** The best name tier of the rest of the name in the place, null when nothing matches it there. */
  tier: NameTier | null;
  /** The pos of the first record of that tier there. */
  first: number | null;
}

/** What the first round trip tells of the text as typed and of its readings. */
export interface PlaceReadings {
  /** The best name tier of the text as typed (with the filters given), null when nothing matches. */
  strictTier: NameTier | null;
  candidates: PlaceCandidate[];
}

/** A reading asked about, with its name's FTS5 text. */
export interface AskedReading {
  reading: TextReading;
  text: NameTierText;
}

export const asked = (list: readonly TextReading[]): AskedReading[] =>
  list.flatMap((reading) => {
    const text = nameTierText(reading.nameWords.join(" "));
    return text === null ? [] : [{ reading, text }];
  });

/** The readings of a name with a place at its end, as typed. */
export const readingsOf = (p: SearchParams, resource: ResourceQueries<unknown>["resource"]): AskedReading[] =>
  asked(textReadings(p.nameWords, resource));

/** A tier's FTS5 text in the place, as an SQL expression over the candidate's columns. */
const inPlace = (text: string, filters: Sql | null): Sql =>
  filters === null
    ? sql`'(' || ${raw(text)} || ') AND "' || token || '"'`
    : sql`'(' || ${raw(text)} || ') AND "' || token || '" AND (' || (SELECT q FROM flt) || ')'`;

/**
 * The words tier's condition of a candidate row (column nw: FTS5 text of its reading's words for
 * src/match/one-name.ts, NULL for one word), on the record at `pos`.
 */
const heldIn = (fts: Fts, pos: Sql): Sql => sql`(nw IS NULL OR ${oneNameOf(fts, pos, raw("nw"))})`;

/** The best tier of a text (columns x, s, w: exact, starts, words) in the place of a candidate row. */
function bestTier(fts: Fts, filters: Sql | null): Sql {
  const has = (column: string, held: Sql | null = null) => anyKept(fts, inPlace(column, filters), held);
  const words = has("w", heldIn(fts, CANDIDATE_POS));
  return sql`CASE WHEN ${has("x")} THEN ${int(EXACT)} WHEN ${has("s")} THEN ${int(STARTS)} WHEN ${words} THEN ${int(WORDS)} END`;
}

/** The best tier of the text as typed, with the filters given. */
function strictTierSql(fts: Fts, p: SearchParams, text: NameTierText, filters: Sql | null): Sql {
  const has = (t: string, held: Sql | null = null) =>
    anyKept(fts, filters === null ? sql`${t}` : sql`${`(${t}) AND (`} || (SELECT q FROM flt) || ')'`, held);
  const words = has(text.words, oneName(fts, CANDIDATE_POS, [wordsOf(p.nameWords)]));
  return sql`CASE WHEN ${has(text.exact)} THEN ${int(EXACT)} WHEN ${has(text.starts)} THEN ${int(STARTS)} WHEN ${words} THEN ${int(WORDS)} END`;
}

/** The candidate places of every reading (columns i, role, cc, a1, city_id, rank, token). */
function candidatesSql(venues: boolean): Sql {
  const city = venues
    ? sql`SELECT r.i, 'city' AS role, c.country_code AS cc, c.admin1_code AS a1, c.id AS city_id, c.pos AS rank,
                 '__t_' || c.pos AS token
          FROM r CROSS JOIN cities_fts f ON f.cities_fts MATCH '"_' || replace(r.ci, ' ', '_') || '"'
          CROSS JOIN cities c ON c.pos = f.rowid
          WHERE r.ci IS NOT NULL
            AND (r.re IS NULL OR EXISTS (SELECT 1 FROM re WHERE re.i = r.i AND re.cc = c.country_code AND re.a1 = c.admin1_code))
            AND (r.co IS NULL OR EXISTS (SELECT 1 FROM co WHERE co.i = r.i AND co.cc = c.country_code))
          UNION ALL `
    : raw("");
  return sql`${city}SELECT re.i AS i, 'region' AS role, re.cc AS cc, re.a1 AS a1, NULL AS city_id, re.rank AS rank,
           '__s_' || lower(re.cc) || '_' || lower(re.a1) AS token
      FROM re JOIN r ON r.i = re.i WHERE r.ci IS NULL
    UNION ALL SELECT co.i, 'country', co.cc, NULL, NULL, co.rank, '__c_' || lower(co.cc)
      FROM co JOIN r ON r.i = co.i WHERE r.ci IS NULL AND r.re IS NULL`;
}

/** What a place readings' statement asks: for the search `p`, the text as typed (`strict`) and the readings of a place at its end. */
export interface PlacesAsked {
  p: SearchParams;
  strict: NameTierText;
  list: readonly AskedReading[];
}

/** The readings asked (columns i, x, s, w, nw, ci, re, co), as a JSON array. */
const readingsJson = (list: readonly AskedReading[]) =>
  JSON.stringify(
    list.map(({ reading, text }, i) => ({
      i,
      x: text.exact,
      s: text.starts,
      w: text.words,
      nw: reading.nameWords.length < 2 ? null : oneNameText([wordsOf(reading.nameWords)]),
      ci: reading.city ?? null,
      re: reading.region ?? null,
      co: reading.country ?? null,
    })),
  );

/** The readings asked as table r, none when `unless` (an SQL condition) holds. */
const readingsCte = (list: readonly AskedReading[], unless: Sql | null) =>
  sql`r AS MATERIALIZED (SELECT value ->> 'i' AS i, value ->> 'x' AS x, value ->> 's' AS s, value ->> 'w' AS w, value ->> 'nw' AS nw,
                              value ->> 'ci' AS ci, value ->> 're' AS re, value ->> 'co' AS co
                       FROM json_each(${readingsJson(list)})${unless === null ? raw("") : sql` WHERE NOT ${unless}`})`;

/** The candidate places of the readings in r, among every place (table candidates). */
function placesCtes(venues: boolean): Sql {
  const place = (form: string, region: boolean) =>
    sql`p.form = r.${raw(form)} AND p.admin1_code ${raw(region ? "<> ''" : "= ''")}`;
  return sql`co AS MATERIALIZED (SELECT r.i, p.country_code AS cc, p.rank FROM r CROSS JOIN place_names p ON ${place("co", false)}),
    re AS MATERIALIZED (SELECT r.i, p.country_code AS cc, p.admin1_code AS a1, p.rank FROM r CROSS JOIN place_names p ON ${place("re", true)}
                        WHERE r.co IS NULL OR EXISTS (SELECT 1 FROM co WHERE co.i = r.i AND co.cc = p.country_code)),
    candidates AS MATERIALIZED (SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY i ORDER BY rank) AS k
                                               FROM (${candidatesSql(venues)})) WHERE k <= ${int(PLACES_PER_READING)})`;
}

/** The filters as table flt (column q), where there are any. */
const filtersCte = (filters: Sql | null) => (filters === null ? raw("") : sql`flt(q) AS (SELECT ${filters}), `);

/** A candidate's first record of its best tier there (column first), over tiered's columns. */
const firstOf = (fts: Fts, filters: Sql | null) =>
  firstKept(
    fts,
    inPlace("CASE tier WHEN 0 THEN x WHEN 1 THEN s ELSE w END", filters),
    sql`(tier < ${int(WORDS)} OR ${heldIn(fts, CANDIDATE_POS)})`,
  );

/**
 * One statement: a row of the strict tier alone (i -1), then a row per candidate place with the
 * best tier and first pos of its reading's name there; no candidates when a name is the text.
 */
export function placeReadingsSql<R>(
  q: ResourceQueries<R>,
  p: SearchParams,
  strict: NameTierText,
  list: readonly AskedReading[],
): Sql {
  const filters = ftsFilters(p, q.fts);
  return sql`WITH ${filtersCte(filters)}strict(tier) AS MATERIALIZED (SELECT ${strictTierSql(q.fts, p, strict, filters)}),
    ${readingsCte(list, sql`(SELECT tier FROM strict) IS ${int(EXACT)}`)},
    ${placesCtes(q.resource === "venues")},
    tiered AS MATERIALIZED (SELECT candidates.*, r.x, r.s, r.w, r.nw, ${bestTier(q.fts, filters)} AS tier FROM candidates JOIN r ON r.i = candidates.i)
    SELECT -1 AS i, NULL AS role, NULL AS cc, NULL AS a1, NULL AS city_id, NULL AS rank, tier, NULL AS first FROM strict
    UNION ALL
    SELECT i, role, cc, a1, city_id, rank, tier, ${firstOf(q.fts, filters)} AS first
    FROM tiered`;
}

/**
 * Over several venue databases (src/query/merged-names.ts), placeReadingsSql in three parts. In
 * the main database, among every place: the candidate places of the readings, whatever the text's
 * strict tier (columns i, role, cc, a1, city_id, rank, token).
 */
export function placeCandidatesSql<R>(q: ResourceQueries<R>, asked: PlacesAsked): Sql {
  return sql`WITH ${readingsCte(asked.list, null)}, ${placesCtes(q.resource === "venues")}
    SELECT i, role, cc, a1, city_id, rank, token FROM candidates`;
}

/** In each venue database: the row of the text's strict tier there (placeReadingsSql's first). */
export function strictTierRowSql<R>(q: ResourceQueries<R>, asked: PlacesAsked): Sql {
  const filters = ftsFilters(asked.p, q.fts);
  return sql`WITH ${filtersCte(filters)}strict(tier) AS MATERIALIZED (SELECT ${strictTierSql(q.fts, asked.p, asked.strict, filters)})
    SELECT -1 AS i, NULL AS role, NULL AS cc, NULL AS a1, NULL AS city_id, NULL AS rank, tier, NULL AS first FROM strict`;
}

/** In each venue database: each candidate's (rows of placeCandidatesSql, numbered c from 0) best tier and first pos there. */
export function candidateTiersSql<R>(q: ResourceQueries<R>, asked: PlacesAsked, candidates: readonly Row[]): Sql {
  const filters = ftsFilters(asked.p, q.fts);
  const json = JSON.stringify(candidates.map((c) => ({ i: c.i, token: c.token })));
  return sql`WITH ${filtersCte(filters)}${readingsCte(asked.list, null)},
    candidates AS MATERIALIZED (SELECT key AS c, value ->> 'i' AS i, value ->> 'token' AS token FROM json_each(${json})),
    tiered AS MATERIALIZED (SELECT candidates.*, r.x, r.s, r.w, r.nw, ${bestTier(q.fts, filters)} AS tier FROM candidates JOIN r ON r.i = candidates.i)
    SELECT c, tier, ${firstOf(q.fts, filters)} AS first FROM tiered`;
}

const tierOf = (value: unknown): NameTier | null =>
  value === EXACT || value === STARTS || value === WORDS ? value : null;

/** The rows of placeReadingsSql (asked about `list`) as the strict tier and the candidates. */
export function placeReadings(list: readonly AskedReading[], rows: readonly Record<string, unknown>[]): PlaceReadings {
  const candidates: PlaceCandidate[] = [];
  let strictTier: NameTier | null = null;
  for (const row of rows) {
    const i = Number(row.i);
    if (i < 0) {
      strictTier = tierOf(row.tier);
      continue;
    }
    const reading = list[i]?.reading;
    if (reading === undefined) continue;
    candidates.push({
      reading,
      role: row.role === "city" ? "city" : row.role === "region" ? "region" : "country",
      countryCode: String(row.cc),
      admin1Code: typeof row.a1 === "string" ? row.a1 : null,
      cityId: typeof row.city_id === "string" ? row.city_id : null,
      rank: Number(row.rank),
      tier: tierOf(row.tier),
      first: typeof row.first === "number" ? row.first : null,
    });
  }
  return { strictTier, candidates };
}

/** A place's role, the most specific first: of two readings with the same best record, the narrower wins. */
const SPECIFIC = { city: 0, region: 1, country: 2 } as const;

/** The reading whose best record ranks first (tier, then pos), the narrowest place on a tie; null when none matches. */
export function bestReading(candidates: readonly PlaceCandidate[]): PlaceCandidate | null {
  let best: PlaceCandidate | null = null;
  for (const c of candidates) {
    if (c.tier === null || c.first === null) continue;
    if (best === null || compare(c, best) < 0) best = c;
  }
  return best;
}

function compare(a: PlaceCandidate, b: PlaceCandidate): number {
  return (
    (a.tier ?? 9) - (b.tier ?? 9) ||
    (a.first ?? 0) - (b.first ?? 0) ||
    SPECIFIC[a.role] - SPECIFIC[b.role] ||
    b.reading.nameWords.length - a.reading.nameWords.length ||
    a.rank - b.rank
  );
}

/**
 * The region or country the text names when no reading's name matches there: the largest place of
 * the narrower role. Not a city: a word at the end of a venue's name is often also the name of
 * some small town (a Bar, a Dog, an Arna), which says little of where the venue is.
 */
export function namedPlace(candidates: readonly PlaceCandidate[]): PlaceCandidate | null {
  const regions = candidates.filter((c) => c.role !== "city");
  return [...regions].sort((a, b) => SPECIFIC[a.role] - SPECIFIC[b.role] || a.rank - b.rank)[0] ?? null;
}

/**
 * The search a reading runs: the rest of the name, and the place as filters AND the filters given.
 * Null when the place would replace a filter given as a parameter (another city, state or country).
 */
export function readingParams(p: SearchParams, c: PlaceCandidate): SearchParams | null {
  const read: SearchParams = { ...p, name: c.reading.nameWords.join(" "), nameWords: c.reading.nameWords };
  const givenCountry = p.country === undefined ? null : "code" in p.country ? p.country.code : "";
  if (c.role === "city") {
    if (c.cityId === null || p.cityId !== undefined || p.cityName !== undefined) return null;
    read.cityId = c.cityId;
    return read;
  }
  // A country given by its name stays as given: the reading's statements AND it with the place.
  if (givenCountry !== null && givenCountry !== "" && givenCountry !== c.countryCode) return null;
  if (givenCountry === null) read.country = { code: c.countryCode };
  if (c.role === "region") {
    if (c.admin1Code === null || p.state !== undefined || p.stateCode !== undefined) return null;
    read.stateCode = c.admin1Code;
  }
  return read;
}
