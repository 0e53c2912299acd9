/**
 * The name's suggestions as you type (docs/api.md#suggestions), listed by src/page/combobox.ts:
 * asked SUGGEST_MS after the last keystroke, and at least every SUGGEST_EVERY_MS while keys keep
 * coming, so that they keep coming at a person's pace (a key every 150–200 ms: each request used to
 * be aborted by the next key, and a list came only after a pause). A request goes on while the text
 * still starts with the one it was asked for, and its answer is listed while it is newer than the
 * list shown: an answer for a start of the text shows while the next is asked, and an answer for an
 * older text never replaces the list of a newer one (requests older than the list shown, or for a
 * text the box no longer starts with, are aborted). They go with the form's filters and a focus:
 * the point of a search near you, else the map's centre while it shows a place (src/page/map.ts).
 * They write nothing to the page's address. Choosing one opens its record: looked up by id, listed
 * and on the map, and written to the address as a search of its own.
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

/** While keys keep coming without that pause, suggestions are asked this long after the first key not asked for. */
const SUGGEST_EVERY_MS = 300;

/** A request of suggestions on its way. */
interface Asking {
  text: string;
  kind: "venues" | "cities";
  /** Its place in the order asked (1, 2, …). */
  order: number;
  controller: AbortController;
}

/** The wait before suggestions are asked for; 0 when none is running. */
let timer = 0;

/** When the first keystroke not asked for yet was typed (performance.now()); 0 when none waits. */
let waitingSince = 0;

/** The requests on their way. */
let asking: Asking[] = [];

/** How many requests were asked, and the order of the one whose answer is listed. */
let asked = 0;
let listedOrder = 0;

/** Whether an answer for the request can still be listed: the box holds its text or more, of its kind. */
const stillFor = (request: Asking): boolean => valueOf(fields.name).startsWith(request.text) && kind() === request.kind;

function abortWhere(test: (request: Asking) => boolean): void {
  for (const request of asking.filter(test)) request.controller.abort();
  asking = asking.filter((request) => !test(request));
}

/**
 * No suggestions on their way (an answer for the text before is not wanted; Escape before the list
 * opened: no list now). Whether any were.
 */
export function dismissSuggestions(): boolean {
  const coming = timer !== 0 || asking.length > 0;
  clearTimeout(timer);
  timer = 0;
  waitingSince = 0;
  abortWhere(() => true);
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

/** The suggestions for `request`, asked with `query`; null when it was aborted. */
async function fetched(request: Asking, query: URLSearchParams): Promise<Result[] | null> {
  const headers = { Accept: "application/json", ...languageHeader(), ...keyHeader() };
  try {
    const path = `/1.0/suggest/${request.kind}?${query}`;
    return await answer(await fetch(path, { headers, signal: request.controller.signal }));
  } catch {
    return request.controller.signal.aborted ? null : []; // failed: nothing to suggest
  }
}

async function suggest(): Promise<void> {
  const search = formSearch();
  // The box left (Tab, another field) before the wait ended: nothing would be listed.
  if (search.name === "" || document.activeElement !== fields.name) return;
  const request = { text: search.name, kind: search.kind, order: ++asked, controller: new AbortController() };
  asking.push(request);
  const results = await fetched(request, suggestQuery(search, placeShown()));
  asking = asking.filter((r) => r !== request);
  // Aborted once its body had all come (Escape, another text): the answer is read, but not wanted.
  if (results === null || request.controller.signal.aborted) return;
  if (request.order < listedOrder || !stillFor(request)) return;
  listedOrder = request.order;
  abortWhere((r) => r.order < request.order); // older than the list shown: never listed
  listSuggestions(request.text, results);
}

/** Suggestions for the text as it is, `delay` ms from now (sooner while keys keep coming); none for no text. */
export function suggestSoon(delay = SUGGEST_MS): void {
  clearTimeout(timer);
  timer = 0;
  abortWhere((request) => !stillFor(request));
  if (valueOf(fields.name) === "") {
    waitingSince = 0;
    return closeList();
  }
  const now = performance.now();
  waitingSince ||= now;
  timer = setTimeout(
    () => {
      timer = 0;
      waitingSince = 0;
      void suggest();
    },
    Math.min(delay, Math.max(0, waitingSince + SUGGEST_EVERY_MS - now)),
  );
}

/** A suggestion chosen: its record opened (src/page/search.ts). */
export function openSuggestion(result: Result): void {
  stopSuggesting();
  openRecord(result);
}
