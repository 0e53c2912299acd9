/**
 * OpenStreetMap (ODbL) elements as venues: Overpass API JSON (`elements`: nodes with `lat`/`lon`,
 * ways and relations with `center`, or with `geometry` from `out geom`) and GeoJSON features as
 * Overpass turbo, osmtogeojson and `osmium export` write them (the OSM id in `id` or
 * `properties["@id"]`; tags at the top of `properties` or under `properties.tags`; a polygon placed
 * at its centroid).
 */
import { RowError } from "../problems.ts";
import { hintOf, positionOf, venueName, type Skipped, type VenueInput } from "./venue-input.ts";
import { splitNames, venueNames, type SourceNames } from "./venue-names.ts";
import type { VenueSelection } from "./venue-selection.ts";

type Json = Record<string, unknown>;
const record = (value: unknown): Json =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};

const TYPES: Record<string, string> = {
  node: "node",
  way: "way",
  relation: "relation",
  n: "node",
  w: "way",
  r: "relation",
};

/** `node/123`, `way/456`, `relation/7`, or osmium's `n123`, `w456`, `r7`: the type and number. */
function osmId(value: unknown): { type: string; number: string } | null {
  const m = typeof value === "string" ? /^(node|way|relation)\/(\d{1,15})$|^([nwr])(\d{1,15})$/.exec(value) : null;
  if (m === null) return null;
  return { type: TYPES[m[1] ?? m[3] ?? ""] ?? "", number: m[2] ?? m[4] ?? "" };
}

/** The first selected tag of the element, with its kind; or why it is not a venue. */
function selected(tags: Json, selection: VenueSelection): { kind: VenueInput["kind"] } | Skipped {
  for (const [tag, kind] of selection.osm) {
    const [key = "", value] = tag.split("=");
    if (tags[key] === value) return { kind };
  }
  // A venue that closed keeps its tag under a lifecycle prefix.
  for (const tag of selection.osm.keys()) {
    const [key = "", value] = tag.split("=");
    if (tags[`disused:${key}`] === value || tags[`was:${key}`] === value) return { skipped: "closed" };
  }
  return { skipped: "not a venue tag" };
}

/** Name tags whose values are other names of the element, each maybe several (`;`), maybe in a language (`old_name:en`). */
const OTHER_NAME_TAG = /^(alt|old|short|loc|official|nat|reg|int)_name(:.+)?$/;
/** `name:<lang>`, maybe with a script or a romanization (`name:ja-Latn`, `name:ja_rm`, `name:zh-Hans`). */
const LANGUAGE_NAME_TAG = /^name:([a-z]{2,3})(?:[-_]([A-Za-z]+))?$/;

/** Every name tag of an element (docs/api.md#every-name-a-venue-has). */
function osmNames(tags: Json, name: string): SourceNames {
  const byLanguage = new Map<string, string>();
  const romanized: string[] = [];
  const others: string[] = [];
  for (const [key, value] of Object.entries(tags)) {
    const language = LANGUAGE_NAME_TAG.exec(key);
    if (language !== null) {
      const [first] = splitNames(value);
      if (first === undefined) continue;
      const script = language[2]?.toLowerCase();
      if (script === undefined) byLanguage.set(language[1] ?? "", first);
      else (script === "latn" || script === "rm" ? romanized : others).push(first);
      continue;
    }
    if (OTHER_NAME_TAG.test(key)) others.push(...splitNames(value));
  }
  const international = [...splitNames(tags.int_name), ...romanized];
  return { name, byLanguage, international, others };
}

function venueOf(
  tags: Json,
  id: { type: string; number: string },
  position: { lat: unknown; lng: unknown },
  selection: VenueSelection,
  where: { file: string; at: number | string },
): VenueInput | Skipped {
  const pick = selected(tags, selection);
  if ("skipped" in pick) return pick;
  if (typeof tags.name !== "string" || tags.name.trim() === "") return { skipped: "no name" };
  const venue = `osm-${id.type}-${id.number}`;
  const hints = ["addr:city", "addr:town", "addr:village", "is_in:city"].map((k) => hintOf(tags[k], k, venue));
  const country = typeof tags["addr:country"] === "string" ? tags["addr:country"].trim().toUpperCase() : "";
  return {
    id: venue,
    ...venueNames(osmNames(tags, venueName(tags.name, venue))),
    cityId: null,
    url: `https://www.openstreetmap.org/${id.type}/${id.number}`,
    ...positionOf(position.lat, position.lng, venue),
    kind: pick.kind,
    cityHints: hints.filter((h): h is string => h !== null),
    countryHint: /^[A-Z]{2}$/.test(country) ? country : null,
    source: "openstreetmap",
    ...where,
  };
}

