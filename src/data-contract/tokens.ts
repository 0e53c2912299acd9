/**
 * The words of the search indexes (venues_fts, cities_fts): the one definition of what the import
 * writes into a document and what a query asks for, so that the two cannot drift apart.
 *
 * The FTS5 tables tokenize with `ascii tokenchars '_'` (migrations/0004): a token is a run of ASCII
 * letters, digits, `_` and any non-ASCII character, so the space-separated output of normalize()
 * is split into exactly the words that words() returns (test/worker/tokenizer.test.ts runs every
 * code point through both). Normalized words never contain `_`, which leaves room for:
 *
 * - `_new_york`: a name as one token (`_` + its words joined by `_`), so "the name is the query"
 *   is the token and "the name starts with the query" its prefix;
 * - `__n_new_york_city`: a city's own name (or ASCII name) as one token, apart from its other names
 *   (the suggestions count it over them: src/suggest/likelihood.ts); `__nde_munchen`, its name in a
 *   served language (localized_names), which counts as its own for a request in that language;
 * - `__r2_s`: the starts that several words of a name share (name-index.ts sharedStarts): two of its
 *   words start with `s`, so that each typed word is its own word of the name (src/match/fts.ts);
 * - `__o_york`, `__o2_s` (`__ode_york`, `__ode2_s` in a language): the words and shared starts of a
 *   city's shown name alone (its localized name's), so that the searches and the suggestions tell
 *   its own name's words from another name's; `__oa_bezirk`, `__oa2_b`: its ASCII name's, where
 *   their words differ;
 * - `__c_us`, `__s_us_ca`, `__a_ca`, `__t_<city pos>`: country, state (country and admin-1 code),
 *   admin-1 code alone, and a venue's city, so filters are FTS terms intersected with a name;
 * - `__k_<kind>`: a venue's kind (`__k_concert_hall`), a filter like the others;
 * - `__g<level>_<cell>`: the cell of the record's place at each level of the grid
 *   (src/data-contract/grid.ts), so a place's surroundings are an OR of a few cells;
 * - `__p<pos>`, in the index of each name apart only: the record its name documents are of
 *   (name-sets.ts recordTokenSql);
 * - `__x`: a venue that has other names than its own (aliases, names in other scripts), whose own
 *   names are then written as a city's are (`__n_…`, `__o_…`); a venue without it has one name, its
 *   own (src/match/own-names.ts).
 */
import type { Language } from "./languages.ts";
import { words } from "./normalize.ts";

export function nameToken(normalized: string): string {
  return `_${words(normalized).join("_")}`;
}

/** The token of a venue with other names than its own. */
export const OTHER_NAMES = "__x";

/** A city's own name as a token: `__n_new_york_city`. */
export const mainNameToken = (normalized: string): string => `__n${nameToken(normalized)}`;

/** A city's name in a served language as a token: `__nde_munchen`. */
export const localizedNameToken = (language: Exclude<Language, "en">, normalized: string): string =>
  `__n${language}${nameToken(normalized)}`;

/**
 * How the words of a name are written into a document, and a start that several of them share: as
 * they are with `__r<count>_<start>` (every name of a record), or marked as a city's own name's
 * (ownWords).
 */
export interface WordTokens {
  word(word: string): string;
  shared(count: number, start: string): string;
}

export const ANY_NAME: WordTokens = { word: (w) => w, shared: (n, start) => `__r${n}_${start}` };

/** The words of a city's shown name (`__o_york`), or of its name in a served language (`__ode_york`). */
export function ownWords(language: Language): WordTokens {
  const scope = language === "en" ? "" : language;
  return { word: (w) => `__o${scope}_${w}`, shared: (n, start) => `__o${scope}${n}_${start}` };
}

/** The words of a city's ASCII name where they differ from its name's (`Prenzlauer Berg Bezirk`): `__oa_bezirk`. */
export const ASCII_WORDS: WordTokens = { word: (w) => `__oa_${w}`, shared: (n, start) => `__oa${n}_${start}` };

export const countryToken = (countryCode: string) => `__c_${countryCode.toLowerCase()}`;
const stateToken = (countryCode: string, admin1Code: string) =>
  `__s_${countryCode.toLowerCase()}_${admin1Code.toLowerCase()}`;
export const admin1Token = (admin1Code: string) => `__a_${admin1Code.toLowerCase()}`;

/** The tokens of a place's country and state. */
export function regionTokens(countryCode: string, admin1Code: string | null): string[] {
  const tokens = [countryToken(countryCode)];
  if (admin1Code !== null) tokens.push(stateToken(countryCode, admin1Code), admin1Token(admin1Code));
  return tokens;
}

/**
 * SQL expressions that build the same tokens from columns, for filters whose values come from the
 * database (a state by name, a city by name). `country` and `code` are column expressions written
 * in code, never user text.
 */
export const stateTokenSql = (country: string, code: string) => `'__s_' || lower(${country}) || '_' || lower(${code})`;
export const cityTokenSql = (pos: string) => `'__t_' || ${pos}`;
export const countryTokenSql = (code: string) => `'__c_' || lower(${code})`;

/** A venue's kind (src/data-contract/venue-kinds.ts) as a token: `__k_concert_hall`; in SQL from a column. */
export const kindToken = (kind: string) => `__k_${kind.replaceAll(" ", "_")}`;
export const kindTokenSql = (kind: string) => `'__k_' || replace(${kind}, ' ', '_')`;
