/**
 * Where a result is, in words and on the map: a city at its coords; a venue at its own point
 * (imported venues have one), else at its city's — from the answer when the deployment sends venue
 * cities in full (VENUE_CITY_DETAIL), else from the city lookup, asked once per city and language
 * and remembered for the page's life (the answers are cached at the edge too). A venue without a
 * city has no place.
 */
import type { CitiesPage, CityJson, VenueCityJson, VenuesPage } from "../shape.ts";
import { fields } from "./dom.ts";
import { keyHeader } from "./request.ts";
import { placeWords } from "./words.ts";

export type Result = VenuesPage["venue"][number] | CitiesPage["cities"][number];

/** A city as people name it: "Paris, Île-de-France, France" (a venue's city in a search has no country). */
function placeName(c: CityJson | VenueCityJson): string {
  return placeWords([c.name, c.state, "name" in c.country ? c.country.name : undefined]);
}

/** Where a result is, in words, without its own name: a venue's city; a city's state and country. */
export function whereIs(result: Result): string {
  if ("country" in result) return placeWords([result.state, result.country.name], [result.name]);
  return result.city ? placeName(result.city) : "";
}

export interface Point {
  lat: number;
  long: number;
}

/**
 * A country's name in the language of the names, by the browser (Intl.DisplayNames), from its code;
 * undefined for what is no region code (a name typed, say).
 */
export function countryName(code: string): string | undefined {
  if (!/^[a-z]{2}$/i.test(code)) return undefined;
  try {
    return new Intl.DisplayNames([fields.lang.value], { type: "region" }).of(code.toUpperCase());
  } catch {
    return undefined;
  }
}

/** "language id" → the city (null: unknown); asked at most once each. */
const cities = new Map<string, Promise<CityJson | null>>();

async function lookUp(cityId: string, language: string): Promise<CityJson | null> {
  const response = await fetch(`/1.0/city/${encodeURIComponent(cityId)}`, {
    headers: { Accept: "application/json", "Accept-Language": language, ...keyHeader() },
  });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`the city lookup answered ${response.status}`);
  return (await response.json()) as CityJson;
}

/** A city by its id, its names in the language chosen; null when it is unknown or cannot be had now. */
export function cityById(cityId: string): Promise<CityJson | null> {
  const key = `${fields.lang.value} ${cityId}`;
  let city = cities.get(key);
  if (city === undefined) {
    city = lookUp(cityId, fields.lang.value).catch(() => {
      cities.delete(key); // a failure (a 429, the network) is asked again next time
      return null;
    });
    cities.set(key, city);
  }
  return city;
}

const isPoint = (coords: object | undefined): coords is Point =>
  coords !== undefined && "lat" in coords && "long" in coords;

/** A result's place on the map, or null when it has none. */
export async function placeOf(result: Result): Promise<Point | null> {
  if (isPoint(result.coords)) return result.coords;
  if ("country" in result || result.city === undefined) return null;
  if (isPoint(result.city.coords)) return result.city.coords;
  const city = await cityById(result.city.id);
  return city && isPoint(city.coords) ? city.coords : null;
}