/** One element of an Overpass answer. */
export function overpassToVenue(o: Json, selection: VenueSelection, file: string, at: string): VenueInput | Skipped {
  const id = typeof o.type === "string" && /^\d{1,15}$/.test(String(o.id)) ? osmId(`${o.type}/${String(o.id)}`) : null;
  if (id === null) throw new RowError("not an OSM element: needs type node, way or relation and a numeric id");
  const geometry = Array.isArray(o.geometry) ? (o.geometry as unknown[]).map(record) : [];
  const center = record(o.center);
  const position =
    "lat" in o
      ? { lat: o.lat, lng: o.lon }
      : "lat" in center
        ? { lat: center.lat, lng: center.lon }
        : meanPoint(geometry);
  return venueOf(record(o.tags), id, position, selection, { file, at });
}

function meanPoint(points: Json[]): { lat: unknown; lng: unknown } {
  const ok = points.filter((p) => typeof p.lat === "number" && typeof p.lon === "number");
  if (ok.length === 0) return { lat: null, lng: null };
  return {
    lat: ok.reduce((s, p) => s + (p.lat as number), 0) / ok.length,
    lng: ok.reduce((s, p) => s + (p.lon as number), 0) / ok.length,
  };
}

/** One GeoJSON Feature from Overpass turbo, osmtogeojson or osmium export. */
export function featureToVenue(
  o: Json,
  selection: VenueSelection,
  file: string,
  at: number | string,
): VenueInput | Skipped {
  if (o.type !== "Feature") throw new RowError('not a GeoJSON Feature ("type" is not "Feature")');
  const properties = record(o.properties);
  const id = osmId(o.id) ?? osmId(properties["@id"]) ?? osmId(properties.id);
  if (id === null) return { skipped: "no OSM id" };
  const tags = { ...properties, ...record(properties.tags) };
  return venueOf(tags, id, pointOf(record(o.geometry)), selection, { file, at });
}

type Ring = [number, number][];

/** A geometry's point: the point itself, a polygon's centroid, a line's mean. */
function pointOf(geometry: Json): { lat: unknown; lng: unknown } {
  const c = geometry.coordinates;
  const ring = (value: unknown): Ring =>
    Array.isArray(value)
      ? (value as unknown[]).filter(
          (p): p is [number, number] => Array.isArray(p) && typeof p[0] === "number" && typeof p[1] === "number",
        )
      : [];
  switch (geometry.type) {
    case "Point":
      return Array.isArray(c) ? { lat: c[1], lng: c[0] } : { lat: null, lng: null };
    case "Polygon":
      return centroid([ring((c as unknown[] | undefined)?.[0])]);
    case "MultiPolygon":
      return centroid(
        Array.isArray(c) ? (c as unknown[]).map((polygon) => ring((polygon as unknown[] | undefined)?.[0])) : [],
      );
    case "LineString":
      return centroid([], ring(c));
    default:
      return { lat: null, lng: null };
  }
}

/** The area centroid of outer rings (shoelace), or the mean of the points when they enclose no area. */
function centroid(rings: Ring[], line: Ring = []): { lat: unknown; lng: unknown } {
  let area = 0;
  let x = 0;
  let y = 0;
  for (const r of rings) {
    for (let i = 0; i + 1 < r.length; i++) {
      const [x0, y0] = r[i] as [number, number];
      const [x1, y1] = r[i + 1] as [number, number];
      const cross = x0 * y1 - x1 * y0;
      area += cross;
      x += (x0 + x1) * cross;
      y += (y0 + y1) * cross;
    }
  }
  if (Math.abs(area) > 1e-12) return { lat: y / (3 * area), lng: x / (3 * area) };
  const points = [...rings.flat(), ...line];
  if (points.length === 0) return { lat: null, lng: null };
  return {
    lat: points.reduce((s, p) => s + p[1], 0) / points.length,
    lng: points.reduce((s, p) => s + p[0], 0) / points.length,
  };
}
