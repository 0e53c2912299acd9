/**
 * The status line (#status, polite live region): what a search found and what it searched, in a
 * person's words (src/page/searched.ts), its places as the data names them: the City, State and
 * Country filters as the first result names its city, state and country ("in Berlin, Germany" for
 * `berlin` and `de`; a venue's city in a search names no country, so its city is looked up, once per
 * page: src/page/places.ts), a country no result names by the browser's name for its code, anything
 * else as typed. A record opened is said by its name and place. Whether the edge's cache answered is
 * the API's business (its X-Cache header), not a person's. "Searching …" keeps the line's height.
 */
import { out } from "./dom.ts";
import { cityById, countryName, whereIs, type Result } from "./places.ts";
import { countWords, recordWords, searchedWords, type NamedPlaces, type Searched } from "./searched.ts";

/** Counts the lines written, so that an answer whose places are still being named writes nothing over a later line. */
let lines = 0;

/** Writes the line, at its own height. */
function write(text: string): void {
  out.status.style.minHeight = "";
  out.status.textContent = text;
}

/** Says `text` on the status line. */
export function say(text: string): void {
  lines++;
  write(text);
}

/**
 * Says "Searching …" in the height the line has now, so that the answer replacing it moves nothing
 * below the line when it takes as many lines as the one before, as the answers to a name being typed
 * do (on a phone the results jumped 22 px at every answer: "Searching …" one line, the answer two).
 */
export function saySearching(): void {
  out.status.style.minHeight = `${out.status.getBoundingClientRect().height}px`;
  lines++;
  out.status.textContent = "Searching …";
}

/** The first result's country, as the data names it: a venue's city named in full, else looked up. */
async function countryOf(first: Result): Promise<string | undefined> {
  if ("country" in first) return first.country.name;
  const city = first.city;
  if (city === undefined) return undefined;
  if ("name" in city.country) return city.country.name;
  return (await cityById(city.id))?.country.name;
}

/** The search's filters as `first`, its first result, names them (each result is in the places filtered by). */
async function namedPlaces({ params }: Searched, first: Result | undefined): Promise<NamedPlaces> {
  const given = (key: string) => (params.get(key)?.trim() ?? "") !== "";
  const typedCountry = params.get("country")?.trim() ?? "";
  const named: NamedPlaces = { country: given("country") ? countryName(typedCountry) : undefined };
  if (first === undefined) return named;
  const city = "country" in first ? undefined : first.city;
  if (given("cityName")) named.city = city?.name;
  if (given("state")) named.state = "country" in first ? first.state : city?.state;
  if (given("country")) named.country = (await countryOf(first)) || named.country;
  return named;
}

/** Says what a search found, `total` of `results`, and what it searched; `fuzzy`: typos were forgiven. */
export async function sayFound(
  searched: Searched,
  found: { total: number; results: readonly Result[]; fuzzy: boolean },
): Promise<void> {
  const line = ++lines;
  const named = await namedPlaces(searched, found.results[0]);
  if (line !== lines) return;
  const typos = found.fuzzy ? ", forgiving typos" : "";
  write(`${countWords(found.total, searched.kind)}${searchedWords(searched, named)}${typos}.`);
}

/** Says a record opened: its name and where it is. */
export function sayRecord(kind: Searched["kind"], record: Result): void {
  say(recordWords(kind, record.name, whereIs(record)));
}
