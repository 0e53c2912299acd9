/**
 * How likely it is that a person who has typed a text means a record (docs/api.md#suggestions), as
 * an SQL score, larger when likelier, in log10 of people:
 *
 * - a city by its population, a venue by its city's and its kind;
 * - how its names hold the text (its class): a city's own name (or ASCII name, or its name in the
 *   request's language) typed whole counts EXACT_BONUS more — `harar` is Harar (153,000) before
 *   Harare (1.5M), but `tok` still Tokyo (30,000 × Tok, Alaska); its own name starting with it
 *   counts fully (for a venue, any of its names); the end of the text read as a place, as 1/3; every
 *   word starting a word of a city's shown name (or its name in the request's language), each its
 *   own, as OWN_WORDS_PENALTY; another of a city's names starting with it (GeoNames lists "York
 *   Berri" for New York City) as 1/100; every word only starting a word of another name as 1/316
 *   (at 1/100, Casablanca's "Tigemmi Tamellalt" put it before Tame for `tame`);
 * - with a focus, nearness by bands of distance: a record in the band 25–100 km away counts as
 *   1/5 of one at the focus, 400–1,600 km as 1/190 — a nearer Springfield before a larger far one,
 *   a metropolis before a hamlet next door.
 *
 * Within a class, a kind's bonus and a band, the score falls with `pos` (population, then id; a
 * venue's city's): so the first `limit` records by pos of each of those ways hold the first `limit`
 * of the whole order (candidates.ts), whatever the limit.
 *
 * The weights are measured by `npm run bench -- --suggest` (docs/benchmarks.md#suggestions).
 * SQLite's one-argument log() is log10 (D1 does not allow log10() by that name).
 */
import { LARGEST_POPULATION_KEY } from "../data-contract/ranking.ts";
import { haversineSql } from "../data-contract/distance.ts";
import type { VenueKind } from "../data-contract/venue-kinds.ts";
import { join, num, raw, sql, type Sql } from "../sql/sql.ts";

/** How a candidate's names hold the text (its column `cls` in candidates.ts): the lower, the likelier. */
export const MAIN_EXACT = 0;
export const STARTS = 1;
export const READ_IN_PLACE = 2;
export const OWN_WORDS = 3;
export const ALTERNATE_STARTS = 4;
export const WORDS_START = 5;

/** How much more a city's own name typed whole counts than one that starts with the text (log10). */
export const EXACT_BONUS = 1.5;
/**
 * What a city whose shown name holds the words, not at its start, loses (log10): more than a place
 * read (`york` is New York City, 8.8M, after York, 153,000 typed whole), less than another name
 * starting with the text — its own name is what a person sees (measured: docs/benchmarks.md#suggestions).
 */
const OWN_WORDS_PENALTY = 1.5;
/** What a class takes from the score (log10): its index is the class, so a lower class never scores less. */
const CLASS_PENALTY = [-EXACT_BONUS, 0, 0.5, OWN_WORDS_PENALTY, 2, 2.5] as const;

/** The kinds of venue whose bonus (log10) is the same: those people travel to count more. */
export const KIND_LEVELS: readonly { bonus: number; kinds: readonly VenueKind[] }[] = [
  { bonus: 0.3, kinds: ["arena", "stadium"] },
  { bonus: 0.2, kinds: ["concert hall", "amphitheatre"] },
  { bonus: 0.1, kinds: ["theatre", "club"] },
  { bonus: 0, kinds: ["venue", "festival", "other"] },
];

/** The bands of distance from a focus, km: each band's records are read apart (the last has no end). */
export const FOCUS_BANDS_KM = [25, 100, 400, 1600] as const;
/**
 * What a band takes from the score (log10): 1.5 × log(1 + d / 25) at the band's middle (geometric;
 * 12.5 km for the first, 5,000 km for the last).
 */
const BAND_PENALTY = [12.5, 50, 200, 800, 5000].map((km) => 1.5 * Math.log10(1 + km / 25));

export interface Focus {
  lat: number;
  lng: number;
}

