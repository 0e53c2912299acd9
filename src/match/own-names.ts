/**
 * A record's own names (docs/api.md#order): the name shown in the answer's language, GeoNames' name
 * and ASCII name, a venue's shown names. A name search ranks the records one of whose own names
 * matches before those that only another name (an alternate, historic or foreign name, an alias)
 * matches, unless such a record is FAR_LARGER times as large (src/data-contract/ranking.ts). Here:
 * the FTS5 text of a match by an own name, and the pos up to which a record counts as far larger.
 *
 * A city's document holds its own names as tokens of their own (its main names, its shown name's
 * words and its names in each served language, each marked: src/data-contract/tokens.ts); a
 * venue's only when it has other names (marked OTHER_NAMES), since a venue without them has one
 * name, its own.
 */
import type { Language } from "../data-contract/languages.ts";
import { classless, classOfKey, FAR_LARGER, OTHER, OWN, ownKey, promotedKey } from "../data-contract/ranking.ts";
import { VENUE_SLOTS } from "../data-contract/blocks.ts";
import {
  ANY_NAME,
  ASCII_WORDS,
  localizedNameToken,
  mainNameToken,
  nameToken,
  OTHER_NAMES,
  ownWords,
} from "../data-contract/tokens.ts";
import { int, raw, sql, type Sql } from "../sql/sql.ts";
import { anyOf, butNot, everyWordText, phrase, prefixOf } from "./fts.ts";
import type { Fts } from "./one-name.ts";

/** FTS5 text of the three name tiers (src/data-contract/ranking.ts) of a text in some of a record's names. */
export interface NamesText {
  /** A name is the normalized text. */
  exact(normalized: string): string;
  /** A name starts with it. */
  starts(normalized: string): string;
  /** Each word (its alternatives: a typo's corrections) starts a word of its own of one name. */
  words(groups: readonly (readonly string[])[]): string;
}

/** Every name of a record. */
export const ANY_NAMES: NamesText = {
  exact: (n) => phrase(nameToken(n)),
  starts: (n) => prefixOf(nameToken(n)),
  words: (groups) => everyWordText(groups, ANY_NAME),
};

/** One text, or several OR-ed. */
const either = (texts: readonly string[]): string => (texts.length === 1 ? (texts[0] ?? "") : anyOf(texts));

/**
 * The own names' tokens of a record that has them: its main names', its shown name's words (and a
 * city's ASCII name's), and its names' in the answer's language.
 */
function ownTokens(language: Language, ascii: boolean): NamesText {
  const tokens = (n: string) =>
    language === "en" ? [mainNameToken(n)] : [mainNameToken(n), localizedNameToken(language, n)];
  const scopes = [ownWords("en"), ...(ascii ? [ASCII_WORDS] : []), ...(language === "en" ? [] : [ownWords(language)])];
  return {
    exact: (n) => either(tokens(n).map(phrase)),
    starts: (n) => either(tokens(n).map(prefixOf)),
    words: (groups) => either(scopes.map((scope) => everyWordText(groups, scope))),
  };
}

/** A venue's own names: their tokens when it has other names, else any of its (one) names. */
function venueOwn(language: Language): NamesText {
  const own = ownTokens(language, false);
  const alone = (text: string) => butNot(text, phrase(OTHER_NAMES));
  return {
    exact: (n) => anyOf([own.exact(n), alone(ANY_NAMES.exact(n))]),
    starts: (n) => anyOf([own.starts(n), alone(ANY_NAMES.starts(n))]),
    words: (groups) => anyOf([own.words(groups), alone(ANY_NAMES.words(groups))]),
  };
}

/**
 * FTS5 text of a tier of any name (class OTHER) narrowed to the records it may hold apart from the
 * own tiers: a venue without other names is found by its own tier of the same name tier and edits
 * (venueOwn: its one name alone), whose key comes first, so only the venues with other names are
 * read; a city's text as it is.
 */
export const othersApart = (fts: Fts, text: string): string =>
  fts === "venues_fts" ? `(${text}) AND ${phrase(OTHER_NAMES)}` : text;

/**
 * The matches of FTS5 text `match` (an SQL expression) as candidates (columns pos and plain, in pos
 * order) where `plain` = 1 says the record's document matching suffices for one of its names to
 * hold the words: a venue without other names has no names apart (src/match/one-name.ts), so the
 * check is asked only of those with (two streams of the index, merged); a city's is always asked.
 */
export function matchesMarked(fts: Fts, match: Sql): Sql {
  const marked = (how: string, plain: number) =>
    sql`SELECT rowid AS pos, ${raw(String(plain))} AS plain FROM ${raw(fts)} WHERE ${raw(fts)} MATCH '(' || ${match} || ${`) ${how} ${phrase(OTHER_NAMES)}`}`;
  if (fts !== "venues_fts")
    return sql`SELECT rowid AS pos, 0 AS plain FROM ${raw(fts)} WHERE ${raw(fts)} MATCH ${match} ORDER BY rowid`;
  return sql`SELECT pos, plain FROM (${marked("NOT", 1)} UNION ALL ${marked("AND", 0)} ORDER BY pos)`;
}

