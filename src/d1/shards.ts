/**
 * Which venue databases a venue search asks (docs/deploy.md#past-one-database): those with a
 * region that holds a place its filters name (src/query/shard-places.ts: a country, a state, a
 * city's point) and, in an area, whose venues' bounds meet it; every one without filters or area.
 * The rule of which region holds a place is the import's own (src/data-contract/shards.ts).
 * Pure: route.ts is what the request path calls.
 */
import type { Area } from "../data-contract/distance.ts";
import {
  boxesOf,
  boxLongitudes,
  regionHolds,
  shardCell,
  type ShardBox,
  type ShardManifest,
  type ShardRegion,
} from "../data-contract/shards.ts";
import { spanOf, type Span } from "../geo/area.ts";

/** A place a search's filters name: a country, a state of it, or a city at its point. */
export interface FilterPlace {
  country: string;
  state: string | null;
  point: { lat: number; lng: number } | null;
}

/** A place from a row of shardPlacesSql(). */
export const filterPlace = (row: Record<string, unknown>): FilterPlace => ({
  country: String(row.country),
  state: row.state === null || row.state === undefined ? null : String(row.state),
  point: typeof row.lat === "number" && typeof row.lng === "number" ? { lat: row.lat, lng: row.lng } : null,
});

function holdsSome(r: ShardRegion, place: FilterPlace): boolean {
  if (place.point !== null) {
    const cell = shardCell(place.point.lat, place.point.lng);
    return regionHolds(r, { country: place.country, state: place.state ?? "", cell });
  }
  return r.country === place.country && (place.state === null || r.state === undefined || r.state === place.state);
}

/** Whether a box meets an area's span (its latitudes first: most of a plan's boxes lie north or south of it). */
function meets(box: ShardBox, span: Span): boolean {
  const [south, , north] = box;
  if (span.south > north || span.north < south) return false;
  const longitudes = boxLongitudes(box);
  return span.lngRanges.some(([w, e]) => longitudes.some(([west, east]) => w <= east && e >= west));
}

/** The venue databases (their numbers, from 1) a search asks; `places` null when its filters name none. */
export function shardsFor(manifest: ShardManifest, places: readonly FilterPlace[] | null, area?: Area): number[] {
  // The area's span once: a plan holds a box per cell of each region, hundreds or thousands.
  const span = area === undefined ? undefined : spanOf(area);
  return manifest
    .filter((s) =>
      s.regions.some(
        (r) =>
          (places === null || places.some((p) => holdsSome(r, p))) &&
          (span === undefined || boxesOf(r).some((box) => meets(box, span))),
      ),
    )
    .map((s) => s.shard);
}
