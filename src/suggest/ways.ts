/**
 * The ways of reading a text as it is being typed (docs/api.md#suggestions), each with its class
 * (likelihood.ts), as FTS5 text of the search index:
 *
 * - MAIN_EXACT, STARTS (cities): a city's own name (or ASCII name, or its name in the request's
 *   language) is the text, or starts with it; STARTS (venues): one of its names starts with it;
 * - READ_IN_PLACE: the end of the text read as a place (docs/api.md#a-place-in-the-text) while it is
 *   typed — a country or a region written in full (`portland or`), or, for venues, a city once 3
 *   letters of it are typed (`club ber`: the clubs of Berlin, the city the cities' own suggestions
 *   put first for `ber`; before 3 letters, `wolf t` put the wolf clubs of Tokyo before Wolf Trap);
 * - OWN_WORDS (cities): every word starts a word of its own of the city's shown name (or its name in
 *   the request's language);
 * - ALTERNATE_STARTS (cities): one of its other names starts with it;
 * - WORDS_START: every word starts a word of its own of one of its names (src/match/one-name.ts).
 */
import type { Language } from "../data-contract/languages.ts";
import {
  cityTokenSql,
  countryTokenSql,
  localizedNameToken,
  mainNameToken,
  nameToken,
  ownWords,
  stateTokenSql,
} from "../data-contract/tokens.ts";
import { anyOf, everyWordText, phrase, prefixOf, tokensFrom } from "../match/fts.ts";
import { wordsOf, type NameWords } from "../match/one-name.ts";
import type { Resource } from "../params/paging.ts";
import { raw, sql, unionAll, type Sql } from "../sql/sql.ts";
import {
  ALTERNATE_STARTS,
  MAIN_EXACT,
  OWN_WORDS,
  plainCityScore,
  READ_IN_PLACE,
  STARTS,
  WORDS_START,
} from "./likelihood.ts";
import type { SuggestParams } from "./params.ts";

/** The letters of a city's name typed before the end of the text is read as that city. */
const CITY_TYPED_LETTERS = 3;
/** Places the end of the text may be (the likeliest first). */
const PLACES_READ = 2;

export interface Way {
  /** FTS5 text; null for the place read at the end, whose text is the PlaceRead's. */
  text: string | null;
  cls: number;
  /** The readings one name must hold (src/match/one-name.ts); none for a name token or a city's own words. */
  readings: NameWords[];
}

/**
 * The end of the text read as a place: the statement's tables of the places read (read_regions and,
 * for venues, read_cities), the FTS5 text of its way (an SQL expression: the words before it AND
 * the places), and what place a record of it was read in (an SQL expression over the page's c and v).
 */
export interface PlaceRead {
  tables: Sql;
  text: Sql;
  kind: Sql;
}

/** A way of a name token (exact or as a prefix): a name is the text, or starts with it. */
const tokenWay = (token: string, cls: number, exact = false): Way => ({
  text: exact ? phrase(token) : prefixOf(token),
  cls,
  readings: [],
});

/** FTS5 text: any of the tokens, exactly or as prefixes. */
const anyToken = (tokens: readonly string[], exact: boolean): string => {
  const texts = tokens.map(exact ? phrase : prefixOf);
  return texts.length === 1 ? (texts[0] ?? "") : anyOf(texts);
};

/** A city's own name tokens of a text: its name's and ASCII name's, and its name's in the request's language. */
const ownNameTokens = (text: string, language: Language): string[] =>
  language === "en" ? [mainNameToken(text)] : [mainNameToken(text), localizedNameToken(language, text)];

/** The ways of a name token of the text: a city's own name first, then its others; a venue's any. */
function startWays(resource: Resource, text: string, language: Language): Way[] {
  if (resource !== "cities") return [tokenWay(nameToken(text), STARTS)];
  const own = ownNameTokens(text, language);
  return [
    { text: anyToken(own, true), cls: MAIN_EXACT, readings: [] },
    { text: anyToken(own, false), cls: STARTS, readings: [] },
    tokenWay(nameToken(text), ALTERNATE_STARTS),
  ];
}

/** The way of a city's own name holding the words: its shown name's, or its name's in the request's language. */
function ownWordsWay(words: readonly string[], language: Language): Way {
  const texts = [...new Set<Language>(["en", language])].map((l) => everyWordText(wordsOf(words), ownWords(l)));
  return { text: texts.length === 1 ? (texts[0] ?? "") : anyOf(texts), cls: OWN_WORDS, readings: [] };
}

/**
 * The cities the last word may be as it is typed: the likeliest first, as the cities' own
 * suggestions order them without a focus (their own name, or another, starting with it).
 */
function citiesTypedSql(last: string, language: Language): Sql {
  const parts = startWays("cities", last, language).map(
    (w) =>
      sql`SELECT rowid AS pos, ${raw(String(w.cls))} AS cls FROM (SELECT rowid FROM cities_fts WHERE cities_fts MATCH ${w.text} ORDER BY rowid LIMIT ${raw(String(PLACES_READ))})`,
  );
  const best = sql`SELECT pos, min(cls) AS cls FROM (${unionAll(parts)}) GROUP BY pos`;
  return sql`SELECT k.pos AS pos FROM (${best}) k JOIN cities c ON c.pos = k.pos
             ORDER BY ${plainCityScore()} DESC, k.pos LIMIT ${raw(String(PLACES_READ))}`;
}

