/**
 * Each search written to the page's address (src/page/address.ts), so that Back and Forward walk
 * the searches a person ran, one entry each. The search being put together — a name or a filter
 * typed, the kind switched, each searched as you type — keeps to one entry, marked as typed in
 * its state: the first such search after a search run adds it, the next ones replace it. Running
 * it (Enter, the field left) keeps that entry as the search run. A search of its own (a record
 * opened from a suggestion or a result, a page, a filter chosen from a list, the map's area, "did
 * you mean") adds an entry after the one shown, which it keeps as run: Back from a suggestion chosen
 * returns to the results of the name typed to find it. So Back from a search returns to the one
 * shown before it, never to a name on its way to the one entered, nor the other kind's search of it.
 * The page's first search replaces the entry it opened at (its address then says the search in
 * full, without what the page left out), and a search that Back or Forward restored writes nothing.
 */
import { addressQuery } from "./address.ts";
import { formSearch } from "./request.ts";

/**
 * How a search is written to the history: `typed` as it is put together; `ran` run by the person
 * (Enter; `left`: the field left, which the form does not fold after); `push` a search of its own;
 * `opened` the page's first; `none` restored by Back or Forward.
 */
export type Entry = "typed" | "ran" | "left" | "push" | "opened" | "none";

/** What the page keeps in an entry's state: whether it holds a search still being typed. */
interface EntryState {
  typed: boolean;
}

const isTyped = (): boolean => (history.state as Partial<EntryState> | null)?.typed === true;

const here = (): string => `${location.pathname}${location.search}`;

export function record(entry: Entry): void {
  if (entry === "none") return;
  const query = addressQuery(formSearch());
  const address = `${location.pathname}${query ? `?${query}` : ""}`;
  const state: EntryState = { typed: entry === "typed" };
  if (entry === "opened" || (isTyped() && entry !== "push")) return history.replaceState(state, "", address);
  if (address === here()) return settle(); // the same search again
  settle(); // the typed search shown stays, as run, before the new one
  history.pushState(state, "", address);
}

/** The typed search shown becomes a search run, its entry kept (its field left, say). */
export function settle(): void {
  if (isTyped()) history.replaceState({ typed: false } satisfies EntryState, "", here());
}
