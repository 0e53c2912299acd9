/** The API request the form stands for: its path, its headers, and the same request as a curl command. */
import { asksAnything, searchQuery, type PageSearch } from "./address.ts";
import { fields, kind, out, valueOf } from "./dom.ts";
import { state } from "./state.ts";

/** Whether "near me" is chosen (its value a radius in km). */
export const nearMe = (): boolean => /^\d+$/.test(fields.near.value);

/** The radius in km when searching near the browser's location, else "". */
export function radius(): string {
  return state.position && nearMe() ? fields.near.value : "";
}

/** The search the form and the page's state ask for. */
export function formSearch(): PageSearch {
  const point = state.position && radius() ? state.position : null;
  return {
    kind: kind(),
    id: state.record,
    name: valueOf(fields.name),
    cityName: valueOf(fields.city),
    country: valueOf(fields.country),
    state: valueOf(fields.state),
    near: point && { lat: point.lat, long: point.long, radius: radius() },
    bbox: state.area,
    typos: fields.typos.value !== "0",
    asTyped: state.asTyped,
    page: state.page,
    lang: fields.lang.value,
    view: fields.view.value,
  };
}

/**
 * The path and query of the search as the page sends it (`matched=1` with a name), which the curl
 * command shows: the lookup of the record chosen from the suggestions, if one was.
 */
export function searchPath(): string {
  if (state.record) return `/1.0/${kind() === "venues" ? "venue" : "city"}/${encodeURIComponent(state.record)}`;
  const params = searchQuery(formSearch()).toString();
  return `/1.0/search/${kind()}${params ? `?${params}` : ""}`;
}

/** The API key header, when a key is given. */
export const keyHeader = (): Record<string, string> =>
  valueOf(fields.key) ? { "x-api-key": valueOf(fields.key) } : {};

/** The names' language, when it is not the API's default. */
export const languageHeader = (): Record<string, string> =>
  fields.lang.value === "en" ? {} : { "Accept-Language": fields.lang.value };

export function headers(): Record<string, string> {
  const accept = fields.view.value === "xml" ? "application/xml" : "application/json";
  return { Accept: accept, ...languageHeader(), ...keyHeader() };
}

const quote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

export function showCurl(path: string): void {
  const parts = ["curl"];
  for (const [k, v] of Object.entries(headers()))
    parts.push(`-H ${quote(`${k}: ${k === "x-api-key" ? "YOUR_KEY" : v}`)}`);
  parts.push(quote(location.origin + path));
  out.curl.textContent = parts.join(" ");
}

/** Whether the form asks for anything at all. */
export const hasQuery = (): boolean => asksAnything(formSearch());
