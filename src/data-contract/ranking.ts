/**
 * The order of every search, as one list of ranking rules (docs/api.md#order), each used when the
 * search has what it ranks by, in this order:
 *
 * 1. name class: a record found by one of its own names (OWN: the name shown in the answer's
 *    language, GeoNames' name or ASCII name, a venue's own name) before a record found only by
 *    another name (OTHER), unless that one is at least FAR_LARGER times as large as the largest
 *    record found by an own name (src/match/own-names.ts): then it counts as OWN;
 * 2. edits: a search forgiving typos puts the readings with fewer edits first;
 * 3. distance: a search near a point puts nearer records first (before the class and the edits' tie);
 * 4. name tier: the name is the query (EXACT), starts with it (STARTS), or has every query word
 *    start one of its words (WORDS), the best of the record's names in its class;
 * 5. position: `pos`, the place of the record in the default order that the import stores
 *    (cities by population, then geonameid; venues by their city's population, name, id).
 *
 * A name search's statements carry class, edits and tier as one key (tierKey), so that a union of
 * tiers keeps each record's best. The import counts each prefix's records per class and name tier
 * and anchors deep pages in each (tables name_tiers, name_anchors): the tier numbers are
 * classTier()'s.
 */
import { int, join, raw, sql, type Sql } from "../sql/sql.ts";

/**
 * The meta key of the largest city's population, which a suggestion's score is relative to
 * (src/suggest/likelihood.ts): a venue database holds its own regions' cities alone
 * (docs/deploy.md#past-one-database).
 */
export const LARGEST_POPULATION_KEY = "largest_population";

export const EXACT = 0;
export const STARTS = 1;
export const WORDS = 2;
const NAME_TIERS = 3;
export type NameTier = typeof EXACT | typeof STARTS | typeof WORDS;
export const NAME_TIER_LIST: readonly NameTier[] = [EXACT, STARTS, WORDS];

export const OWN = 0;
export const OTHER = 1;
export type NameClass = typeof OWN | typeof OTHER;

/** A record found only by another name counts as found by its own at this many times the size. */
export const FAR_LARGER = 31.6;

/**
 * The keys of a class apart: above every edits and tier of a search (edits are at most 2 a word),
 * a multiple of the tiers (so that key % NAME_TIERS is the tier whatever the class).
 */
const CLASS_KEYS = 1000 * NAME_TIERS;

/** Class, edits and name tier as one number: ordering by it orders by class, then edits, then tier. */
export const tierKey = (edits: number, tier: NameTier, nameClass: NameClass = OWN): number =>
  nameClass * CLASS_KEYS + edits * NAME_TIERS + tier;
export const tierOfKey = (key: number): NameTier => (key % NAME_TIERS) as NameTier;
export const classOfKey = (key: number): NameClass => (key >= CLASS_KEYS ? OTHER : OWN);
/** The same key without its class: edits and tier (the place readings compare these). */
export const classless = (key: number): number => key % CLASS_KEYS;

/** The classes and tiers of one word as the stored tiers number them (name_tiers.tier0 … tier5). */
export const classTier = (nameClass: NameClass, tier: NameTier): number => nameClass * NAME_TIERS + tier;
export const CLASS_TIERS = 2 * NAME_TIERS;

/** An SQL condition on a key column: the record was found by one of its own names. */
export const ownKey = (key: Sql): Sql => sql`${key} < ${int(CLASS_KEYS)}`;

/**
 * An SQL key: `key`, or, for a record found only by another name whose pos is at most `bound`
 * (the records far larger than every one found by an own name: src/match/own-names.ts), its key
 * as if found by its own.
 */
export const promotedKey = (key: Sql, pos: Sql, bound: Sql): Sql =>
  sql`CASE WHEN ${key} >= ${int(CLASS_KEYS)} AND ${pos} <= ${bound} THEN ${key} - ${int(CLASS_KEYS)} ELSE ${key} END`;

/** The columns (SQL expressions) of a statement that the rules read; absent ones are skipped. */
export interface RankColumns {
  /** A tierKey. */
  key?: Sql;
  distance?: Sql;
  pos: Sql;
}

/**
 * A page (columns pos, rank, dist) of `rows` (a SELECT with pos and the columns `order` names) in
 * `order`, numbered from `first` + 1 after its LIMIT: a window over every row before the LIMIT
 * reads each row again (D1's rows read), and the order is total (pos last), so the numbers are
 * those of the whole order; `first`, the rows before the page.
 */
export function numberedPage(
  rows: Sql,
  order: Sql,
  page: { first: Sql | number; size: Sql | number },
  dist: Sql = raw("NULL"),
): Sql {
  return sql`SELECT pos, ${page.first} + row_number() OVER (ORDER BY ${order}) AS rank, ${dist} AS dist FROM (
    SELECT * FROM (${rows}) ORDER BY ${order} LIMIT ${page.size} OFFSET ${page.first})`;
}

/** The ORDER BY terms of the ranking rules, for the columns a statement has. */
export function rankOrder(c: RankColumns): Sql {
  const terms: Sql[] = [];
  if (c.key !== undefined && c.distance !== undefined) {
    // Near a point: edits, distance, then class and tier at one distance.
    const k = c.key;
    terms.push(
      join([raw("("), k, raw(" % "), int(CLASS_KEYS), raw(") / "), int(NAME_TIERS)], ""),
      c.distance,
      join([k, raw(" / "), int(CLASS_KEYS)], ""),
      join([k, raw(" % "), int(NAME_TIERS)], ""),
    );
  } else {
    if (c.distance !== undefined) terms.push(c.distance);
    if (c.key !== undefined) terms.push(c.key);
  }
  terms.push(c.pos);
  return join(terms, ", ");
}

/** A record as rankCompare() orders it: its key, its distance near a point (else null), its pos. */
export interface Ranked {
  k: number;
  dist: number | null;
  pos: number;
}

/**
 * rankOrder() of a key, a distance near a point (a box's records have none) and pos, for records
 * ranked outside SQL (src/query/merged-area-names.ts): near a point edits, distance, then class and
 * tier; else the key; then pos.
 */
export function rankCompare(a: Ranked, b: Ranked): number {
  const edits = (k: number) => Math.floor((k % CLASS_KEYS) / NAME_TIERS);
  const near =
    a.dist === null || b.dist === null
      ? 0
      : edits(a.k) - edits(b.k) ||
        a.dist - b.dist ||
        Math.floor(a.k / CLASS_KEYS) - Math.floor(b.k / CLASS_KEYS) ||
        (a.k % NAME_TIERS) - (b.k % NAME_TIERS);
  return near || a.k - b.k || a.pos - b.pos;
}
