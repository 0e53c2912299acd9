/**
 * Where to search: anywhere, or near me (asks the browser where it is, once, then searches around
 * it, the map centred there). The map's area is src/page/area.ts.
 */
import { fields, out } from "./dom.ts";
import { showReach } from "./map.ts";
import { soon } from "./search.ts";
import { state } from "./state.ts";

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

export function near(): void {
  if (!fields.near.value) {
    state.locating++; // a location still on its way is not wanted now
    out.locate.textContent = "";
    showReach(null, 0);
    soon(true, 0);
    return;
  }
  if (state.position) {
    out.locate.textContent = `Near your location (${state.position.lat}, ${state.position.long}).`;
    out.locate.className = "note";
    showReach(state.position, Number(fields.near.value));
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
  out.status.textContent = "Waiting for your location …";
  navigator.geolocation.getCurrentPosition(
    (position) => {
      if (asking !== state.locating) return;
      state.position = { lat: position.coords.latitude.toFixed(4), long: position.coords.longitude.toFixed(4) };
      near();
    },
    (error) => {
      if (asking === state.locating) noLocation(locationError(error));
    },
    { timeout: 15_000, maximumAge: 600_000 },
  );
}
