/**
 * An XML answer read as its JSON twin (docs/api.md#result-pages), so that the raw XML view keeps
 * the results on the map without asking the API again: the page's fields, each venue or city with
 * what the list and the map use (a lookup's one record as a page of one), or an error's message. DOMParser reads it as data (no script).
 */
import type { CitiesPage, CityJson, VenueJson, VenuesPage } from "../shape.ts";

type Read = VenuesPage | CitiesPage | { message: string } | null;

const children = (parent: Element, name: string): Element[] =>
  Array.from(parent.children).filter((child) => child.tagName === name);

/** Attributes present, as strings. */
function attributes<K extends string>(element: Element, names: readonly K[]): Partial<Record<K, string>> {
  const found: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = element.getAttribute(name);
    if (value !== null) found[name] = value;
  }
  return found;
}

function numbers(element: Element | undefined, names: readonly string[]): Record<string, number> {
  const found: Record<string, number> = {};
  for (const [name, value] of Object.entries(element ? attributes(element, names) : {})) found[name] = Number(value);
  return found;
}

function city(element: Element): CityJson {
  const [coords] = children(element, "coords");
  const [country] = children(element, "country");
  return {
    ...(attributes(element, ["id", "name", "state", "stateCode"]) as Pick<CityJson, "id" | "name">),
    coords: numbers(coords, ["lat", "long"]) as CityJson["coords"],
    country: (country ? attributes(country, ["code", "name"]) : {}) as CityJson["country"],
    ...numbers(element, ["distance"]),
  };
}

function venue(element: Element): VenueJson {
  const [cityElement] = children(element, "city");
  const [url] = children(element, "url");
  const [coords] = children(element, "coords");
  return {
    ...(attributes(element, ["id", "name", "kind"]) as Pick<VenueJson, "id" | "name" | "kind">),
    ...(cityElement ? { city: city(cityElement) } : {}),
    ...(url ? { url: url.textContent ?? "" } : {}),
    ...(coords ? { coords: numbers(coords, ["lat", "long"]) as VenueJson["coords"] & object } : {}),
    ...numbers(element, ["distance"]),
  };
}

/** A search's XML answer as JSON would have it, a lookup's one record as a page of it; null for anything else. */
export function readXml(text: string): Read {
  const root = new DOMParser().parseFromString(text, "application/xml").documentElement;
  if (root.tagName === "error") return { message: children(root, "message")[0]?.textContent ?? "" };
  const one = { itemsPerPage: 1, page: 1, total: 1 };
  if (root.tagName === "venue") return { type: "venues", ...one, venue: [venue(root)] };
  if (root.tagName === "city") return { type: "cities", ...one, cities: [city(root)] };
  if (root.tagName !== "venues" && root.tagName !== "cities") return null;
  const page = { itemsPerPage: 0, page: 0, total: 0, ...numbers(root, ["itemsPerPage", "page", "total"]) };
  return root.tagName === "venues"
    ? { type: "venues", ...page, venue: children(root, "venue").map(venue) }
    : { type: "cities", ...page, cities: children(root, "cities").map(city) };
}
