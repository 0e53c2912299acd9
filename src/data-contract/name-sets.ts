/**
 * Where the words of each name of a record lie in city_name_words_fts and venue_name_words_fts
 * (migrations/0012): the import writes a record's names, numbered from 0, at rowid
 * pos * NAME_SLOTS + number, and the worker reads a record's names as that rowid range
 * (src/match/one-name.ts). Every such document also holds NAMES_TOKEN, so that whether a record has
 * names apart is a lookup of the same index.
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

/** The token every document of a record's names holds (never a word: words hold no `_`). */
export const NAMES_TOKEN = "__names";

/** The names as written, in the order of their numbers, as the column `names` of the name texts. */
export const nameTextsJson = (names: readonly string[]): string => JSON.stringify(names);

/** The names of a column `names` of the name texts (none for NULL or anything else). */
export function readNameTexts(json: unknown): string[] {
  if (typeof json !== "string") return [];
  const names: unknown = JSON.parse(json);
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === "string") : [];
}