/** The own names of the records of `fts` in the answer's language. */
export const ownNames = (fts: Fts, language: Language): NamesText =>
  fts === "cities_fts" ? ownTokens(language, true) : venueOwn(language);

/** The smallest population a record must have to count as far larger than one of `population` (an SQL expression). */
const farLarger = (population: Sql): Sql => sql`${raw(String(FAR_LARGER))} * max(1, coalesce(${population}, 0))`;

/** The pos of the last city whose population is at least `least` (an SQL expression), NULL when none. */
const lastCityOfAtLeast = (least: Sql): Sql =>
  sql`(SELECT max(pos) FROM cities WHERE population = (SELECT min(population) FROM cities WHERE population >= ${least}))`;

/**
 * An SQL expression: the largest pos of the records of `fts` that are far larger than the record at
 * `ownPos` (the first, so the largest, found by an own name): cities by their population, venues by
 * their city's (pos orders both so). NULL when `ownPos` is NULL (no record found by an own name).
 * A population unknown (0) counts as 1. Three index seeks (cities_by_population).
 */
export function farLargerBound(fts: Fts, ownPos: Sql): Sql {
  if (fts === "cities_fts") {
    const own = sql`(SELECT population FROM cities WHERE pos = ${ownPos})`;
    return sql`CASE WHEN ${ownPos} IS NULL THEN NULL ELSE ${lastCityOfAtLeast(farLarger(own))} END`;
  }
  const slots = int(VENUE_SLOTS);
  const own = sql`(SELECT population FROM cities WHERE pos = ${ownPos} / ${slots})`;
  return sql`CASE WHEN ${ownPos} IS NULL THEN NULL ELSE (${lastCityOfAtLeast(farLarger(own))} + 1) * ${slots} - 1 END`;
}

/**
 * A common table expression `bound(b)`: the last pos of the records far larger than the first
 * found by an own name, which `firstOwn` (a SELECT of one row, column own: that record's pos, NULL
 * when none) gives. It must be the first of the whole search (its records in an area included).
 */
export const boundCte = (fts: Fts, firstOwn: Sql): Sql =>
  sql`bound(b) AS MATERIALIZED (SELECT ${farLargerBound(fts, raw("own"))} FROM (${firstOwn}))`;

/** An SQL key: `key` of the record at `pos`, promoted when it is far larger (CTE `bound`). */
export const promotedOf = (key: Sql, pos: Sql): Sql => promotedKey(key, pos, raw("(SELECT b FROM bound)"));

/**
 * Common table expressions over `best`, a SELECT of each record's best key (columns pos, k: a
 * tierKey): `best` itself, `bound` (boundCte) and `ranked` (pos, k, the far larger records found
 * only by another name with their key as if found by their own). `best` must hold the first record
 * found by an own name of the whole search (every own tier read from its start, in pos order).
 */
export function rankedCtes(fts: Fts, best: Sql): Sql {
  const k = raw("k");
  return sql`best AS MATERIALIZED (${best}),
    ${boundCte(fts, sql`SELECT min(pos) AS own FROM best WHERE ${ownKey(k)}`)},
    ranked AS (SELECT pos, ${promotedOf(k, raw("pos"))} AS k FROM best)`;
}

/**
 * The rows (pos, k, size; and any other column of `best`) of table `best` (each record's best key): with the population by which
 * a record is judged far larger (farLargerBound), its own for a city, its city's for a venue
 * (NULL without one), so that records of several databases are ranked as one statement ranks them
 * (rankedOnce).
 */
export function sizedBest(fts: Fts, best: Sql): Sql {
  const city = fts === "cities_fts" ? raw("b.pos") : sql`b.pos / ${int(VENUE_SLOTS)}`;
  return sql`SELECT b.*, c.population AS size FROM ${best} b LEFT JOIN cities c ON c.pos = ${city}`;
}

/** A row of sizedBest(). */
export interface SizedBest {
  pos: number;
  k: number;
  size: number | null;
}

/**
 * Rows of sizedBest() from several databases (a record in one, or in several alike) in the order
 * of rankedCtes() and rankOrder(): each record's best key, promoted where it is found only by
 * another name and far larger than the first record found by an own name. A record's pos is at
 * most farLargerBound() exactly when its population is at least FAR_LARGER times that record's
 * (pos orders by population: the last city of at least that many people bounds them), so the
 * sizes decide it without the cities of every database.
 */
export function rankedOnce<T extends SizedBest>(rows: readonly T[]): T[] {
  const best = new Map<number, T>();
  for (const row of rows) {
    const held = best.get(row.pos);
    if (held === undefined || row.k < held.k) best.set(row.pos, row);
  }
  const records = [...best.values()];
  const own = records
    .filter((r) => classOfKey(r.k) === OWN)
    .reduce<T | null>((a, r) => (a === null || r.pos < a.pos ? r : a), null);
  const least = own === null ? null : FAR_LARGER * Math.max(1, own.size ?? 0);
  const promoted = (r: T) =>
    least !== null && classOfKey(r.k) === OTHER && r.size !== null && r.size >= least ? classless(r.k) : r.k;
  return records.map((r) => ({ ...r, k: promoted(r) })).sort((a, b) => a.k - b.k || a.pos - b.pos);
}
