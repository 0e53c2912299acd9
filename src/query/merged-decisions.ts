/**
 * What the typo fallback and the place readings decide by, read over venue databases
 * (docs/deploy.md#past-one-database): the rows of a first trip's corrections (CORRECTIONS) and
 * place readings (PLACES) from their parts, as one database's statements give them — each venue
 * database's part of what counts its venues, the main database's of what is chosen among every
 * word or place (src/d1/main-only.ts says why they are apart).
 */
import type { SearchParams } from "../params/search-params.ts";
import type { Sql } from "../sql/sql.ts";
import { CORRECTIONS, correctionsOver } from "./corrections.ts";
import { placeRows } from "./merged-places.ts";
import { rowsOf, type Row } from "./merged-rows.ts";
import { PLACES, type PlacesAsked } from "./places.ts";
import type { Runner } from "./resource.ts";
import { correctionsOf } from "./trips.ts";
import { VENUES } from "./venues.ts";

/** What the decisions' parts read in the first round trip. */
export interface DecisionParts {
  /** Each venue database's index part of the corrections; null where the trip holds none. */
  index: Row[][] | null;
  /** The condition under which the strict answer stands (the search's). */
  stands: Sql | undefined;
  /** Each venue database's strict tier of the place readings. */
  strict: Row[][];
  /** The main database's candidate places. */
  candidates: Row[];
  /** What the place readings ask; undefined where the trip holds none. */
  places: PlacesAsked | undefined;
}

/**
 * The rows of the decisions by their names (null where the trip holds none): the corrections' row
 * (none where the strict answer stands) and the place readings, from their parts.
 */
export async function decisions(
  main: Runner,
  shards: readonly Runner[],
  p: SearchParams,
  read: DecisionParts,
): Promise<[string, Row[] | null][]> {
  const [places, corrections] = await Promise.all([
    read.places === undefined ? null : placeRows(shards, read.places, read.strict, read.candidates),
    read.index === null ? null : correctionsRow(main, p, read.stands, read.index),
  ]);
  const fixes = corrections === null ? null : corrections === undefined ? [] : [corrections];
  return [
    [CORRECTIONS, fixes],
    [PLACES, places],
  ];
}

/**
 * The corrections' row from each venue database's index part (`index`): none where the strict
 * answer stands in one of them; else with the main database's vocabulary, read then.
 */
async function correctionsRow(main: Runner, p: SearchParams, stands: Sql | undefined, index: Row[][]) {
  if (index.some((rows) => rows[0] === undefined)) return undefined;
  const vocabulary = correctionsOf(VENUES, p, stands, "vocabulary");
  const [rows] = vocabulary === null ? [] : await rowsOf(main, "venues search: the vocabulary", [vocabulary]);
  return correctionsOver(index, rows?.[0]);
}
