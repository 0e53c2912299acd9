/**
 * The search page's script (docs/architecture.md#the-search-page), bundled for the browser into
 * public/app.js by scripts/page/build.ts (wrangler runs it before `wrangler dev` and deploy), and
 * served as a static asset. It searches as you type (debounced, earlier requests aborted), near
 * the browser's location within a chosen radius, forgiving typos (with "did you mean"), tells a
 * place read at the end of the name (with the name as typed a click away), pages, shows raw JSON
 * or XML, the curl command, and the results on a map (src/page/map.ts), whose area it can search.
 * On a narrow screen the form folds after a search run (never as you type) and the map waits
 * behind "Show map". The name box suggests names as you type (src/page/suggest.ts, a combobox:
 * src/page/combobox.ts); one chosen opens its record. Its search, or the record opened, is in its address
 * (src/page/address.ts): a link or Reload opens it, Back and Forward walk the searches run.
 * Results are built with textContent only.
 */
import { endArea, removeArea, searchArea } from "./area.ts";
import { combobox } from "./combobox.ts";
import { copyCurl } from "./copy.ts";
import { form, out, showKindFields } from "./dom.ts";
import { askedWithEnter, toggleOptions } from "./fold.ts";
import { near } from "./location.ts";
import { showMap } from "./map.ts";
import { restore } from "./restore.ts";
import { showFromStart } from "./results.ts";
import { run, settleTyping, soon } from "./search.ts";
import { state } from "./state.ts";
import { dismissSuggestions, openSuggestion, stopSuggesting, suggestSoon } from "./suggest.ts";

combobox({ want: () => suggestSoon(0), choose: openSuggestion, dismiss: dismissSuggestions });
form.addEventListener("submit", (e) => {
  e.preventDefault();
  askedWithEnter();
  stopSuggesting(); // the text is searched: a list of suggestions arriving now would push its answer down
  soon(true, 0, "ran");
});
/** A person typing in a text field (a "did you mean" taken is a search of its own). */
const typing = (e: Event): boolean => e.isTrusted && e.target instanceof HTMLInputElement && e.target.type !== "radio";
/** A text field edited by the person: typed, or the name emptied by Escape (src/page/combobox.ts), as if deleted. */
const edited = (e: Event): boolean => typing(e) || (e instanceof InputEvent && e.inputType.startsWith("delete"));

form.addEventListener("input", (e) => {
  if (!(e.target instanceof HTMLElement) || (e.target instanceof HTMLInputElement && e.target.type === "radio")) {
    return; // the kind: its change, below
  }
  const id = e.target.id;
  if (id === "name") {
    // A new name: read for a place again, and searched anywhere again.
    state.asTyped = false;
    endArea();
    // Suggestions follow a person's typing, not a name the page put in the box ("did you mean", Escape).
    if (typing(e)) suggestSoon();
    else stopSuggesting();
  }
  if (id === "near") {
    endArea();
    near();
  } else soon(id !== "view" && id !== "lang", 250, edited(e) ? "typed" : "push");
});
form.addEventListener("change", (e) => {
  if (!(e.target instanceof HTMLInputElement)) return; // a list's choice searched as it was made (input)
  if (e.target.name !== "kind") return settleTyping();
  // The other kind searched, as you type: the search being put together, not one of its own.
  showKindFields();
  soon(true, 250, "typed");
});
out.options.addEventListener("click", toggleOptions);
out.unarea.addEventListener("click", removeArea);
out.showMap.addEventListener("click", () => showMap(out.showMap.getAttribute("aria-expanded") !== "true"));
/** A page turned: shown from its start, as a new page opens (the view stayed at the pager, at the new page's end). */
async function turn(by: number): Promise<void> {
  state.page += by;
  if (await run("push")) showFromStart();
}
out.prev.addEventListener("click", () => void turn(-1));
out.next.addEventListener("click", () => void turn(1));
out.copy.addEventListener("click", () => void copyCurl());
out.area.addEventListener("click", searchArea);
// Back and Forward: the search of the entry returned to, run again without adding an entry.
addEventListener("popstate", () => {
  stopSuggesting();
  restore();
  void run("none");
});
// The search the page's address names (none: the page as it opens), its address then written in full.
restore();
void run("opened");
