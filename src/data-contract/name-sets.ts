/**
 * Where the words of each name of a record lie in city_name_words_fts and venue_name_words_fts
 * (migrations/0012): the import writes a record's names, numbered from 0, at rowid
 * pos * NAME_SLOTS + number, and the worker reads a record's names as that rowid range
 * (src/match/one-name.ts). Every such document also holds its record's token (recordTokenSql), so
 * that whether a record has names apart, and which of them holds some words, are lookups of that
 * token's few documents.
 *
 * Beside them, city_name_texts and venue_name_texts (migrations/0013) hold the same names as
 * written, a JSON array in the order of their numbers, for the suggestions to say which name
 * matched (src/suggest/matched.ts); and, for a record without names apart whose words are all in
 * one name other than its first (a city's GeoNames name, a venue's shown name), that name alone.
 * Pure.
 */

/** Names of one record at most (the most a GeoNames city has where its names differ is about 200). */
export const NAME_SLOTS = 4096;

/** SQL: the rowid of name `number` of the record at `pos` (SQL expressions). */
export const nameSetRowidSql = (pos: string, number: string): string => `${pos} * ${NAME_SLOTS} + ${number}`;

/**
 * SQL: the token every document of the names of the record at `pos` (an SQL expression) holds
 * (never a word: words hold no `_`). A record's own token, not one all of them share: FTS5 meets a
 * rowid range only once it has found a match, so a lookup of words in a record's range that no name
 * there holds went on through the documents after it (1 s for 600 cities of `б g`, whose words are
 * rarely in one name); the AND of the words with the record's token reads its few documents only.
 */
export const recordTokenSql = (pos: string): string => `'${RECORD_TOKEN}' || ${pos}`;

/** What a record's token is made of: this, then its pos. */
export const RECORD_TOKEN = "__p";

/** The names as written, in the order of their numbers, as the column `names` of the name texts. */
export const nameTextsJson = (names: readonly string[]): string => JSON.stringify(names);

/** The names of a column `names` of the name texts (none for NULL or anything else). */
export function readNameTexts(json: unknown): string[] {
  if (typeof json !== "string") return [];
  const names: unknown = JSON.parse(json);
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === "string") : [];
}
