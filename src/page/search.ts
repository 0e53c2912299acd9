/**
 * Running the search the form asks for, or looking up the record chosen from the name's
 * suggestions: one request at a time (an earlier one is aborted, so that a stale answer never
 * overwrites a newer search, nor the page emptied or waiting for a location), written to the page's
 * address, then its answer shown.
 */
import type { CitiesPage, CityJson, VenueJson, VenuesPage } from "../shape.ts";
import { fields, kind, out, valueOf } from "./dom.ts";
import { foldAfterAnswer } from "./fold.ts";
import { record, settle, type Entry } from "./history.ts";
import { hasQuery, headers, nearMe, radius, searchPath, showCurl } from "./request.ts";
import { unplot } from "./map.ts";
import type { Result } from "./places.ts";
import { hideReading, showReading } from "./reading-line.ts";
import { clearRefusal, showRefusal } from "./refusal.ts";
import { clear, paging, render, showSuggestion } from "./results.ts";
import { state } from "./state.ts";
import { say, sayFound, sayRecord, saySearching } from "./status.ts";
import { readXml } from "./xml.ts";

/** The line of a page without a search (as the markup has it): two lines at most on a phone, as the answers are. */
const IDLE = "Type a name or a place, or search near you.";

type Body = VenuesPage | CitiesPage | { message?: string } | null;

/** What a search asked for, as it was when it was sent. */
interface Asked {
  kind: "venues" | "cities";
  params: URLSearchParams;
  /** The name as typed. */
  name: string;
  /** The reach of a search near a point, in words ("25 km of you"); "" for none. */
  near: string;
  /** Whether the map frames the results: searched anywhere (near you or in its area, it stays put), or one record looked up. */
  fit: boolean;
  /** The id of the record looked up; "" for a search. */
  record: string;
}

function parse(text: string): Body {
  try {
    return JSON.parse(text) as Body;
  } catch {
    return null;
  }
}

/** A lookup's one record as a page of it, so that it is listed and mapped as a search's results are. */
function onePage(body: Body | VenueJson | CityJson, kind: Asked["kind"]): Body {
  if (body === null || !("id" in body)) return body;
  const page = { itemsPerPage: 1, page: 1, total: 1 };
  return kind === "venues"
    ? { type: "venues", ...page, venue: [body as VenueJson] }
    : { type: "cities", ...page, cities: [body as CityJson] };
}

/** How the search waiting to run (`state.timer`) is written to the history; null when none waits. */
let waiting: Entry | null = null;

/**
 * The search, debounced: as you type, only the last keystroke's search runs, written to the
 * history as `entry` says (src/page/history.ts). A new search (`resetPage`) starts at its first
 * page, and ends the record chosen from the suggestions.
 */
export function soon(resetPage: boolean, delay = 250, entry: Entry = "push"): void {
  if (resetPage) {
    state.page = 1;
    state.record = "";
  }
  clearTimeout(state.timer);
  waiting = entry;
  state.timer = setTimeout(() => {
    const written = waiting ?? entry;
    waiting = null;
    void run(written);
  }, delay);
}

/** No search waits to run (Back or Forward, a suggestion chosen: the text typed before is not wanted now). */
export function cancelSoon(): void {
  clearTimeout(state.timer);
  waiting = null;
}

/**
 * A record opened (a suggestion chosen, a result's link): looked up by its id and shown as the
 * page's search, a search of its own (src/page/history.ts): the results of the text typed so far,
 * when they show, keep their entry, so that Back returns to them; a search of that text still
 * waiting is not wanted now.
 */
export function openRecord(result: Result): void {
  cancelSoon();
  fields.name.value = result.name;
  state.asTyped = false;
  state.page = 1;
  state.record = result.id;
  void run("push");
}

/**
 * A text field left (or Enter in it): what was typed there is a search the person ran, its entry
 * kept in the history, the one waiting to run as well as the one shown. Not folded after: a tap
 * elsewhere leaves the field, and a form folding under that tap would move what it lands on.
 */
export function settleTyping(): void {
  if (waiting === "typed") waiting = "left";
  else if (waiting === null) settle();
}