/**
 * The places the end of a text may be, read apart (over venue databases, from the main database,
 * which holds every place: docs/deploy.md#past-one-database): the regions and countries (a country
 * code and a state code, '' for a country) and, for venues, the cities' pos, the likeliest first.
 */
export interface PlacesRead {
  regions: [country: string, state: string][];
  cities: number[];
}

/** The tables of the places read: chosen among every place, or `read` apart. */
function placeTables(last: string, language: Language, cities: boolean, read: PlacesRead | undefined): Sql {
  if (read !== undefined) {
    const regions = sql`read_regions AS MATERIALIZED (SELECT value ->> 0 AS country_code, value ->> 1 AS admin1_code
      FROM json_each(${JSON.stringify(read.regions)}))`;
    if (!cities) return regions;
    return sql`${regions}, read_cities AS MATERIALIZED (SELECT value AS pos FROM json_each(${JSON.stringify(read.cities)}))`;
  }
  const regions = sql`read_regions AS MATERIALIZED (SELECT country_code, admin1_code FROM place_names
    WHERE form = ${last} ORDER BY rank LIMIT ${raw(String(PLACES_READ))})`;
  return cities ? sql`${regions}, read_cities AS MATERIALIZED (${citiesTypedSql(last, language)})` : regions;
}

/** Whether the end of the text is read as cities too (venues, once a city's first letters are typed). */
const readsCities = (resource: Resource, last: string) =>
  resource === "venues" && [...last].length >= CITY_TYPED_LETTERS;

/**
 * The statement that reads the places of a text's end apart (PlacesRead: rows of cc and a1, then
 * rows of pos); null for a text that reads none.
 */
export function placesReadSql(resource: Resource, s: SuggestParams, language: Language): Sql | null {
  if (!readsPlace(s)) return null;
  const last = s.search.nameWords.at(-1) ?? "";
  const cities = readsCities(resource, last);
  const tables = placeTables(last, language, cities, undefined);
  const read = cities ? raw("UNION ALL SELECT NULL, NULL, pos FROM read_cities") : raw("");
  return sql`WITH ${tables} SELECT country_code AS cc, admin1_code AS a1, NULL AS pos FROM read_regions ${read}`;
}

/** The rows of placesReadSql as the places read. */
export const placesReadOf = (rows: readonly Record<string, unknown>[]): PlacesRead => ({
  regions: rows.filter((r) => r.pos === null).map((r) => [String(r.cc), String(r.a1)]),
  cities: rows.filter((r) => r.pos !== null).map((r) => Number(r.pos)),
});

/** The end of the text read as a place, for the words before it; null when it cannot be one. */
function placeRead(
  resource: Resource,
  words: readonly string[],
  language: Language,
  read: PlacesRead | undefined,
): PlaceRead | null {
  if (words.length < 2) return null;
  const last = words.at(-1) ?? "";
  const regions = tokensFrom(
    `CASE admin1_code WHEN '' THEN ${countryTokenSql("country_code")} ELSE ${stateTokenSql("country_code", "admin1_code")} END`,
    raw("FROM read_regions"),
  );
  const inState = raw(`WHEN EXISTS (SELECT 1 FROM read_regions r WHERE r.admin1_code <> ''
    AND r.country_code = c.country_code AND r.admin1_code = c.admin1_code) THEN 'state'`);
  const before = `${everyWordText(wordsOf(words.slice(0, -1)))} AND `;
  if (!readsCities(resource, last)) {
    const tables = placeTables(last, language, false, read);
    return { tables, text: sql`${before} || ${regions}`, kind: sql`CASE ${inState} ELSE 'country' END` };
  }
  const cities = tokensFrom(cityTokenSql("pos"), raw("FROM read_cities"));
  return {
    tables: placeTables(last, language, true, read),
    text: sql`${before} || '(' || ${regions} || ' OR ' || ${cities} || ')'`,
    kind: sql`CASE WHEN v.city_pos IN (SELECT pos FROM read_cities) THEN 'city' ${inState} ELSE 'country' END`,
  };
}

/**
 * Whether a suggestion of venues reads the end of its text as a place (placeRead), which is chosen
 * among every place: the main database answers it, or reads its places apart
 * (placesReadSql; docs/deploy.md#past-one-database).
 */
export const readsPlace = (s: SuggestParams): boolean => s.search.places && s.search.nameWords.length >= 2;

/** Every way of reading the text, each with its class, and the place read at its end; no ways for a text without words. */
export function waysOf(
  resource: Resource,
  s: SuggestParams,
  language: Language,
  read?: PlacesRead,
): { ways: Way[]; place: PlaceRead | null } {
  const words = s.search.nameWords;
  if (words.length === 0) return { ways: [], place: null };
  const place = readsPlace(s) ? placeRead(resource, words, language, read) : null;
  const placeWay: Way[] =
    place === null ? [] : [{ text: null, cls: READ_IN_PLACE, readings: [wordsOf(words.slice(0, -1))] }];
  const ownWay = resource === "cities" ? [ownWordsWay(words, language)] : [];
  const wordsWay: Way = { text: everyWordText(wordsOf(words)), cls: WORDS_START, readings: [wordsOf(words)] };
  return { ways: [...startWays(resource, s.search.name, language), ...placeWay, ...ownWay, wordsWay], place };
}
