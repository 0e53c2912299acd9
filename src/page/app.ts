/**
 * The search page's script (docs/architecture.md#the-search-page), bundled for the browser into
 * public/app.js by scripts/page/build.ts (wrangler runs it before `wrangler dev` and deploy), and
 * served as a static asset. It searches as you type (debounced, earlier requests aborted), near
 * the browser's location within a chosen radius, forgiving typos (with "did you mean"), pages,
 * shows raw JSON or XML, the curl command, and the results on a map (src/page/map.ts), whose area
 * it can search. Results are built with textContent only.
 */
import { fields, form, out } from "./dom.ts";
import { near } from "./location.ts";
import { showCurl } from "./request.ts";
import { run, soon } from "./search.ts";
import { state } from "./state.ts";

form.addEventListener("submit", (e) => {
  e.preventDefault();
  soon(true);
});
form.addEventListener("input", (e) => {
  const id = e.target instanceof HTMLElement ? e.target.id : "";
  if (id === "near") near();
  else soon(id !== "view" && id !== "lang");
});
form.addEventListener("change", (e) => {
  if (e.target instanceof HTMLInputElement && e.target.name === "kind") soon(true);
});
out.prev.addEventListener("click", () => {
  state.page--;
  void run();
});
out.next.addEventListener("click", () => {
  state.page++;
  void run();
});
out.copy.addEventListener("click", () => void navigator.clipboard.writeText(out.curl.textContent ?? ""));
out.area.addEventListener("click", () => {
  fields.near.value = "area";
  near();
});
showCurl("/1.0/search/venues");
