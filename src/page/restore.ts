/**
 * The form set to the search the page's address names (src/page/address.ts): as the page opens
 * (a link, Reload) and when Back or Forward return to a search. Every field is set, the ones the
 * address does not name to their start; the map shows the point or the box searched. A language
 * or a radius the form does not offer is left out, as an unknown parameter is. The caller then
 * runs the search (src/page/search.ts).
 */
import { readAddress, type PageSearch } from "./address.ts";
import { boxEdges } from "./bbox.ts";
import { fields, form, out, showKindFields } from "./dom.ts";
import { showNear } from "./location.ts";
import { frameBox, showReach } from "./map.ts";
import { cancelSoon } from "./search.ts";
import { state } from "./state.ts";

/** Chooses the option `value` of a select; false (and the first option chosen) when it has none. */
function choose(select: HTMLSelectElement, value: string): boolean {
  select.value = value;
  if (select.value === value) return true;
  select.selectedIndex = 0;
  return false;
}

/** Near the point, or in the box, or anywhere. */
function setWhere(search: PageSearch): void {
  state.area = search.bbox;
  out.limits.hidden = search.bbox === "";
  const near = search.near !== null && choose(fields.near, search.near.radius) ? search.near : null;
  if (near === null) fields.near.value = "";
  else if (state.position?.lat !== near.lat || state.position.long !== near.long) {
    state.position = { lat: near.lat, long: near.long, fromAddress: true };
  }
  out.locate.textContent = "";
  showReach(null, 0);
  if (near) showNear();
  const edges = boxEdges(search.bbox);
  if (edges) frameBox(edges);
}

export function restore(): void {
  const search = readAddress(location.search);
  cancelSoon(); // a search typed before Back is not wanted now
  state.locating++; // nor a location still on its way
  const radio = form.querySelector(`input[name=kind][value=${search.kind}]`);
  if (radio instanceof HTMLInputElement) radio.checked = true;
  showKindFields();
  fields.name.value = search.name;
  fields.city.value = search.cityName;
  fields.country.value = search.country;
  fields.state.value = search.state;
  fields.typos.value = search.typos ? "1" : "0";
  choose(fields.lang, search.lang);
  choose(fields.view, search.view);
  state.asTyped = search.asTyped;
  state.record = search.id;
  state.page = search.page;
  setWhere(search);
}
