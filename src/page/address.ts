/**
 * The page's address holds its search (docs/architecture.md#the-search-page), so that a link,
 * Reload, Back and Forward show it again: `type` (venues or cities), `id` when a suggestion was
 * chosen (the record looked up instead of a search), then the API's own parameters as the page
 * sends them (`name`, `cityName`, `country`, `state`, `lat`, `long`, `radius`, `bbox`, `typos`,
 * `places`, `p`; not `matched`, the page's way of asking rather than the person's search), then
 * what the page asks for in headers (`lang`, `view`; the API key, a secret, never). Read back, what the page cannot show is left out, as an unknown parameter is: a type,
 * view or page that is not one, an id the API would refuse, a point or a box that is not numbers
 * in range, a point together with a box (the box wins, as "search this area" ends "near me"); the
 * form leaves out a language or a radius it does not offer (src/page/restore.ts). A text field
 * takes its value as it is, so that the API refuses what it refuses in its own words. The query of
 * the name box's suggestions is the search's too. Pure.
 */
import { boxEdges } from "./bbox.ts";

/** A search as the page holds it: its form and what it remembers beside the form. */
export interface PageSearch {
  kind: "venues" | "cities";
  /**
   * The record chosen from the suggestions, by its id (a venue's, or a city's GeoNames id): looked
   * up (/1.0/venue/{id}, /1.0/city/{geoId}) rather than searched; "" for a search. The form stays
   * as it was when it was chosen, its name the record's.
   */
  id: string;
  name: string;
  /** For venues only: a city search ignores it. */
  cityName: string;
  country: string;
  state: string;
  /** Near a point within a radius in km, as sent ("48.8566", "2.3522", "25"); null for anywhere. */
  near: { lat: string; long: string; radius: string } | null;
  /** The map's area (`bbox`); "" for none. */
  bbox: string;
  /** false: exact names only (`typos=0`). */
  typos: boolean;
  /** The name as typed, not read for a place at its end (`places=0`). */
  asTyped: boolean;
  page: number;
  /** The names' language ("en" unless asked). */
  lang: string;
  /** "list", or the raw "json" or "xml". */
  view: string;
}

const TEXT = ["name", "cityName", "country", "state"] as const;

/** The API's query for a search, in the order the page has always sent it. */
export function apiQuery(search: PageSearch): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of TEXT) {
    if (search[key] && (key !== "cityName" || search.kind === "venues")) params.set(key, search[key]);
  }
  if (search.near) {
    params.set("lat", search.near.lat);
    params.set("long", search.near.long);
    params.set("radius", search.near.radius);
  }
  if (search.bbox) params.set("bbox", search.bbox);
  if (!search.typos) params.set("typos", "0");
  if (search.asTyped && search.name) params.set("places", "0");
  if (search.page > 1) params.set("p", String(search.page));
  return params;
}

/**
 * The query of the page's own search as it sends it: with a name, `matched=1`, so that each result
 * says why it is there (docs/api.md#which-name-matched), as a suggestion does.
 */
export function searchQuery(search: PageSearch): URLSearchParams {
  const params = apiQuery(search);
  if (search.name) params.set("matched", "1");
  return params;
}

/**
 * The query of the name box's suggestions (docs/api.md#suggestions): the name typed so far and the
 * search's filters, its point (near me) as the focus, else `focus` (the place the map shows), whose
 * nearness orders without limiting. No radius: a focus does not filter; no page.
 */
export function suggestQuery(search: PageSearch, focus: { lat: string; long: string } | null): URLSearchParams {
  const params = apiQuery({ ...search, near: null, page: 1 });
  const point = search.near ?? focus;
  if (point && !search.bbox) {
    params.set("lat", point.lat);
    params.set("long", point.long);
  }
  return params;
}

/** Whether the search asks for anything: a record, a text, a point or a box (else the page searches nothing). */
export function asksAnything(search: PageSearch): boolean {
  const params = apiQuery(search);
  return search.id !== "" || [...TEXT, "radius", "bbox"].some((key) => params.has(key));
}

/** The page's query string for a search ("" for the page as it opens). */
export function addressQuery(search: PageSearch): string {
  const params = new URLSearchParams({ type: search.kind });
  if (search.id) params.set("id", search.id);
  for (const [key, value] of apiQuery(search)) params.set(key, value);
  if (search.lang !== "en") params.set("lang", search.lang);
  if (search.view !== "list") params.set("view", search.view);
  const query = params.toString();
  return query === "type=venues" ? "" : query;
}

const isDegrees = (text: string, limit: number) => /^-?\d+(\.\d+)?$/.test(text) && Math.abs(Number(text)) <= limit;

function readNear(params: URLSearchParams): PageSearch["near"] {
  const lat = params.get("lat") ?? "";
  const long = params.get("long") ?? "";
  const radius = params.get("radius") ?? "";
  return isDegrees(lat, 90) && isDegrees(long, 180) && /^\d+$/.test(radius) ? { lat, long, radius } : null;
}

function readPage(text: string | null): number {
  const page = /^[1-9]\d*$/.test(text ?? "") ? Number(text) : 1;
  return Number.isSafeInteger(page) ? page : 1;
}

/** The ids the API looks up (docs/api.md#ids-and-urls): a venue's 1–64 letters, digits, - or _; a GeoNames id. */
const IDS = { venues: /^[\w-]{1,64}$/, cities: /^[1-9]\d{0,11}$/ };

/** The search a page's query string names; what it does not name is as the page opens. */
export function readAddress(query: string): PageSearch {
  const params = new URLSearchParams(query);
  const text = (key: string) => params.get(key)?.trim() ?? "";
  const bbox = boxEdges(text("bbox")) ? text("bbox") : "";
  const kind = params.get("type") === "cities" ? "cities" : "venues";
  const id = IDS[kind].test(text("id")) ? text("id") : "";
  return {
    kind,
    id,
    name: text("name"),
    cityName: text("cityName"),
    country: text("country"),
    state: text("state"),
    near: bbox ? null : readNear(params),
    bbox,
    typos: params.get("typos") !== "0",
    asTyped: params.get("places") === "0",
    page: id ? 1 : readPage(params.get("p")),
    lang: text("lang") || "en",
    view: ["json", "xml"].includes(text("view")) ? text("view") : "list",
  };
}
