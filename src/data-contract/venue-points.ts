/**
 * Where a venue is (docs/api.md#venues-at-their-own-place, migrations/0017): at its own point when
 * its source gives one, else at its city's. The import writes that point into venues.lat and
 * venues.lng either way, and city_point = 1 where it is the city's, so that a search in an area
 * reads the venue's row (or the venues_by_cell index) alone; an answer shows a venue's own
 * coordinates only. Pure: the import (scripts/import/phases/order.ts) and the worker
 * (src/query/records.ts) read it here.
 */

/** SQL for the import: a venue's point (`lat` or `lng`) from its own (`own`, alias) and its city's (`city`, alias). */
export const placedPointSql = (own: string, city: string, column: "lat" | "lng"): string =>
  `CASE WHEN ${own}.lat IS NULL OR ${own}.lng IS NULL THEN ${city}.${column} ELSE ${own}.${column} END`;

/** SQL for the import: city_point, 1 where the point written is the city's. */
export const cityPointSql = (own: string, city: string): string =>
  `CASE WHEN (${own}.lat IS NULL OR ${own}.lng IS NULL) AND ${city}.lat IS NOT NULL THEN 1 END`;

/** SQL: a served venue's own `lat` or `lng` (alias `v`), NULL where its point is its city's. */
export const ownPointSql = (v: string, column: "lat" | "lng"): string =>
  `CASE WHEN ${v}.city_point IS NULL THEN ${v}.${column} END`;
