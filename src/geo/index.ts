/**
 * Searches near a point (docs/api.md#near-a-point): which of the two place indexes a search reads,
 * decided here and nowhere else, and the distance every such search measures.
 *
 * - "curve": the cities along the Z-order curve with running totals (src/geo/curve.ts). A circle
 *   alone is counted from the totals of its inside cells, and only its edge cells' cities are
 *   measured; a page is looked for in the smallest circle that holds it.
 * - "cells": the grid cell tokens in the search documents (src/format/tokens.ts). With a name or
 *   filters, FTS5 intersects a few cells that cover the circle with them, and each match is
 *   measured.
 */
import type { SearchParams } from "../params/search.ts";
import { hasFilters } from "../params/search.ts";
import { raw, type Sql } from "../sql/sql.ts";
import { distanceSql, type Circle } from "./distance.ts";

export type NearIndex = "curve" | "cells";

/** The index a search near a point reads. */
export function nearIndex(p: SearchParams): NearIndex {
  return p.name === undefined && !hasFilters(p) ? "curve" : "cells";
}

/** Kilometres from the circle's centre to the city of alias `c`. */
export function cityDistance(near: Circle): Sql {
  return distanceSql(near, raw("c.lat"), raw("c.lng"));
}