function showRaw(text: string): void {
  const view = fields.view.value;
  out.raw.hidden = view === "list";
  out.results.hidden = view !== "list";
  const body = view === "json" ? parse(text) : null;
  out.raw.textContent = body ? JSON.stringify(body, null, 2) : text;
}

/** An answer that is no result page, in words: nothing found, a record unknown, a refusal, the server failing. */
function showError(response: Response, body: Body, asked: Asked): void {
  state.total = 0;
  out.results.replaceChildren();
  void unplot();
  out.suggest.hidden = true;
  hideReading();
  const message = body && "message" in body && body.message ? body.message : response.statusText;
  const one = asked.kind === "venues" ? "venue" : "city";
  if (response.status === 404 && asked.record) say(`No ${one} has the id “${asked.record}”.`);
  else if (response.status === 404) void sayFound(asked, { total: 0, results: [], fuzzy: false });
  else if (response.status === 400) say(showRefusal(message, asked.params));
  else if (response.status === 429) say("Too many searches in a minute: wait a moment, then search again.");
  else say(`The server could not answer (${response.status}: ${message}): search again in a moment.`);
}

/** The answer: its results in the list and on the map (an XML one read for them too), and what it says of them. */
function showAnswer(response: Response, text: string, asked: Asked): void {
  clearRefusal();
  const body = response.headers.get("Content-Type")?.includes("xml") ? readXml(text) : onePage(parse(text), asked.kind);
  showRaw(text);
  if (!response.ok) return showError(response, body, asked);
  const results = body && "type" in body ? (body.type === "venues" ? body.venue : body.cities) : [];
  state.total = body && "total" in body ? body.total : 0;
  state.perPage = asked.kind === "venues" ? 30 : 50;
  if (body && "type" in body) render(body, asked.fit, openRecord);
  else void unplot();
  const fuzzy = response.headers.get("X-Match") === "fuzzy";
  showSuggestion(fuzzy ? response.headers.get("X-Corrected-Name") : null, asked.name);
  void showReading(response.headers.get("X-Read-As"), asked.name, { kind: asked.kind, results }, () => {
    state.asTyped = true;
    soon(true, 0);
  });
  const [first] = results;
  if (asked.record && first) sayRecord(asked.kind, first);
  else void sayFound(asked, { total: state.total, results, fuzzy });
}

/** How far from where a search near a point searches, in words: "25 km of you", or of the point an address named. */
function reach(): string {
  const p = state.position;
  if (p === null || !radius()) return "";
  return `${radius()} km of ${p.fromAddress ? `${p.lat}, ${p.long}` : "you"}`;
}

/**
 * Runs the search the form asks for, written to the page's address as `entry` says
 * (src/page/history.ts); whether its answer is shown (not when a later search, or waiting, stopped it).
 */
export async function run(entry: Entry): Promise<boolean> {
  // Whatever runs now, an answer still on its way is stale: it must not overwrite what follows.
  state.inflight?.abort();
  state.inflight = null;
  const path = searchPath();
  showCurl(path);
  if (nearMe() && !state.position && !state.record) return false; // searches once the location is known
  record(entry);
  if (!hasQuery()) {
    clearRefusal();
    clear(IDLE);
    return false;
  }
  const inflight = new AbortController();
  state.inflight = inflight;
  saySearching();
  const asked: Asked = {
    kind: kind(),
    params: new URL(path, location.origin).searchParams,
    name: valueOf(fields.name),
    near: reach(),
    fit: state.record !== "" || (!nearMe() && !state.area),
    record: state.record,
  };
  let response: Response;
  let text: string;
  try {
    response = await fetch(path, { headers: headers(), signal: inflight.signal });
    text = await response.text();
  } catch (error) {
    if (!inflight.signal.aborted)
      say(`The search could not reach the server (${String(error)}): search again in a moment.`);
    return false;
  }
  showAnswer(response, text, asked);
  paging();
  // Never while a person types: the name box would jump under their fingers, the fields around it gone.
  if (entry !== "typed" && entry !== "left") foldAfterAnswer();
  return true;
}
