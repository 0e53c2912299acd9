/**
 * Showing an answer: the list of results, the "did you mean" line and the paging. Each result is one
 * Tab stop, its own link: its name, to its record on this page (src/page/address.ts), which a plain
 * click opens here and a middle click in a tab of its own; beside the name, the name that matched
 * when it is another (src/page/matched.ts), so that a result says why it is there, as a suggestion does.
 */
import type { CitiesPage, VenuesPage } from "../shape.ts";
import { addressQuery } from "./address.ts";
import { fields, out, span } from "./dom.ts";
import { plot, unplot } from "./map.ts";
import { otherName } from "./matched.ts";
import { hideReading } from "./reading-line.ts";
import { whereIs, type Result } from "./places.ts";
import { formSearch } from "./request.ts";
import { state } from "./state.ts";
import { say } from "./status.ts";

/**
 * The result's name as a link to its record: the form as it is, the name the record's, looked up by
 * id. The name that matched, when it is another, is in the link too ("Saint Petersburg · Leningrad"),
 * so that its name, as a screen reader reads it, says why it is there. Unmarked, unlike an option's:
 * the link's own underline would hide a mark's.
 */
function recordLink(result: Result, open: (result: Result) => void): HTMLAnchorElement {
  const link = document.createElement("a");
  link.append(span(result.name, "name"));
  const other = otherName(result.name, result.matched);
  if (other !== null) link.append(" · ", span(other, "matched"));
  link.href = `/?${addressQuery({ ...formSearch(), id: result.id, name: result.name, page: 1 })}`;
  link.addEventListener("click", (e) => {
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return; // the browser's own: a new tab, a window
    e.preventDefault();
    open(result);
  });
  return link;
}

function item(result: Result, open: (result: Result) => void): HTMLLIElement {
  const li = document.createElement("li");
  li.append(recordLink(result, open));
  const parts: (string | Node)[] = [];
  if (result.distance !== undefined) parts.push(span(`${result.distance.toFixed(1)} km away`, "distance"));
  parts.push("country" in result || result.city ? whereIs(result) : "no city");
  if (!("country" in result)) parts.push(result.kind);
  const meta = document.createElement("div");
  meta.className = "meta";
  parts.filter((part) => part !== "").forEach((part, i) => meta.append(...(i ? [" · ", part] : [part])));
  li.append(meta);
  return li;
}

/** Shows a page of results, in the list and on the map (`fit`: framed there); `open` opens a result's record. */
export function render(body: VenuesPage | CitiesPage, fit: boolean, open: (result: Result) => void): void {
  const items = body.type === "venues" ? body.venue : body.cities;
  out.results.replaceChildren(...items.map((result) => item(result, open)));
  void plot(items, fit);
}

/**
 * A page turned: the list (or the raw answer) from its start, focused, as a new page opens. The focus
 * was on the pager, under the end of the page before; the view moves only when the start is out of it.
 */
export function showFromStart(): void {
  const shown = out.results.hidden ? out.raw : out.results;
  shown.focus({ preventScroll: true });
  const { top } = shown.getBoundingClientRect();
  if (top < 0 || top >= innerHeight) shown.scrollIntoView({ block: "start" });
}

export function paging(): void {
  const pages = Math.max(1, Math.ceil(state.total / state.perPage));
  out.pageinfo.textContent = state.total ? `Page ${state.page} of ${pages.toLocaleString()}` : "";
  out.prev.disabled = state.page <= 1;
  out.next.disabled = state.page >= pages;
}

/**
 * "Did you mean": a fuzzy answer names the corrected query (the X-Corrected-Name header,
 * percent-encoded); a click puts it in the name, as if typed (a new name: searched).
 */
export function showSuggestion(corrected: string | null, asked: string): void {
  out.suggest.replaceChildren();
  out.suggest.hidden = corrected === null;
  if (corrected === null) return;
  let name = corrected;
  try {
    name = decodeURIComponent(corrected);
  } catch {
    // shown as sent
  }
  const button = document.createElement("button");
  button.type = "button";
  button.className = "link";
  button.textContent = name;
  button.setAttribute("aria-label", `Search for “${name}”`);
  button.addEventListener("click", () => {
    fields.name.value = name;
    fields.name.focus();
    fields.name.dispatchEvent(new Event("input", { bubbles: true }));
  });
  out.suggest.append("Did you mean ", button, `? Nothing matched “${asked}” exactly; these are the closest names.`);
}

/** Nothing asked: nothing shown. */
export function clear(message: string): void {
  out.results.replaceChildren();
  void unplot();
  out.raw.hidden = true;
  out.suggest.hidden = true;
  hideReading();
  state.total = 0;
  paging();
  say(message);
}
