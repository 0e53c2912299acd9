/**
 * The order of every search, as one list of ranking rules (docs/api.md#order), each used when the
 * search has what it ranks by, in this order:
 *
 * 1. edits: a search forgiving typos puts the readings with fewer edits first;
 * 2. distance: a search near a point puts nearer records first;
 * 3. name tier: the name is the query (EXACT), starts with it (STARTS), or has every query word
 *    start one of its words (WORDS);
 * 4. position: `pos`, the place of the record in the default order that the import stores
 *    (cities by population, then geonameid; venues by their city's population, name, id).
 *
 * A name search's statements carry edits and tier as one key (tierKey), so that a union of tiers
 * keeps each record's best. The import counts each prefix's records per name tier and anchors
 * deep pages in each (tables name_tiers, name_anchors): the tier numbers are these.
 */
import { int, join, raw, type Sql } from "../sql/sql.ts";

export const EXACT = 0;
export const STARTS = 1;
export const WORDS = 2;
const NAME_TIERS = 3;
export type NameTier = typeof EXACT | typeof STARTS | typeof WORDS;

/** Edits and name tier as one number: ordering by it orders by edits, then tier. */
export const tierKey = (edits: number, tier: NameTier): number => edits * NAME_TIERS + tier;
export const tierOfKey = (key: number): number => key % NAME_TIERS;

/** The columns (SQL expressions) of a statement that the rules read; absent ones are skipped. */
export interface RankColumns {
  /** A tierKey. */
  key?: Sql;
  distance?: Sql;
  pos: Sql;
}

/** The ORDER BY terms of the ranking rules, for the columns a statement has. */
export function rankOrder(c: RankColumns): Sql {
  const n = int(NAME_TIERS);
  const terms: Sql[] = [];
  if (c.key !== undefined && c.distance !== undefined) {
    terms.push(join([c.key, raw(" / "), n], ""), c.distance, join([c.key, raw(" % "), n], ""));
  } else {
    if (c.distance !== undefined) terms.push(c.distance);
    if (c.key !== undefined) terms.push(c.key);
  }
  terms.push(c.pos);
  return join(terms, ", ");
}
