/**
 * The line that says how the API read a place at the end of the name (its X-Read-As header,
 * src/page/reading.ts), with a button that searches the name as typed (`places=0`). A city read by
 * its id is named with its country: looked up when the results do not carry it (a venue's city in a
 * search has none), in the language the names are in; countries are named by the browser.
 */
import { out } from "./dom.ts";
import { cityById, countryName, type Result } from "./places.ts";
import { placeRead, readAs, readingWords, type Place } from "./reading.ts";

/** Counts lines, so that a lookup for an earlier answer writes nothing. */
let lines = 0;

/** The first result's place: a city itself; a venue's city, in full when it was read by id. */
async function firstPlace(results: readonly Result[], cityId: string | undefined): Promise<Place | undefined> {
  const first = results[0];
  if (first === undefined || "country" in first) return first;
  const city = first.city;
  if (cityId === undefined || city === undefined || "name" in city.country) return city;
  return (await cityById(cityId)) ?? city;
}

export function hideReading(): void {
  lines++;
  out.reading.hidden = true;
  out.reading.replaceChildren();
}

/** The line for an answer read as `header` (X-Read-As; none: no line); `asTyped` searches `asked` as typed. */
export async function showReading(
  header: string | null,
  asked: string,
  searched: { kind: "venues" | "cities"; results: readonly Result[] },
  asTyped: () => void,
): Promise<void> {
  hideReading();
  if (header === null) return;
  const line = lines;
  const read = readAs(header);
  const first = await firstPlace(searched.results, read.cityId);
  if (line !== lines) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "link";
  button.textContent = `search for “${asked}” as typed`;
  button.addEventListener("click", asTyped);
  out.reading.append(`${readingWords(searched.kind, read, placeRead(read, first, countryName))} — `, button);
  out.reading.hidden = false;
}
