/**
 * The name's suggestions as you type (docs/api.md#suggestions), listed by src/page/combobox.ts:
 * asked SUGGEST_MS after the last keystroke, the request before it aborted, and an answer listed
 * only while it is the latest and the text is still the one it suggests for, so that an answer for
 * an older text never replaces the list of a newer one. They go with the form's filters and a
 * focus: the point of a search near you, else the map's centre while it shows a place
 * (src/page/map.ts). They write nothing to the page's address. Choosing one opens its record: looked
 * up by id, listed and on the map, and written to the address as a search of its own.
 */
import type { CitiesPage, VenuesPage } from "../shape.ts";
import { suggestQuery } from "./address.ts";
import { closeList, listSuggestions } from "./combobox.ts";
import { fields, kind, valueOf } from "./dom.ts";
import { placeShown } from "./map.ts";
import type { Result } from "./places.ts";
import { formSearch, keyHeader, languageHeader } from "./request.ts";
import { openRecord } from "./search.ts";

/** A pause in typing this long asks for suggestions: the keystrokes of a quick typist do not each ask. */
const SUGGEST_MS = 150;

/** The pause before suggestions are asked for; 0 when none is running. */
let timer = 0;

/** The request of the latest suggestions; null when none is on its way. */
let asking: AbortController | null = null;

/**
 * No suggestions on their way (an answer for the text before is not wanted; Escape before the list
 * opened: no list now). Whether any were.
 */
export function dismissSuggestions(): boolean {
  const coming = timer !== 0 || asking !== null;
  clearTimeout(timer);
  timer = 0;
  asking?.abort();
  asking = null;
  return coming;
}

/** No suggestions on their way, and none listed. */
export function stopSuggesting(): void {
  dismissSuggestions();
  closeList();
}

async function answer(response: Response): Promise<Result[]> {
  if (!response.ok) return []; // nothing to suggest: the search itself says what is wrong
  const body = (await response.json()) as VenuesPage | CitiesPage;
  return body.type === "venues" ? body.venue : body.cities;
}

async function suggest(): Promise<void> {
  const search = formSearch();
  // The box left (Tab, another field) before the pause ended: nothing would be listed.
  if (search.name === "" || document.activeElement !== fields.name) return;
  const asked = new AbortController();
  asking = asked;
  let results: Result[] = [];
  try {
    const query = suggestQuery(search, placeShown());
    const headers = { Accept: "application/json", ...languageHeader(), ...keyHeader() };
    results = await answer(await fetch(`/1.0/suggest/${search.kind}?${query}`, { headers, signal: asked.signal }));
  } catch {
    // aborted, or failed: nothing to suggest
  }
  if (asking !== asked || valueOf(fields.name) !== search.name || kind() !== search.kind) return;
  asking = null;
  listSuggestions(search.name, results);
}

/** Suggestions for the text as it is, `delay` ms from now; none for no text (the list closes). */
export function suggestSoon(delay = SUGGEST_MS): void {
  dismissSuggestions();
  if (valueOf(fields.name) === "") closeList();
  else
    timer = setTimeout(() => {
      timer = 0;
      void suggest();
    }, delay);
}

/** A suggestion chosen: its record opened (src/page/search.ts). */
export function openSuggestion(result: Result): void {
  stopSuggesting();
  openRecord(result);
}
