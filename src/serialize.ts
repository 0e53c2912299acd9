/**
 * JSON and XML bodies (docs/api.md#result-pages, #errors). XML follows setlist.fm's layout: page fields as attributes
 * of the wrapper, `<venue id name>` with `<city>` and `<url>` children, each city of a city
 * search an element named `cities`, a looked-up city a `<city>`, each country of the countries
 * search a `<country code name/>`; a suggestion's `matched` a `<matched>` element last.
 * xmlbuilder2 does the escaping.
 */
import { create } from "xmlbuilder2";
import type { XMLBuilder } from "xmlbuilder2/lib/interfaces";
import type { ErrorBody } from "./http/errors.ts";
import type { Format } from "./http/negotiate.ts";
import type { Answer, CityJson, MatchedJson, ResultPage, VenueJson } from "./shape.ts";

function xmlDocument(): XMLBuilder {
  return create({ version: "1.0", encoding: "UTF-8", standalone: true });
}

function stateAttributes(o: { state?: string; stateCode?: string }): Record<string, string> {
  const attrs: Record<string, string> = {};
  if (o.state !== undefined) attrs.state = o.state;
  if (o.stateCode !== undefined) attrs.stateCode = o.stateCode;
  return attrs;
}

/** The distance attribute of a search near a point. */
const distance = (o: { distance?: number }): Record<string, string> =>
  o.distance === undefined ? {} : { distance: String(o.distance) };

/** A suggestion's `matched`: `<matched name place><span offset length/>…</matched>`. */
function addMatched(parent: XMLBuilder, m: MatchedJson | undefined): void {
  if (m === undefined) return;
  const matched = parent.ele("matched", { name: m.name, ...(m.place === undefined ? {} : { place: m.place }) });
  for (const s of m.spans) matched.ele("span", { offset: String(s.offset), length: String(s.length) });
}

function addVenue(parent: XMLBuilder, v: VenueJson): void {
  const venue = parent.ele("venue", { id: v.id, name: v.name, kind: v.kind, ...distance(v) });
  if (v.city !== undefined) addCity(venue, v.city, "city");
  if (v.url !== undefined) venue.ele("url").txt(v.url);
  if (v.coords !== undefined) venue.ele("coords", { lat: String(v.coords.lat), long: String(v.coords.long) });
  addMatched(venue, v.matched);
}

/** A city as element `name`; coords and country are empty elements when the city has none. */
function addCity(parent: XMLBuilder, c: VenueJson["city"] & object, name: "city" | "cities"): void {
  const city = parent.ele(name, {
    id: c.id,
    name: c.name,
    ...stateAttributes(c),
    ...("distance" in c ? distance(c) : {}),
  });
  const coords: Partial<CityJson["coords"]> = c.coords;
  const country: Partial<CityJson["country"]> = c.country;
  city.ele("coords", coords.lat === undefined ? {} : { lat: String(coords.lat), long: String(coords.long) });
  city.ele("country", country.code === undefined ? {} : { code: country.code, name: country.name ?? "" });
  if ("matched" in c) addMatched(city, c.matched);
}

function pageXml(page: ResultPage): string {
  const root = xmlDocument().ele(page.type, {
    itemsPerPage: String(page.itemsPerPage),
    page: String(page.page),
    total: String(page.total),
  });
  if (page.type === "venues") for (const v of page.venue) addVenue(root, v);
  else if (page.type === "cities") for (const c of page.cities) addCity(root, c, "cities");
  else for (const c of page.country) root.ele("country", { code: c.code, name: c.name });
  return root.end({ prettyPrint: false });
}

function errorXml(body: ErrorBody): string {
  const root = xmlDocument().ele("error");
  root.ele("code").txt(String(body.code));
  root.ele("status").txt(body.status);
  root.ele("message").txt(body.message);
  root.ele("timestamp").txt(body.timestamp);
  return root.end({ prettyPrint: false });
}

export function serializeAnswer(answer: Answer, format: Format): string {
  if (format === "json") {
    return JSON.stringify(answer.kind === "page" ? answer.page : answer.kind === "venue" ? answer.venue : answer.city);
  }
  if (answer.kind === "page") return pageXml(answer.page);
  const document = xmlDocument();
  if (answer.kind === "venue") addVenue(document, answer.venue);
  else addCity(document, answer.city, "city");
  return document.end({ prettyPrint: false });
}

export function serializeError(body: ErrorBody, format: Format): string {
  return format === "json" ? JSON.stringify(body) : errorXml(body);
}