/** The distance to the focus of a point (SQL), or NULL without one. */
export function focusDistance(focus: Focus | undefined, lat: Sql, lng: Sql): Sql {
  return focus === undefined ? raw("NULL") : haversineSql(num(focus.lat, "lat"), num(focus.lng, "lng"), lat, lng);
}

const literal = (x: number) => raw(String(Math.round(x * 1e6) / 1e6));

/** What a class takes from the score. */
export const classPenalty = (cls: number): number => CLASS_PENALTY[cls] ?? 0;

/** What a band of distance takes from the score (its index in FOCUS_BANDS_KM, the last past them). */
export const bandPenalty = (band: number): number => BAND_PENALTY[band] ?? 0;

/** The penalty of a candidate's class (an SQL expression of its column `cls`): text written once. */
const CLASS_PENALTY_SQL = raw(
  `CASE cls ${CLASS_PENALTY.map((p, i) => `WHEN ${String(i)} THEN ${literal(p).text}`).join(" ")} END`,
);

/** The penalty of a record's distance from the focus, by its band; 0 without a focus. */
function bandPenaltySql(focus: Focus | undefined, distance: Sql): Sql {
  if (focus === undefined) return raw("0");
  const whens = FOCUS_BANDS_KM.map(
    (km, i) => sql`WHEN ${distance} <= ${raw(String(km))} THEN ${literal(BAND_PENALTY[i] ?? 0)}`,
  );
  return sql`CASE ${join(whens, " ")} ELSE ${literal(BAND_PENALTY.at(-1) ?? 0)} END`;
}

/** What a venue's kind adds (an SQL expression of its column `v.kind`): text written once. */
const KIND_BONUS_SQL = raw(
  `CASE ${KIND_LEVELS.filter((l) => l.bonus > 0)
    .map((l) => `WHEN v.kind IN (${l.kinds.map((k) => `'${k}'`).join(", ")}) THEN ${l.bonus}`)
    .join(" ")} ELSE 0 END`,
);

/** A city's score without a focus: `c` the city, `cls` its class (the statement's text, written once). */
const PLAIN_CITY_SCORE = raw(`log(c.population + 10) - ${CLASS_PENALTY_SQL.text} - 0`);

/** A city's score: `c` the city, `cls` its class. */
function cityScore(focus: Focus | undefined, distance: Sql): Sql {
  if (focus === undefined) return PLAIN_CITY_SCORE;
  return sql`log(c.population + 10) - ${CLASS_PENALTY_SQL} - ${bandPenaltySql(focus, distance)}`;
}

/** A venue's score: `v` the venue, `c` its city (NULL for none), `cls` its class. */
export function venueScore(focus: Focus | undefined, distance: Sql): Sql {
  return sql`log(coalesce(c.population, 0) + 10) + ${KIND_BONUS_SQL} - ${CLASS_PENALTY_SQL} - ${bandPenaltySql(focus, distance)}`;
}

/** The cities' score of a class without a focus (`c` the city, `cls` its class): the order the city read from a text follows. */
export const plainCityScore = (): Sql => PLAIN_CITY_SCORE;

/**
 * The candidates (rows pos, cls) scored: columns pos, cls, score and dist (the distance from the
 * focus, NULL without one).
 */
export function scoredSql(resource: "venues" | "cities", focus: Focus | undefined, candidates: Sql): Sql {
  const venues = resource === "venues";
  const [lat, lng] = venues ? [raw("v.lat"), raw("v.lng")] : [raw("c.lat"), raw("c.lng")];
  const distance = focusDistance(focus, lat, lng);
  const score = venues ? venueScore(focus, distance) : cityScore(focus, distance);
  const from = venues
    ? raw("JOIN venues v ON v.pos = k.pos LEFT JOIN cities c ON c.pos = v.city_pos")
    : raw("JOIN cities c ON c.pos = k.pos");
  return sql`SELECT k.pos AS pos, k.cls AS cls, ${score} AS score, ${distance} AS dist FROM (${candidates}) k ${from}`;
}

/** The population of the largest city, which every record's (or its city's) is at most. */
export const LARGEST_POPULATION = raw(
  `coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = '${LARGEST_POPULATION_KEY}'), (SELECT population FROM cities WHERE pos = 1))`,
);
