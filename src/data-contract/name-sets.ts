/**
 * Where the words of each name of a record lie in city_name_words_fts and venue_name_words_fts
 * (migrations/0012): the import writes a record's names, numbered from 0, at rowid
 * pos * NAME_SLOTS + number, and the worker reads a record's names as that rowid range
 * (src/match/one-name.ts). Every such document also holds NAMES_TOKEN, so that whether a record has
 * names apart is a lookup of the same index. Pure.
 */

/** Names of one record at most (the most a GeoNames city has where its names differ is about 200). */
export const NAME_SLOTS = 4096;

/** SQL: the rowid of name `number` of the record at `pos` (SQL expressions). */
export const nameSetRowidSql = (pos: string, number: string): string => `${pos} * ${NAME_SLOTS} + ${number}`;

/** The token every document of a record's names holds (never a word: words hold no `_`). */
export const NAMES_TOKEN = "__names";
