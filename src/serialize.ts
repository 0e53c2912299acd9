/**
 * JSON and XML bodies (SPEC §4, §6). XML follows setlist.fm's layout: page fields as attributes
 * of the wrapper, `<venue id name>` with `<city>` and `<url>` children, and each city of a city
 * search as an element named `cities`. xmlbuilder2 does the escaping.
 */
import { create } from "xmlbuilder2";
import type { XMLBuilder } from "xmlbuilder2/lib/interfaces";
import type { ErrorBody } from "./errors";
import type { Format } from "./negotiate";
import type { CityJson, ResultPage, VenueJson } from "./shape";

function xmlDocument(): XMLBuilder {
  return create({ version: "1.0", encoding: "UTF-8", standalone: true });
}

function stateAttributes(o: { state?: string; stateCode?: string }): Record<string, string> {
  const attrs: Record<string, string> = {};
  if (o.state !== undefined) attrs.state = o.state;
  if (o.stateCode !== undefined) attrs.stateCode = o.stateCode;
  return attrs;
}

function addVenue(parent: XMLBuilder, v: VenueJson): void {
  const venue = parent.ele("venue", { id: v.id, name: v.name });
  if (v.city !== undefined) {
    const city = venue.ele("city", { id: v.city.id, name: v.city.name, ...stateAttributes(v.city) });
    city.ele("coords");
    city.ele("country");
  }
  if (v.url !== undefined) venue.ele("url").txt(v.url);
}

function addCity(parent: XMLBuilder, c: CityJson): void {
  const city = parent.ele("cities", { id: c.id, name: c.name, ...stateAttributes(c) });
  city.ele("coords", { lat: String(c.coords.lat), long: String(c.coords.long) });
  city.ele("country", { code: c.country.code, name: c.country.name });
}

export function pageXml(page: ResultPage): string {
  const root = xmlDocument().ele(page.type, {
    itemsPerPage: String(page.itemsPerPage),
    page: String(page.page),
    total: String(page.total),
  });
  if (page.type === "venues") for (const v of page.venue) addVenue(root, v);
  else for (const c of page.cities) addCity(root, c);
  return root.end({ prettyPrint: false });
}

export function errorXml(body: ErrorBody): string {
  const root = xmlDocument().ele("error");
  root.ele("code").txt(String(body.code));
  root.ele("status").txt(body.status);
  root.ele("message").txt(body.message);
  root.ele("timestamp").txt(body.timestamp);
  return root.end({ prettyPrint: false });
}

export function serializePage(page: ResultPage, format: Format): string {
  return format === "json" ? JSON.stringify(page) : pageXml(page);
}

export function serializeError(body: ErrorBody, format: Format): string {
  return format === "json" ? JSON.stringify(body) : errorXml(body);
}
