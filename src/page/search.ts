/** Running the search the form asks for: one request at a time (an earlier one is aborted), then its answer shown. */
import type { CitiesPage, VenuesPage } from "../shape.ts";
import { fields, kind, out, valueOf } from "./dom.ts";
import { hasQuery, headers, nearMe, radius, searchPath, showCurl } from "./request.ts";
import { unplot } from "./map.ts";
import { clear, paging, render, showSuggestion } from "./results.ts";
import { state } from "./state.ts";

const IDLE = "Type a name, choose a country or state, or search near you.";

type Body = VenuesPage | CitiesPage | { message?: string } | null;

function parse(text: string): Body {
  try {
    return JSON.parse(text) as Body;
  } catch {
    return null;
  }
}

/** The search, debounced: as you type, only the last keystroke's search runs. */
export function soon(resetPage: boolean, delay = 250): void {
  if (resetPage) state.page = 1;
  clearTimeout(state.timer);
  state.timer = setTimeout(() => void run(), delay);
}

function showRaw(text: string): void {
  const view = fields.view.value;
  out.raw.hidden = view === "list";
  out.results.hidden = view !== "list";
  const body = view === "json" ? parse(text) : null;
  out.raw.textContent = body ? JSON.stringify(body, null, 2) : text;
}

function showError(response: Response, body: Body): void {
  state.total = 0;
  out.results.replaceChildren();
  void unplot();
  out.suggest.hidden = true;
  const message = body && "message" in body && body.message ? body.message : response.statusText;
  out.status.textContent = response.status === 404 ? "No matches." : `Error ${response.status}: ${message}`;
}

function showAnswer(response: Response, text: string, asked: string, near: string): void {
  const body = parse(text);
  if (!response.ok) return showError(response, body);
  const searched = kind();
  state.total = body && "total" in body ? body.total : Number(/total="(\d+)"/.exec(text)?.[1] ?? 0);
  state.perPage = searched === "venues" ? 30 : 50;
  // The map frames the results searched anywhere; near you or in its area, it stays put.
  if (body && "type" in body) render(body, fields.near.value === "");
  else void unplot(); // XML: no list to map
  const fuzzy = response.headers.get("X-Match") === "fuzzy";
  showSuggestion(fuzzy ? response.headers.get("X-Corrected-Name") : null, asked, () => soon(true, 0));
  const one = searched === "venues" ? "venue" : "city";
  out.status.textContent =
    `${state.total.toLocaleString()} ${state.total === 1 ? one : searched} found` +
    (near ? ` within ${near} km of you` : "") +
    (fuzzy ? ", forgiving typos" : "") +
    (response.headers.get("X-Cache") === "HIT" ? " (cached)" : "") +
    ".";
}

export async function run(): Promise<void> {
  const path = searchPath();
  showCurl(path);
  if (nearMe() && !state.position) return; // searches once the location is known
  if (!hasQuery()) return clear(IDLE);
  state.inflight?.abort();
  const inflight = new AbortController();
  state.inflight = inflight;
  out.status.textContent = "Searching …";
  const asked = valueOf(fields.name);
  const near = radius();
  let response: Response;
  let text: string;
  try {
    response = await fetch(path, { headers: headers(), signal: inflight.signal });
    text = await response.text();
  } catch (error) {
    if (!inflight.signal.aborted) out.status.textContent = `The search failed: ${String(error)}`;
    return;
  }
  showRaw(text);
  showAnswer(response, text, asked, near);
  paging();
}
