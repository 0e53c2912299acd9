/**
 * How likely it is that a person who has typed a text means a record (docs/api.md#suggestions), as
 * an SQL score, larger when likelier, in log10 of people:
 *
 * - a city by its population, a venue by its city's and its kind;
 * - how its names hold the text: its main or ASCII name starting with it counts fully — an exact
 *   match no more than a prefix (`tok` is Tokyo before Tok, Alaska); another of its names starting
 *   with it (GeoNames lists "York Berri" for New York City) as 1/100; every word only starting a
 *   word of a name as 1/316 (at 1/100, Casablanca's "Tigemmi Tamellalt" put it before Tame for `tame`);
 * - with a focus, nearness: a record 25 km away counts as 1/1.8 of one at the focus, 250 km as
 *   1/36, 2,500 km as 1/1000 — a nearer Springfield before a larger far one, a metropolis before
 *   a hamlet next door.
 *
 * The weights are measured by `npm run bench -- --suggest` (docs/benchmarks.md#suggestions).
 * SQLite's one-argument log() is log10 (D1 does not allow log10() by that name).
 */
import { haversineSql } from "../data-contract/distance.ts";
import { prefixEnd } from "../data-contract/normalize.ts";
import { num, raw, sql, type Sql } from "../sql/sql.ts";

/** What a candidate's names hold (its column `cls` in candidates.ts). */
export const NAME_STARTS = 0;
export const READ_IN_PLACE = 1;
export const WORDS_START = 2;

/** log10 of how much less a candidate of each class counts. */
const CLASS_WEIGHT = { alternateStarts: 2, readInPlace: 0.5, wordsStart: 2.5 } as const;
/** The weight of nearness: this times log(1 + km / NEAR_KM). */
const NEARNESS = 1.5;
const NEAR_KM = 25;
/** What a venue's kind adds (log10): those people travel to. */
const KIND_BONUS = raw(
  "CASE v.kind WHEN 'arena' THEN 0.3 WHEN 'stadium' THEN 0.3 WHEN 'concert hall' THEN 0.2 WHEN 'amphitheatre' THEN 0.2 WHEN 'theatre' THEN 0.1 WHEN 'club' THEN 0.1 ELSE 0 END",
);

export interface Focus {
  lat: number;
  lng: number;
}

/** The distance to the focus of a point (SQL), or NULL without one. */
export function focusDistance(focus: Focus | undefined, lat: Sql, lng: Sql): Sql {
  return focus === undefined ? raw("NULL") : haversineSql(num(focus.lat, "lat"), num(focus.lng, "lng"), lat, lng);
}

const nearness = (focus: Focus | undefined, distance: Sql): Sql =>
  focus === undefined ? raw("0") : sql`${raw(String(NEARNESS))} * log(1 + ${distance} / ${raw(String(NEAR_KM))})`;

/** A city's score: `c` the city, `cls` its class, `typed` the normalized text. */
export function cityScore(typed: string, focus: Focus | undefined, distance: Sql): Sql {
  const end = prefixEnd(typed);
  const mainStarts = sql`((c.name_norm >= ${typed} AND c.name_norm < ${end}) OR (c.ascii_norm >= ${typed} AND c.ascii_norm < ${end}))`;
  const weight = sql`CASE WHEN cls = ${raw(String(NAME_STARTS))} AND ${mainStarts} THEN 0
    WHEN cls = ${raw(String(NAME_STARTS))} THEN ${raw(String(CLASS_WEIGHT.alternateStarts))}
    WHEN cls = ${raw(String(READ_IN_PLACE))} THEN ${raw(String(CLASS_WEIGHT.readInPlace))}
    ELSE ${raw(String(CLASS_WEIGHT.wordsStart))} END`;
  return sql`log(c.population + 10) - ${weight} - ${nearness(focus, distance)}`;
}

/** A venue's score: `v` the venue, `c` its city (NULL for none), `cls` its class. */
export function venueScore(focus: Focus | undefined, distance: Sql): Sql {
  const weight = sql`CASE cls WHEN ${raw(String(NAME_STARTS))} THEN 0 WHEN ${raw(String(READ_IN_PLACE))} THEN ${raw(String(CLASS_WEIGHT.readInPlace))}
    ELSE ${raw(String(CLASS_WEIGHT.wordsStart))} END`;
  return sql`log(coalesce(c.population, 0) + 10) + ${KIND_BONUS} - ${weight} - ${nearness(focus, distance)}`;
}
