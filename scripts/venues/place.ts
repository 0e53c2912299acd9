/**
 * The place a person names for `npm run venues -- osm "…"` (docs/import.md#fetching-real-venues),
 * read over the GeoNames data the service serves, by the service's own reading: a box of four
 * numbers; a country or a region by any way it is written (place_names: `DE`, `Japan`, `Bavaria`,
 * `ON`, `Georgia, US`); else a city as the city search reads it, a place at the end of the text
 * included (`Portland, OR`; docs/api.md#a-place-in-the-text). A region that shares its name with its
 * largest city (`Berlin`, `New York`) is read as the city, and the other reading is named. A text that
 * only a forgiven typo matches is not read: the nearest names are listed instead.
 */
import type Database from "better-sqlite3";
import { words, normalize } from "../../src/data-contract/normalize.ts";
import { ApiError } from "../../src/http/errors.ts";
import { parseSearchParams } from "../../src/params/search.ts";
import { CITIES } from "../../src/query/cities.ts";
import type { CityRecord } from "../../src/query/records.ts";
import { runSearch } from "../../src/query/search.ts";
import { REACH_KM, reachKm } from "../import/phases/place-rule.ts";
import type { RegionCode } from "../import/sources/region-codes.ts";
import { localRunner } from "../sql/explain.ts";
import { FetchError } from "./http.ts";
import { boxText, type Box } from "./osm/query.ts";
import { boxAround } from "./osm/tiles.ts";

interface Named {
  /** For people: `Berlin, State of Berlin, DE`. */
  label: string;
  /** For file names: `berlin-de`. */
  slug: string;
  /** The box the place lies in (a city's: its reach). */
  box: Box;
}

export type FetchPlace =
  | (Named & { kind: "country"; countryCode: string })
  | (Named & { kind: "region"; countryCode: string; admin1Code: string; iso3166: string | null })
  | (Named & { kind: "city"; id: string; countryCode: string })
  | (Named & { kind: "box" });

/** How a text was read, and the other reading it could have been. */
export interface Reading {
  place: FetchPlace;
  alsoRead: string | null;
}

const slugOf = (text: string) => words(normalize(text)).join("-");

const BOX = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/;

/** `minLong,minLat,maxLong,maxLat` as the searches take it (docs/api.md#inside-a-box), checked as they check it. */
function boxPlace(text: string): FetchPlace | null {
  if (!BOX.test(text)) return null;
  try {
    const area = parseSearchParams("cities", `bbox=${encodeURIComponent(text.replace(/\s/g, ""))}`).box;
    if (area === undefined) return null;
    const box: Box = { south: area.south, west: area.west, north: area.north, east: area.east };
    return {
      kind: "box",
      box,
      label: `the box ${boxText(box)} (south,west,north,east)`,
      slug: `box-${slugOf(boxText(box))}`,
    };
  } catch (error) {
    throw error instanceof ApiError ? new FetchError(`${text}: ${error.message}`) : error;
  }
}

/** The box around a country's or a region's populated places; null when it has none. */
function placesBox(db: Database.Database, countryCode: string, admin1Code?: string): Box | null {
  const r = db
    .prepare(
      `SELECT min(lat) AS south, min(lng) AS west, max(lat) AS north, max(lng) AS east FROM cities
       WHERE country_code = ? AND (? IS NULL OR admin1_code = ?)`,
    )
    .get(countryCode, admin1Code ?? null, admin1Code ?? null) as Record<keyof Box, number | null>;
  if (r.south === null || r.west === null || r.north === null || r.east === null) return null;
  const pad = 0.1;
  return {
    south: Math.max(-90, r.south - pad),
    west: Math.max(-180, r.west - pad),
    north: Math.min(90, r.north + pad),
    east: Math.min(180, r.east + pad),
  };
}

/** Each country and region a normalized text is a way of writing (place_names), the larger first. */
function placeNamesOf(db: Database.Database, form: string): { countryCode: string; admin1Code: string }[] {
  return db
    .prepare(
      "SELECT country_code AS countryCode, admin1_code AS admin1Code FROM place_names WHERE form = ? ORDER BY rank",
    )
    .all(form) as { countryCode: string; admin1Code: string }[];
}

/** Whether a name begins with the words of a text (`New York City` with `New York`). */
function namedAs(name: string, text: string): boolean {
  const asked = words(normalize(text));
  return words(normalize(name))
    .slice(0, asked.length)
    .every((w, i) => w === asked[i]);
}

/** The population of a region's largest place. */
const largestIn = (db: Database.Database, countryCode: string, admin1Code: string): number =>
  (db
    .prepare("SELECT coalesce(max(population), 0) FROM cities WHERE country_code = ? AND admin1_code = ?")
    .pluck()
    .get(countryCode, admin1Code) as number) ?? 0;

export interface PlaceData {
  db: Database.Database;
  regionCodes: readonly RegionCode[];
}

/** A region's ISO 3166-2 code: its GeoNames code when that is letters (US-OR, GB-ENG), else data/region-codes.tsv's. */
function iso3166Of(data: PlaceData, countryCode: string, admin1Code: string): string | null {
  if (/^[A-Z]{1,3}$/.test(admin1Code)) return `${countryCode}-${admin1Code}`;
  const listed = data.regionCodes.find((r) => r.countryCode === countryCode && r.admin1Code === admin1Code);
  return listed === undefined ? null : `${countryCode}-${listed.abbreviation}`;
}

