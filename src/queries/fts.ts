/**
 * FTS5 query text built from normalized words. Every word is a quoted phrase (`"fill"*`), so no
 * user text can act as FTS5 syntax: `AND`, `NEAR(`, `*`, `"`, `^`, `col:` are plain words here.
 */
import { words } from "../normalize";

const phrase = (word: string) => `"${word.replaceAll('"', '""')}"`;

/** Every word as a prefix (`"fill"* "aud"*`): each must start some word of the text. */
export function ftsQuery(normalized: string): string | null {
  const list = words(normalized);
  if (list.length === 0) return null;
  return list.map((w) => `${phrase(w)}*`).join(" ");
}

/** The query's only word, or null when it has several (stored totals exist for one word). */
export function singleWord(normalized: string): string | null {
  const list = words(normalized);
  return list.length === 1 ? (list[0] ?? null) : null;
}

/** The parts of a city name search on cities_fts (migration 0002). */
export interface CityNameQueries {
  /** Some name of the city equals the query: the `starts` token `"new_york"`. */
  exact: string;
  /** Some name starts with the query: the `starts` prefix `"new_york"*`. */
  starts: string;
  /** Every query word starts a word of one of the names. */
  words: string;
}

export function cityNameQueries(normalized: string): CityNameQueries | null {
  const list = words(normalized);
  if (list.length === 0) return null;
  const joined = phrase(list.join("_"));
  return {
    exact: `{starts}: ${joined}`,
    starts: `{starts}: ${joined}*`,
    words: `{words}: (${list.map((w) => `${phrase(w)}*`).join(" ")})`,
  };
}
