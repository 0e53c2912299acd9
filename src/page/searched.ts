/**
 * The status line's words for a search answered (docs/architecture.md#the-search-page): how many of
 * what, and what was searched, its filters included ("5 venues named arena in Berlin", "3 cities
 * named paris in US", "No venues named arena in Berlin"), so that the line says the search where
 * the form that holds it is folded away (a phone). The values as sent, trimmed, as the person typed
 * them. Pure.
 */

/** A search as it was sent. */
export interface Searched {
  kind: "venues" | "cities";
  /** The API's query. */
  params: URLSearchParams;
  /** The reach of a search near a point, in words ("25 km of you"); "" for none. */
  near: string;
}

const ONE = { venues: "venue", cities: "city" } as const;

/** "5 venues", "1 city", "1,204 cities", "No venues". */
export function countWords(total: number, kind: Searched["kind"]): string {
  if (total === 0) return `No ${kind}`;
  return `${total.toLocaleString("en")} ${total === 1 ? ONE[kind] : kind}`;
}

/** What was searched, to follow the count: " named arena in Berlin, US within 25 km of you". */
export function searchedWords({ kind, params, near }: Searched): string {
  const text = (key: string) => params.get(key)?.trim() ?? "";
  // A city search has no City filter; the page sends none, and the API would ignore one.
  const places = [kind === "venues" ? text("cityName") : "", text("state"), text("country")].filter(Boolean);
  const page = Number(params.get("p") ?? "1");
  return [
    text("name") ? ` named ${text("name")}` : "",
    places.length ? ` in ${places.join(", ")}` : "",
    params.has("bbox") ? " in the map's area" : "",
    near ? ` within ${near}` : "",
    params.get("typos") === "0" ? ", exact names only" : "",
    page > 1 ? `, page ${page}` : "",
  ].join("");
}
