/**
 * The Overpass QL query of the venues of one area (docs/import.md#fetching-real-venues): the
 * elements carrying one of the tags the import keeps as venues (the one list,
 * sources/venue-selection.ts), ways and relations at their centre, with every tag. Pure.
 */
import type { VenueSelection } from "../../import/sources/venue-selection.ts";

/** South, west, north, east in degrees, Overpass's order; west > east crosses the antimeridian. */
export interface Box {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** Where a query looks: a country or a region as the Overpass area of its ISO 3166 code, or a box. */
export type QueryArea = { iso3166: "1" | "2"; code: string } | { box: Box };

export interface QuerySettings {
  /** Seconds the server may run the query ([timeout:…]). */
  timeout: number;
  /** Bytes of memory the server may use for it ([maxsize:…]). */
  maxsize: number;
}

const degrees = (x: number) => String(Number(x.toFixed(6)));
export const boxText = (b: Box): string => [b.south, b.west, b.north, b.east].map(degrees).join(",");

/** The tag filters of the selection, one per key: `["amenity"~"^(theatre|nightclub)$"]` or `["leisure"="stadium"]`. */
export function tagFilters(selection: VenueSelection): string[] {
  const byKey = new Map<string, string[]>();
  for (const tag of selection.osm.keys()) {
    const [key = "", value = ""] = tag.split("=");
    byKey.set(key, [...(byKey.get(key) ?? []), value]);
  }
  return [...byKey].map(([key, values]) =>
    values.length === 1 ? `["${key}"="${values[0]}"]` : `["${key}"~"^(${values.join("|")})$"]`,
  );
}

/**
 * The query: the venues of `area`, or of the part of it inside `tile` (an area too large for the
 * server is fetched tile by tile).
 */
export function overpassQuery(area: QueryArea, selection: VenueSelection, settings: QuerySettings, tile?: Box): string {
  const lines = [`[out:json][timeout:${settings.timeout}][maxsize:${settings.maxsize}];`];
  const spatial: string[] = [];
  if ("iso3166" in area) {
    const level = area.iso3166 === "1" ? "[admin_level=2]" : "";
    lines.push(`area["ISO3166-${area.iso3166}"="${area.code}"]${level}->.where;`);
    spatial.push("(area.where)");
  } else spatial.push(`(${boxText(area.box)})`);
  if (tile !== undefined) spatial.push(`(${boxText(tile)})`);
  lines.push("(");
  for (const filter of tagFilters(selection)) lines.push(`  nwr${filter}${spatial.join("")};`);
  lines.push(");", "out center tags;");
  return lines.join("\n");
}
