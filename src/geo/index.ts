/**
 * Searches in an area (docs/api.md#near-a-point, #inside-a-box): which way a search reads its
 * records, decided here and nowhere else.
 *
 * - Counted (src/geo/pages.ts, near-pages.ts, cells.ts): every record, one kind of venue, or a one-word name read
 *   strictly, without other filters. The stored cell counts give the total from the cells along
 *   the area's edges, and the page reads about its own records.
 * - Scanned (src/geo/scanned.ts): anything else — several words, typos, region or city filters —
 *   reads every match in the cells that cover the area.
 */
import { isCircle, type Area } from "../data-contract/distance.ts";
import { kindTerm } from "../data-contract/grid.ts";
import { kindToken } from "../data-contract/tokens.ts";
import { hasFilters, type SearchParams } from "../params/search-params.ts";
import type { Sql } from "../sql/sql.ts";
import type { Term } from "./cells.ts";
import type { Places } from "./places.ts";
import { boxPositions, type MergeHint } from "./pages.ts";
import { nearPositions } from "./near-pages.ts";

export { type MergeHint } from "./pages.ts";
export { ringsInside } from "./near-pages.ts";
import type { BoxTier } from "./box-page.ts";
import { areaMatchRows, placedPositions, scannedPositions } from "./scanned.ts";

export interface AreaQuery {
  places: Places;
  /** cell_counts.kind of the resource. */
  kind: Term["kind"];
  area: Area;
  /** A name's tiers (tierKey, FTS5 text and what a candidate's names must hold); none without a name. */
  tiers: readonly BoxTier[];
  /** The filters as an SQL expression of FTS5 text (src/match/filters.ts), null without any. */
  filters: Sql | null;
  /** What a candidate of any tier must hold (src/match/one-name.ts), null when a match is enough. */
  held: Sql | null;
  /** FTS5 text every match of the name has; null without a name. */
  everything: string | null;
  /** The name's one word, when it is read strictly. */
  word?: string;
  params: SearchParams;
  offset: number;
  size: number;
  /** How a merge over venue databases asks for its page (pages.ts). */
  merge?: MergeHint;
}

const quoted = (token: string) => `"${token}"`;

/** The counted term of a search, or null when it must be scanned. */
function termOf(q: AreaQuery): Term | null {
  const p = q.params;
  if (hasFilters(p)) return null;
  if (q.tiers.length === 0) {
    // Every record: counted by the ranks of the cells (src/geo/ranks.ts), no term.
    if (p.kind === undefined) return { kind: q.kind, term: "", text: null };
    return { kind: q.kind, term: kindTerm(p.kind), text: quoted(kindToken(p.kind)) };
  }
  if (q.word === undefined || p.kind !== undefined) return null;
  return { kind: q.kind, term: q.word, text: `${quoted(q.word)}*` };
}

/** The positions of a page of a search in an area, each row with the total (pages.ts withTotal). */
export function areaPositions(q: AreaQuery): Sql {
  const term = termOf(q);
  const tiers = q.tiers.length > 0 ? q.tiers : [{ key: 0, text: term?.text ?? null }];
  if (term === null) return scannedPositions(q.places, q.area, { ...q, tiers }, q.offset, q.size);
  if (isCircle(q.area)) return nearPositions(term, q.places, q.area, tiers, q.offset, q.size, q.merge);
  return boxPositions(term, q.places, q.area, tiers, q.offset, q.size, q.merge);
}

/**
 * A search's reads in an area for a merge over venue databases (a name's, or every record's as one
 * tier), whichever way one database reads it: its candidates counted, every record in the area
 * with its best tier (scanned.ts areaMatchRows), and the positions of records by their pos.
 */
export const areaMatches = (q: AreaQuery) => ({
  area: q.area,
  ...areaMatchRows(q.places, q.area, q),
  placed: (pos: readonly number[]) => placedPositions(q.places, q.area, pos),
});
