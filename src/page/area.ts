/**
 * The limit to the map's area: "search this area" searches the box the map shows (`bbox`,
 * src/page/bbox.ts), shown as a chip under the form. It ends when the chip is removed, the name
 * changes or "Where" is chosen, so that a later search is never kept in an old view unasked.
 */
import { fields, out } from "./dom.ts";
import { showReach, viewBox } from "./map.ts";
import { soon } from "./search.ts";
import { state } from "./state.ts";

/** Searches the box the map shows now, instead of near you. */
export function searchArea(): void {
  state.locating++; // a location still on its way is not wanted now
  fields.near.value = "";
  out.locate.textContent = "";
  showReach(null, 0);
  state.area = viewBox();
  out.limits.hidden = false;
  soon(true, 0);
}

/** Ends the limit; the change that ended it searches. */
export function endArea(): void {
  state.area = "";
  out.limits.hidden = true;
}

/** The chip's ✕: the same search without the limit (the focus goes back to the name, the chip is gone). */
export function removeArea(): void {
  endArea();
  fields.name.focus();
  soon(true, 0);
}
