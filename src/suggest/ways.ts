/**
 * The ways of reading a text as it is being typed (docs/api.md#suggestions), each with its class
 * (likelihood.ts), as FTS5 text of the search index:
 *
 * - MAIN_EXACT, STARTS (cities): a city's own name (or ASCII name) is the text, or starts with it;
 *   STARTS (venues): one of its names starts with it;
 * - ALTERNATE_STARTS (cities): one of its other names starts with it;
 * - READ_IN_PLACE: the end of the text read as a place (docs/api.md#a-place-in-the-text) while it is
 *   typed — a country or a region written in full (`portland or`), or, for venues, a city once 3
 *   letters of it are typed (`club ber`: the clubs of Berlin, the city the cities' own suggestions
 *   put first for `ber`; before 3 letters, `wolf t` put the wolf clubs of Tokyo before Wolf Trap);
 * - WORDS_START: every word starts a word of its own of one of its names (src/match/one-name.ts).
 */
import { mainNameToken, nameToken, cityTokenSql, countryTokenSql, stateTokenSql } from "../data-contract/tokens.ts";
import { everyWordText, phrase, prefixOf, tokensFrom } from "../match/fts.ts";
import { wordsOf, type NameWords } from "../match/one-name.ts";
import type { Resource } from "../params/paging.ts";
import { raw, sql, unionAll, type Sql } from "../sql/sql.ts";
import { ALTERNATE_STARTS, MAIN_EXACT, plainCityScore, READ_IN_PLACE, STARTS, WORDS_START } from "./likelihood.ts";
import type { SuggestParams } from "./params.ts";

/** The letters of a city's name typed before the end of the text is read as that city. */
const CITY_TYPED_LETTERS = 3;
/** Places the end of the text may be (the likeliest first). */
const PLACES_READ = 2;

export interface Way {
  /** FTS5 text; null for the place read at the end, whose text is `place`. */
  text: string | null;
  /** The place read at the end: an SQL expression of its FTS5 text (the words before it AND the place). */
  place?: Sql;
  cls: number;
  /** The readings one name must hold (src/match/one-name.ts); none for a name token. */
  readings: NameWords[];
}

/** The text's words as prefixes, each a word of its own (a word is a prefix of itself). */
const wordsText = (words: readonly string[]): string => everyWordText(wordsOf(words));

/** A way of a name token (exact or as a prefix): a name is the text, or starts with it. */
const tokenWay = (token: string, cls: number, exact = false): Way => ({
  text: exact ? phrase(token) : prefixOf(token),
  cls,
  readings: [],
});

/** The ways of a name token of the text: a city's own name first, then its others; a venue's any. */
const startWays = (resource: Resource, text: string): Way[] =>
  resource === "cities"
    ? [
        tokenWay(mainNameToken(text), MAIN_EXACT, true),
        tokenWay(mainNameToken(text), STARTS),
        tokenWay(nameToken(text), ALTERNATE_STARTS),
      ]
    : [tokenWay(nameToken(text), STARTS)];

/**
 * The cities the last word may be as it is typed: the likeliest first, as the cities' own
 * suggestions order them without a focus (their own name, or another, starting with it).
 */
function citiesTypedSql(last: string): Sql {
  const parts = startWays("cities", last).map(
    (w) =>
      sql`SELECT rowid AS pos, ${raw(String(w.cls))} AS cls FROM (SELECT rowid FROM cities_fts WHERE cities_fts MATCH ${w.text} ORDER BY rowid LIMIT ${raw(String(PLACES_READ))})`,
  );
  const best = sql`SELECT pos, min(cls) AS cls FROM (${unionAll(parts)}) GROUP BY pos`;
  return sql`FROM (SELECT k.pos AS rowid FROM (${best}) k JOIN cities c ON c.pos = k.pos
                   ORDER BY ${plainCityScore()} DESC, k.pos LIMIT ${raw(String(PLACES_READ))})`;
}

/** The way of reading the end of the text as a place, for the words before it; null when it cannot be one. */
function placeWay(resource: Resource, words: readonly string[]): Way | null {
  if (words.length < 2) return null;
  const before = words.slice(0, -1);
  const last = words.at(-1) ?? "";
  const regions = tokensFrom(
    `CASE admin1_code WHEN '' THEN ${countryTokenSql("country_code")} ELSE ${stateTokenSql("country_code", "admin1_code")} END`,
    sql`FROM (SELECT country_code, admin1_code FROM place_names WHERE form = ${last} ORDER BY rank LIMIT ${raw(String(PLACES_READ))})`,
  );
  const cityRead = resource === "venues" && [...last].length >= CITY_TYPED_LETTERS;
  const places = cityRead
    ? sql`'(' || ${regions} || ' OR ' || ${tokensFrom(cityTokenSql("rowid"), citiesTypedSql(last))} || ')'`
    : regions;
  return {
    text: null,
    place: sql`${`${wordsText(before)} AND `} || ${places}`,
    cls: READ_IN_PLACE,
    readings: [wordsOf(before)],
  };
}

/** Every way of reading the text, each with its class; none for a text without words. */
export function waysOf(resource: Resource, s: SuggestParams): Way[] {
  const words = s.search.nameWords;
  if (words.length === 0) return [];
  const place = s.search.places ? placeWay(resource, words) : null;
  const wordsWay: Way = { text: wordsText(words), cls: WORDS_START, readings: [wordsOf(words)] };
  return [...startWays(resource, s.search.name), ...(place === null ? [] : [place]), wordsWay];
}
