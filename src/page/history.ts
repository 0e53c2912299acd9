/**
 * Each search written to the page's address (src/page/address.ts), so that Back and Forward walk
 * the searches done. A new search adds an entry to the history; the searches of one burst of
 * typing share one (a typed search replaces the entry of a typed search less than TYPING_MS
 * before it), so that Back goes to the search before "berlin" rather than to "ber"; Enter or a
 * search of any other kind ends the burst. The page's first search replaces the entry it opened
 * at (its address then says the search in full, without what the page left out), and a search
 * that Back or Forward restored writes nothing.
 */
import { addressQuery } from "./address.ts";
import { formSearch } from "./request.ts";

/** How a search is written to the history. */
export type Entry = "push" | "typed" | "replace" | "none";

/** Typing, as searched 250 ms after a pause (src/page/search.ts), goes on for up to this long between searches. */
const TYPING_MS = 2000;

/** When the current entry was written by a typed search; -Infinity when it was not. */
let typedAt = -Infinity;

export function record(entry: Entry): void {
  const query = addressQuery(formSearch());
  const address = `${location.pathname}${query ? `?${query}` : ""}`;
  if (entry === "none" || address === `${location.pathname}${location.search}`) {
    if (entry !== "typed") typedAt = -Infinity; // the same search again: a burst of typing goes on, anything else ends it
    return;
  }
  const now = performance.now();
  const sameBurst = entry === "typed" && now - typedAt < TYPING_MS;
  if (entry === "replace" || sameBurst) history.replaceState(null, "", address);
  else history.pushState(null, "", address);
  typedAt = entry === "typed" ? now : -Infinity;
}
