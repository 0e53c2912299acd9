/**
 * The search page's script (docs/architecture.md#the-search-page), bundled for the browser into
 * public/app.js by scripts/page/build.ts (wrangler runs it before `wrangler dev` and deploy), and
 * served as a static asset. It searches as you type (debounced, earlier requests aborted), near
 * the browser's location within a chosen radius, forgiving typos (with "did you mean"), tells a
 * place read at the end of the name (with the name as typed a click away), pages, shows raw JSON
 * or XML, the curl command, and the results on a map (src/page/map.ts), whose area it can search.
 * On a narrow screen the form folds after a search and the map waits behind "Show map". Results
 * are built with textContent only.
 */
import { endArea, removeArea, searchArea } from "./area.ts";
import { copyCurl } from "./copy.ts";
import { fields, form, kind, out } from "./dom.ts";
import { askedWithEnter, toggleOptions } from "./fold.ts";
import { near } from "./location.ts";
import { showMap } from "./map.ts";
import { showCurl } from "./request.ts";
import { run, soon } from "./search.ts";
import { state } from "./state.ts";

/** The City field is for venues: a city search has no cities to filter by. */
function showKindFields(): void {
  const cities = kind() === "cities";
  out.cityField.hidden = cities;
  fields.city.disabled = cities;
}

form.addEventListener("submit", (e) => {
  e.preventDefault();
  askedWithEnter();
  soon(true, 0);
});
form.addEventListener("input", (e) => {
  const id = e.target instanceof HTMLElement ? e.target.id : "";
  if (id === "name") {
    // A new name: read for a place again, and searched anywhere again.
    state.asTyped = false;
    endArea();
  }
  if (id === "near") {
    endArea();
    near();
  } else soon(id !== "view" && id !== "lang");
});
form.addEventListener("change", (e) => {
  if (!(e.target instanceof HTMLInputElement && e.target.name === "kind")) return;
  showKindFields();
  soon(true);
});
out.options.addEventListener("click", toggleOptions);
out.unarea.addEventListener("click", removeArea);
out.showMap.addEventListener("click", () => showMap(out.showMap.getAttribute("aria-expanded") !== "true"));
out.prev.addEventListener("click", () => {
  state.page--;
  void run();
});
out.next.addEventListener("click", () => {
  state.page++;
  void run();
});
out.copy.addEventListener("click", () => void copyCurl());
out.area.addEventListener("click", searchArea);
showKindFields();
showCurl("/1.0/search/venues");
