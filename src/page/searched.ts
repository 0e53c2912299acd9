/**
 * The status line's words for a search answered (docs/architecture.md#the-search-page): how many of
 * what, and what was searched, its filters included ("5 venues named arena in Berlin", "3 cities
 * named paris in United States", "No venues named arena in Berlin"), so that the line says the
 * search where the form that holds it is folded away (a phone). The name as typed (what was
 * searched); the places as the data names them where an answer does (src/page/status.ts), else as
 * typed, each said once. A record opened is said by its name and place. Pure.
 */
import { placeWords } from "./words.ts";

/** A search as it was sent. */
export interface Searched {
  kind: "venues" | "cities";
  /** The API's query. */
  params: URLSearchParams;
  /** The reach of a search near a point, in words ("25 km of you"); "" for none. */
  near: string;
}

/** The places of the search's filters as the data names them ("Berlin", "Germany"); a filter left out is said as typed. */
export interface NamedPlaces {
  city?: string;
  state?: string;
  country?: string;
}

const ONE = { venues: "venue", cities: "city" } as const;

/** "5 venues", "1 city", "1,204 cities", "No venues". */
export function countWords(total: number, kind: Searched["kind"]): string {
  if (total === 0) return `No ${kind}`;
  return `${total.toLocaleString("en")} ${total === 1 ? ONE[kind] : kind}`;
}

/** What was searched, to follow the count: " named arena in Berlin, United States within 25 km of you". */
export function searchedWords({ kind, params, near }: Searched, named: NamedPlaces = {}): string {
  const text = (key: string) => params.get(key)?.trim() ?? "";
  /** A filter given, by the data's name for it when there is one. */
  const place = (key: string, name: string | undefined) => (text(key) ? name?.trim() || text(key) : "");
  // A city search has no City filter; the page sends none, and the API would ignore one.
  const city = kind === "venues" ? place("cityName", named.city) : "";
  const places = placeWords([city, place("state", named.state), place("country", named.country)]);
  const page = Number(params.get("p") ?? "1");
  return [
    text("name") ? ` named ${text("name")}` : "",
    places ? ` in ${places}` : "",
    params.has("bbox") ? " in the map's area" : "",
    near ? ` within ${near}` : "",
    params.get("typos") === "0" ? ", exact names only" : "",
    page > 1 ? `, page ${page}` : "",
  ].join("");
}

/** A record opened, by its name and where it is: "One city: Berlin, Germany.", "One venue: Arena Berlin in Berlin, Germany." */
export function recordWords(kind: Searched["kind"], name: string, where: string): string {
  if (where === "") return `One ${ONE[kind]}: ${name}.`;
  return `One ${ONE[kind]}: ${name}${kind === "venues" ? " in " : ", "}${where}.`;
}
