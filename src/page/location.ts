/**
 * Where to search: anywhere, or near me (asks the browser where it is, once, then searches around
 * it, the map centred there). A search near a point that the page's address names (a link, Reload,
 * Back: src/page/restore.ts) searches near that point, said as such, until "Where" is chosen
 * again. The map's area is src/page/area.ts.
 */
import { fields, out } from "./dom.ts";
import { showReach } from "./map.ts";
import { soon } from "./search.ts";
import { state } from "./state.ts";
import { say } from "./status.ts";

function noLocation(message: string): void {
  fields.near.value = "";
  showReach(null, 0);
  out.locate.textContent = `${message} Searching everywhere.`;
  out.locate.className = "note warn";
  soon(true, 0);
}

function locationError(error: GeolocationPositionError): string {
  if (error.code === error.PERMISSION_DENIED) {
    return "Location permission was denied: allow it for this site to search near you.";
  }
  return error.code === error.TIMEOUT ? "Finding your location took too long." : "Your location is unavailable.";
}

/** Says where "near me" searches, and shows its reach on the map. */
export function showNear(): void {
  const p = state.position;
  if (p === null) return;
  out.locate.textContent = p.fromAddress
    ? `Near ${p.lat}, ${p.long}, the point of the search this page's address names.`
    : `Near your location (${p.lat}, ${p.long}).`;
  out.locate.className = "note";
  showReach(p, Number(fields.near.value));
}

/** "Where" chosen: anywhere, or near the browser's location within the radius chosen. */
export function near(): void {
  // Chosen now, "near me" is where the browser is, not a point an address named.
  if (state.position?.fromAddress) state.position = null;
  if (!fields.near.value) {
    state.locating++; // a location still on its way is not wanted now
    out.locate.textContent = "";
    showReach(null, 0);
    soon(true, 0);
    return;
  }
  if (state.position) {
    showNear();
    soon(true, 0);
    return;
  }
  if (!("geolocation" in navigator)) {
    noLocation("This browser cannot share its location (it needs a secure connection).");
    return;
  }
  const asking = ++state.locating;
  out.locate.textContent = "Finding your location …";
  out.locate.className = "note";
  say("Waiting for your location …");
  navigator.geolocation.getCurrentPosition(
    (position) => {
      if (asking !== state.locating) return;
      const { latitude, longitude } = position.coords;
      state.position = { lat: latitude.toFixed(4), long: longitude.toFixed(4), fromAddress: false };
      near();
    },
    (error) => {
      if (asking === state.locating) noLocation(locationError(error));
    },
    { timeout: 15_000, maximumAge: 600_000 },
  );
}
