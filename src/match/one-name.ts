/**
 * What "a record matches a text" means (docs/api.md#matching): ONE of its names holds every word of
 * the text, each as the start of a word of that name — not its names together. The search documents
 * (venues_fts, cities_fts) hold all of a record's words at once, so they find every record that may
 * match; this condition keeps those one of whose names holds the words, from the words of each name
 * apart that the import stores where its names' words differ (city_name_words, venue_name_words:
 * src/data-contract/spellings.ts nameIndexText). A record without a row there has its words from
 * one name: the document's match is the answer. The searches, the typo fallback, the place
 * readings and the suggestions all ask it here.
 */
import { allOf, raw, sql, type Sql } from "../sql/sql.ts";

/** A reading's words as a name must hold them: per word of the text, its alternatives (a typo's corrections). */
export type NameWords = readonly (readonly string[])[];

/** The search index of a resource, whose records the condition is on. */
export type Fts = "venues_fts" | "cities_fts";

const TABLE: Record<Fts, string> = { venues_fts: "venue_name_words", cities_fts: "city_name_words" };

/**
 * An SQL condition on the record at `pos` of `fts`: one of its names holds the words of one of the
 * readings (`readings`: an SQL expression of their JSON, `[[["new"], ["y"]], …]`).
 */
export function oneNameOf(fts: Fts, pos: Sql, readings: Sql): Sql {
  return sql`NOT EXISTS (SELECT 1 FROM ${raw(TABLE[fts])} n WHERE n.pos = ${pos} AND NOT EXISTS (
    SELECT 1 FROM json_each(n.names) s, json_each(${readings}) r WHERE NOT EXISTS (
      SELECT 1 FROM json_each(r.value) g WHERE NOT EXISTS (
        SELECT 1 FROM json_each(g.value) a WHERE instr(' ' || s.value, ' ' || a.value) > 0))))`;
}

/**
 * Words written into a strict search's condition, each its own bound value; a longer text's words
 * are one bound JSON list, so that neither the bound values (D1 allows 100) nor the expression's
 * depth grows with the text.
 */
const WORDS_INLINE = 6;

/**
 * The condition for a record that the documents matched by the OR of these readings' words, or
 * null when none is needed: a reading of one word is held by a name whenever the document holds
 * it, so when every reading is of one word, the document's match is the answer.
 */
function oneName(fts: Fts, pos: Sql, readings: readonly NameWords[]): Sql | null {
  if (!oneNameNeeded(readings)) return null;
  const [only] = readings;
  if (readings.length > 1 || only === undefined || only.some((g) => g.length !== 1) || only.length > WORDS_INLINE) {
    return oneNameOf(fts, pos, sql`${JSON.stringify(readings)}`);
  }
  // One reading, one way of each word (a strict search): its words in the text, without reading
  // them from JSON name by name (each JSON row is a row read).
  const every = allOf(only.map((g) => sql`instr(' ' || s.value, ${` ${g[0] ?? ""}`}) > 0`));
  return sql`NOT EXISTS (SELECT 1 FROM ${raw(TABLE[fts])} n WHERE n.pos = ${pos} AND NOT EXISTS (
    SELECT 1 FROM json_each(n.names) s WHERE ${every}))`;
}

/** Whether a match of these readings needs the condition: some reading has several words. */
export const oneNameNeeded = (readings: readonly NameWords[]): boolean => readings.some((r) => r.length > 1);

/** `oneName` as a condition to AND: true when none is needed. */
export const andOneName = (fts: Fts, pos: Sql, readings: readonly NameWords[]): Sql => {
  const condition = oneName(fts, pos, readings);
  return condition === null ? raw("") : sql` AND ${condition}`;
};

/** The words of a text as a name must hold them: each word its own alternative. */
export const wordsOf = (words: readonly string[]): NameWords => words.map((w) => [w]);