function countryPlace(data: PlaceData, countryCode: string): FetchPlace | null {
  const box = placesBox(data.db, countryCode);
  const name = data.db.prepare("SELECT name FROM countries WHERE code = ?").pluck().get(countryCode) as
    string | undefined;
  if (box === null || name === undefined) return null;
  return { kind: "country", countryCode, box, label: `${name} (${countryCode})`, slug: countryCode.toLowerCase() };
}

function regionPlace(data: PlaceData, countryCode: string, admin1Code: string): FetchPlace | null {
  const box = placesBox(data.db, countryCode, admin1Code);
  const name = data.db
    .prepare("SELECT name FROM admin1 WHERE country_code = ? AND code = ?")
    .pluck()
    .get(countryCode, admin1Code) as string | undefined;
  if (box === null || name === undefined) return null;
  const iso3166 = iso3166Of(data, countryCode, admin1Code);
  const label = `${name}, ${countryCode}${iso3166 === null ? "" : ` (ISO 3166-2 ${iso3166})`}`;
  return { kind: "region", countryCode, admin1Code, iso3166, box, label, slug: slugOf(`${countryCode} ${name}`) };
}

/** The text as a country, or as a region (`Bavaria`; `Georgia, US`: a region of the country after the comma). */
function countryOrRegion(data: PlaceData, text: string): FetchPlace | null {
  const whole = placeNamesOf(data.db, normalize(text));
  const country = whole.find((p) => p.admin1Code === "");
  if (country !== undefined) return countryPlace(data, country.countryCode);
  const comma = text.lastIndexOf(",");
  const inCountry =
    comma === -1 ? null : placeNamesOf(data.db, normalize(text.slice(comma + 1))).find((p) => p.admin1Code === "");
  const regions = (inCountry === null ? whole : placeNamesOf(data.db, normalize(text.slice(0, comma)))).filter(
    (p) =>
      p.admin1Code !== "" && (inCountry === null || inCountry === undefined || p.countryCode === inCountry.countryCode),
  );
  const region = regions[0];
  return region === undefined ? null : regionPlace(data, region.countryCode, region.admin1Code);
}

/** The city search's answer for the text (a place at its end read as the search reads it). */
async function cityAnswer(data: PlaceData, text: string) {
  const params = parseSearchParams("cities", `name=${encodeURIComponent(text)}`);
  return runSearch(CITIES, localRunner(data.db), params, "en");
}

type CityPlace = Extract<FetchPlace, { kind: "city" }> & {
  name: string;
  population: number;
  admin1Code: string | null;
};

function cityPlace(data: PlaceData, city: CityRecord): CityPlace {
  const population = data.db.prepare("SELECT population FROM cities WHERE id = ?").pluck().get(city.id) as number;
  const km = Math.min(REACH_KM, reachKm(population));
  // A city-state is said once: "Berlin, DE", not "Berlin, Berlin, DE".
  const state = city.state === null || city.state === city.name ? "" : `, ${city.state}`;
  return {
    kind: "city",
    id: city.id,
    countryCode: city.countryCode,
    admin1Code: city.stateCode,
    name: city.name,
    population,
    box: boxAround(city.lat, city.lng, km),
    label: `${city.name}${state}, ${city.countryCode} (GeoNames ${city.id}; within ${km.toFixed(1)} km of its centre, its reach)`,
    slug: slugOf(`${city.name} ${city.countryCode}`),
  };
}

/** A region named as its largest city is (Berlin, Hamburg, New York) is read as the city. */
function cityWins(
  data: PlaceData,
  text: string,
  city: CityPlace,
  region: Extract<FetchPlace, { kind: "region" }>,
): boolean {
  return (
    namedAs(city.name, text) &&
    city.countryCode === region.countryCode &&
    city.admin1Code === region.admin1Code &&
    city.population >= largestIn(data.db, region.countryCode, region.admin1Code)
  );
}

/** Reads `text` as a place; a FetchError naming the nearest names known when it cannot. */
export async function readPlace(data: PlaceData, text: string): Promise<Reading> {
  if (text.trim() === "") throw new FetchError("name a place: a city, a region, a country or a box");
  const box = boxPlace(text);
  if (box !== null) return { place: box, alsoRead: null };
  const region = countryOrRegion(data, text);
  const answer = await cityAnswer(data, text);
  const best = answer.match === "fuzzy" ? undefined : answer.items[0];
  const city = best === undefined ? null : cityPlace(data, best);
  if (region !== null && !(city !== null && region.kind === "region" && cityWins(data, text, city, region)))
    return { place: region, alsoRead: city?.label ?? null };
  if (city !== null) return { place: city, alsoRead: region?.label ?? null };
  const nearest = answer.items
    .slice(0, 5)
    .map((c) => `${c.name} (${c.state === null ? "" : `${c.state}, `}${c.countryCode})`);
  throw new FetchError(
    `no city, region or country is called "${text}"${nearest.length > 0 ? `; the nearest names known: ${nearest.join("; ")}` : ""}`,
  );
}
