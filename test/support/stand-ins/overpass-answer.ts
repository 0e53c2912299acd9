/**
 * What the Overpass stand-in answers a parsed query with: the elements of its "database" that
 * match, and the answer text exactly as Overpass prints JSON (drolbr/Overpass-API
 * output_formats/output_json.cc: two-space layout, elements separated by ",\n", coordinates with
 * 7 decimals, `center` for ways and relations under `out center`, `remark` after the elements).
 */
import type { Box, ElementType, Query, QueryStatement, TagFilter } from "./overpass-ql.ts";

/** An element as an Overpass JSON answer has it (`out center tags`). */
export interface OverpassElement {
  type: ElementType;
  id: number;
  lat?: number;
  lon?: number;
  center?: { lat: number; lon: number };
  tags?: Record<string, string>;
}

/** ISO 3166-1 (`DE`) or ISO 3166-2 (`US-OR`) code → the area's box. */
export type AreaBoxes = Record<string, Box>;

const WORLD = 360 * 180;
const TYPE_ORDER: Record<ElementType, number> = { node: 0, way: 1, relation: 2 };

/** The tags Overpass's area of a country or subdivision boundary carries. */
function areaTags(code: string): Record<string, string> {
  return code.includes("-")
    ? { "ISO3166-2": code, admin_level: "4", boundary: "administrative", type: "boundary", name: code }
    : { "ISO3166-1": code, admin_level: "2", boundary: "administrative", type: "boundary", name: code };
}

function tagsMatch(tags: Record<string, string> | undefined, filters: TagFilter[]): boolean {
  return filters.every((f) => {
    const value = tags?.[f.key];
    if (value === undefined) return false;
    return f.op === "=" ? value === f.value : new RegExp(f.value).test(value);
  });
}

function point(e: OverpassElement): { lat: number; lon: number } | null {
  if (e.lat !== undefined && e.lon !== undefined) return { lat: e.lat, lon: e.lon };
  return e.center ?? null;
}

function inBox(p: { lat: number; lon: number }, [south, west, north, east]: Box): boolean {
  const inLon = west <= east ? p.lon >= west && p.lon <= east : p.lon >= west || p.lon <= east;
  return p.lat >= south && p.lat <= north && inLon;
}

const width = ([, west, , east]: Box) => (west <= east ? east - west : east - west + 360);

/** The area in square degrees of the intersection of boxes (a box crossing 180° counts by its width). */
function intersection(boxes: Box[]): number {
  if (boxes.length === 0) return WORLD;
  const south = Math.max(...boxes.map((b) => b[0]));
  const north = Math.min(...boxes.map((b) => b[2]));
  const plain = boxes.every((b) => b[1] <= b[3]);
  const lon = plain
    ? Math.min(...boxes.map((b) => b[3])) - Math.max(...boxes.map((b) => b[1]))
    : Math.min(...boxes.map(width));
  return Math.max(0, north - south) * Math.max(0, lon);
}

/** The box around several boxes (a set of areas searched at once). */
function around(boxes: Box[]): Box {
  if (boxes.length === 0) return [0, 0, 0, 0];
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

export interface Evaluated {
  elements: OverpassElement[];
  usedAreas: boolean;
  /** The statement searching the largest extent, and that extent in square degrees. */
  largest: { line: number; extent: number };
}

export function evaluate(query: Query, database: OverpassElement[], areaBoxes: AreaBoxes): Evaluated {
  const sets = new Map<string, Box[]>();
  for (const a of query.areas) {
    const codes = Object.keys(areaBoxes).filter((code) => tagsMatch(areaTags(code), a.tags));
    sets.set(
      a.into,
      codes.map((code) => areaBoxes[code] as Box),
    );
  }
  const boxesOf = (s: QueryStatement): Box[] => [
    ...(query.bbox === null ? [] : [query.bbox]),
    ...s.spatial.map((f) => ("bbox" in f ? f.bbox : around(sets.get(f.area) ?? []))),
  ];
  const matches = (s: QueryStatement, e: OverpassElement): boolean => {
    const p = point(e);
    if (!s.types.includes(e.type) || !tagsMatch(e.tags, s.tags)) return false;
    if (query.bbox !== null && (p === null || !inBox(p, query.bbox))) return false;
    return s.spatial.every((f) =>
      "bbox" in f ? p !== null && inBox(p, f.bbox) : p !== null && (sets.get(f.area) ?? []).some((b) => inBox(p, b)),
    );
  };
  const found = new Map<string, OverpassElement>();
  let largest = { line: 0, extent: 0 };
  for (const s of query.statements) {
    const extent = intersection(boxesOf(s));
    if (extent > largest.extent) largest = { line: s.line, extent };
    for (const e of database) if (matches(s, e)) found.set(`${e.type}/${e.id}`, e);
  }
  const elements = [...found.values()].sort((a, b) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || a.id - b.id);
  return { elements, usedAreas: query.areas.length > 0, largest };
}

const fixed = (n: number) => n.toFixed(7);

type Mode = NonNullable<Query["out"]>;

/**
 * One element as output_json.cc prints it. Modes (statements/print.cc): `tags` prints no
 * coordinates; the default `body` gives nodes theirs; `center` gives nodes theirs and ways and
 * relations a `center`.
 */
function elementText(e: OverpassElement, out: Mode): string {
  let text = `{\n  "type": "${e.type}",\n  "id": ${e.id}`;
  const p = point(e);
  if (p !== null && e.type === "node" && (out.center || !out.tags))
    text += `,\n  "lat": ${fixed(p.lat)},\n  "lon": ${fixed(p.lon)}`;
  else if (p !== null && e.type !== "node" && out.center)
    text += `,\n  "center": {\n    "lat": ${fixed(p.lat)},\n    "lon": ${fixed(p.lon)}\n  }`;
  // In key order, as Overpass's tag index yields them.
  const tags = Object.entries(e.tags ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (tags.length > 0)
    text += `,\n  "tags": {${tags.map(([k, v]) => `\n    ${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",")}\n  }`;
  return `${text}\n}`;
}

const OSM_BASE = "2026-11-20T12:00:00Z";
const AREAS_BASE = "2026-11-20T11:00:00Z";
const GENERATOR = "Overpass API 0.7.62 a0db4f39";
const COPYRIGHT =
  "The data included in this document is from www.openstreetmap.org. The data is made available under ODbL.";

/** A whole JSON answer: header, elements (none without an `out`), and a `remark` (a runtime error) when given. */
export function answerText(
  elements: OverpassElement[],
  out: Mode | null,
  usedAreas: boolean,
  remark: string | null,
): string {
  const header =
    `{\n  "version": 0.6,\n  "generator": "${GENERATOR}",\n  "osm3s": {\n` +
    `    "timestamp_osm_base": "${OSM_BASE}",\n` +
    (usedAreas ? `    "timestamp_areas_base": "${AREAS_BASE}",\n` : "") +
    `    "copyright": "${COPYRIGHT}"\n  },\n  "elements": [\n\n`;
  const body = out === null ? "" : elements.map((e) => elementText(e, out)).join(",\n");
  const footer = `\n\n  ]${remark === null ? "" : `,\n"remark": ${JSON.stringify(remark)}`}\n}\n`;
  return header + body + footer;
}
