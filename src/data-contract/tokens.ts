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
 * - a record's own names (ownNames below), marked by one combining mark, which normalize() never
 *   leaves in a text: `◌̀new_york_city`, a city's own name (or ASCII name) as one token, apart from
 *   its other names; `◌́munchen` (a mark per served language), its name in that language, its own
 *   for a request in that language; the searches rank them first (src/match/own-names.ts), the
 *   suggestions count them over the others (src/suggest/likelihood.ts);
 * - `__r2_s`: the starts that several words of a name share (name-index.ts sharedStarts): two of its
 *   words start with `s`, so that each typed word is its own word of the name (src/match/fts.ts);
 * - `◌̈york`, `◌̑2_s` (other marks in a language): the words and shared starts of a city's shown
 *   name alone (its localized name's), so that the searches and the suggestions tell its own name's
 *   words from another name's; `◌̐bezirk`: its ASCII name's, where their words differ;
 * - `__c_us`, `__s_us_ca`, `__a_ca`, `__t_<city pos>`: country, state (country and admin-1 code),
 *   admin-1 code alone, and a venue's city, so filters are FTS terms intersected with a name;
 * - `__k_<kind>`: a venue's kind (`__k_concert_hall`), a filter like the others;
 * - `__g<level>_<cell>`: the cell of the record's place at each level of the grid
 *   (src/data-contract/grid.ts), so a place's surroundings are an OR of a few cells;
 * - `__p<pos>`, in the index of each name apart only: the record its name documents are of
 *   (name-sets.ts recordTokenSql);
 * - `__x`: a venue that has other names than its own (aliases, names in other scripts), whose own
 *   names are then written as a city's are; a venue without it has one name, its own
 *   (src/match/own-names.ts).
 */
import { TRANSLATED, type Language } from "./languages.ts";
import { words } from "./normalize.ts";

export function nameToken(normalized: string): string {
  return `_${words(normalized).join("_")}`;
}

/** The token of a venue with other names than its own. */
export const OTHER_NAMES = "__x";

/**
 * The marks of own names' tokens: combining marks (U+0300 on), which normalize() removes from every
 * text, so that no typed word is one; one character, so that an own name's first five letters are
 * in FTS5's prefix index (1–6 characters), as a word's first six are (`__n_` and `__o_` left an own
 * name two: each longer start merged the lists of every own token it starts, 2 ms for `san` in
 * cities500). In order: the main name, each served language's name, the shown name's words, each
 * language's words, the ASCII name's words, and the shared starts of the same words.
 */
const MARKS = (() => {
  let next = 0x300;
  const take = () => String.fromCodePoint(next++);
  const perLanguage = () => Object.fromEntries(TRANSLATED.map((l) => [l, take()])) as Record<Translated, string>;
  const name = take();
  const names = perLanguage();
  const word = take();
  const words = perLanguage();
  const ascii = take();
  return { name, names, word, words, ascii, shared: take(), sharedIn: perLanguage(), asciiShared: take() };
})();

type Translated = Exclude<Language, "en">;

/** A city's own name as a token (its words joined by `_`, after its mark). */
export const mainNameToken = (normalized: string): string => `${MARKS.name}${words(normalized).join("_")}`;

/** A city's name in a served language as a token. */
export const localizedNameToken = (language: Translated, normalized: string): string =>
  `${MARKS.names[language]}${words(normalized).join("_")}`;

/** What an own name's token says (readOwnToken): a name or a word, of every language ('') or of one, its text (a name token's words joined by `_`). */
export interface OwnToken {
  kind: "name" | "word";
  language: Translated | "";
  text: string;
}

const OWN_TOKENS = new Map<string, Omit<OwnToken, "text">>([
  [MARKS.name, { kind: "name", language: "" }],
  [MARKS.word, { kind: "word", language: "" }],
  [MARKS.ascii, { kind: "word", language: "" }],
  ...TRANSLATED.flatMap((l): [string, Omit<OwnToken, "text">][] => [
    [MARKS.names[l], { kind: "name", language: l }],
    [MARKS.words[l], { kind: "word", language: l }],
  ]),
]);

/** An own name's name or word token read back (the import's classes of broad prefixes); null for any other token. */
export function readOwnToken(token: string): OwnToken | null {
  const own = OWN_TOKENS.get(token.charAt(0));
  return own === undefined ? null : { ...own, text: token.slice(1) };
}

/** An SQLite GLOB that a text of tokens matches when it holds an own name of a served language. */
export const LOCALIZED_OWN_GLOB = `*[${TRANSLATED.flatMap((l) => [MARKS.names[l], MARKS.words[l]]).join("")}]*`;

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

/** The words of a city's shown name, or of its name in a served language, marked as its own. */
export function ownWords(language: Language): WordTokens {
  const [word, shared] =
    language === "en" ? [MARKS.word, MARKS.shared] : [MARKS.words[language], MARKS.sharedIn[language]];
  return { word: (w) => `${word}${w}`, shared: (n, start) => `${shared}${n}_${start}` };
}

/** The words of a city's ASCII name where they differ from its name's (`Prenzlauer Berg Bezirk`), marked as its own. */
export const ASCII_WORDS: WordTokens = {
  word: (w) => `${MARKS.ascii}${w}`,
  shared: (n, start) => `${MARKS.asciiShared}${n}_${start}`,
};

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
