/**
 * Where a result goes on the map: a city at its coords; a venue at its own point (imported
 * venues have one), else at its city's — from the answer when the deployment sends venue cities
 * in full (VENUE_CITY_DETAIL), else from the city lookup, asked once per city and remembered for
 * the page's life (the answers are cached at the edge too). A venue without a city has no place.
 */
import type { CitiesPage, CityJson, VenueCityJson, VenuesPage } from "../shape.ts";
import { keyHeader } from "./request.ts";

export type Result = VenuesPage["venue"][number] | CitiesPage["cities"][number];

/** A city as people name it: "Paris, Île-de-France, France" (a venue's city in a search has no country). */
export function placeName(c: CityJson | VenueCityJson): string {
  const country = "name" in c.country ? c.country.name : undefined;
  return [c.name, c.state, country].filter(Boolean).join(", ");
}

export interface Point {
  lat: number;
  long: number;
}

/** City id → its point (null: the city has none, or is unknown); asked at most once each. */
const cityPoints = new Map<string, Promise<Point | null>>();

async function lookUp(cityId: string): Promise<Point | null> {
  const response = await fetch(`/1.0/city/${encodeURIComponent(cityId)}`, {
    headers: { Accept: "application/json", ...keyHeader() },
  });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`the city lookup answered ${response.status}`);
  const city = (await response.json()) as { coords?: Point };
  return city.coords ?? null;
}

function cityPoint(cityId: string): Promise<Point | null> {
  let point = cityPoints.get(cityId);
  if (point === undefined) {
    point = lookUp(cityId).catch(() => {
      cityPoints.delete(cityId); // a failure (a 429, the network) is asked again next time
      return null;
    });
    cityPoints.set(cityId, point);
  }
  return point;
}

const isPoint = (coords: object | undefined): coords is Point =>
  coords !== undefined && "lat" in coords && "long" in coords;

/** A result's place on the map, or null when it has none. */
export async function placeOf(result: Result): Promise<Point | null> {
  if (isPoint(result.coords)) return result.coords;
  if ("country" in result || result.city === undefined) return null;
  return isPoint(result.city.coords) ? result.city.coords : cityPoint(result.city.id);
}
