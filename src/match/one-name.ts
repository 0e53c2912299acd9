/**
 * What "a record matches a text" means (docs/api.md#matching): ONE of its names holds every word of
 * the text, each as the start of a word of that name of its own — not its names together. The search documents
 * (venues_fts, cities_fts) hold all of a record's words at once, so they find every record that may
 * match; this condition keeps those one of whose names holds the words. Where a record's names hold
 * different words (src/data-contract/name-index.ts nameIndexText), each of its names is a document
 * of its own in city_name_words_fts and venue_name_words_fts, with the record's own token
 * (src/data-contract/name-sets.ts): the condition is FTS5 lookups of that token, however many
 * names the record has. A record without such documents has its words from one name: the document's match
 * is the answer. The searches, the
 * typo fallback, the place readings and the suggestions all ask it here.
 */
import { RECORD_TOKEN } from "../data-contract/name-sets.ts";
import { literal, raw, sql, type Sql } from "../sql/sql.ts";
import { anyOf, everyWordText } from "./fts.ts";

/** A reading's words as a name must hold them: per word of the text, its alternatives (a typo's corrections). */
export type NameWords = readonly (readonly string[])[];

/** The search index of a resource, whose records the condition is on. */
export type Fts = "venues_fts" | "cities_fts";

/** Per resource: the index of each name of the records whose names differ. */
const NAMES_INDEX: Record<Fts, string> = { venues_fts: "venue_name_words_fts", cities_fts: "city_name_words_fts" };

/** FTS5 text that a name matches when it holds the words of one of the readings (each word a prefix of a word of its own). */
export const oneNameText = (readings: readonly NameWords[]): string => anyOf(readings.map((r) => everyWordText(r)));

/**
 * An SQL condition on the record at `pos` of `fts`: it has no names apart, or one of them matches
 * `text` (an SQL expression of FTS5 text: oneNameText()). Two lookups of the record's own token
 * (src/data-contract/name-sets.ts), which D1 counts as no row read.
 */
export function oneNameOf(fts: Fts, pos: Sql, text: Sql): Sql {
  const names = raw(NAMES_INDEX[fts]);
  const token = sql`${literal(`"${RECORD_TOKEN}`)} || ${pos} || '"'`;
  return sql`(NOT EXISTS (SELECT 1 FROM ${names} WHERE ${names} MATCH ${token})
    OR EXISTS (SELECT 1 FROM ${names} WHERE ${names} MATCH ${token} || ' AND (' || ${text} || ')'))`;
}

/** Whether a match of these readings needs the condition: some reading has several words. */
export const oneNameNeeded = (readings: readonly NameWords[]): boolean => readings.some((r) => r.length > 1);

/**
 * The condition for a record that the documents matched by the OR of these readings' words, or
 * null when none is needed: a reading of one word is held by a name whenever the document holds
 * it, so when every reading is of one word, the document's match is the answer.
 */
export function oneName(fts: Fts, pos: Sql, readings: readonly NameWords[]): Sql | null {
  return oneNameNeeded(readings) ? oneNameOf(fts, pos, sql`${oneNameText(readings)}`) : null;
}

/** The words of a text as a name must hold them: each word its own alternative. */
export const wordsOf = (words: readonly string[]): NameWords => words.map((w) => [w]);
