/**
 * A venue as every reader hands it to the build (phases/venue-rows.ts), and the field checks they
 * share. `at` is where the record is in its file: a line number, or a JSON path in a one-document
 * file, so that later checks (an id used twice, a city that is not imported) still point at it.
 */
import { GEO_ID, VENUE_ID, VENUE_ID_RULE } from "../../../src/data-contract/ids.ts";
import { normalize } from "../../../src/data-contract/normalize.ts";
import { isVenueKind, VENUE_KINDS, type VenueKind } from "../../../src/data-contract/venue-kinds.ts";
import { CONTROL, RowError } from "../problems.ts";
import type { VenueNames } from "./venue-names.ts";

/** Where a record came from: its licence and its link follow from it. */
type VenueSource = "generated" | "file" | "musicbrainz" | "openstreetmap";

export interface VenueInput extends VenueNames {
  id: string;
  /** GeoNames id of the venue's city, or null (none given: placed by hint and position). */
  cityId: string | null;
  url: string | null;
  /** The venue's own position, when its source has one. */
  lat: number | null;
  lng: number | null;
  kind: VenueKind;
  /** The city names its source gives, best first (OSM addr:city, MusicBrainz area), matched among GeoNames places. */
  cityHints: string[];
  /** ISO country code its source names, if any: narrows a hint without a position. */
  countryHint: string | null;
  source: VenueSource;
  /** The source's own id and link, when `id` and `url` are those of the setlist.fm page it links. */
  ownLink?: { id: string; url: string };
  file: string;
  at: number | string;
}

/** A record that is not a venue, or cannot be one: counted by reason, not an error. */
export interface Skipped {
  skipped: string;
}

const MAX_NAME = 300;
const MAX_URL = 2000;
const MAX_HINT = 200;

const given = (value: unknown) => value !== null && value !== undefined && value !== "";

export function venueId(value: unknown): string {
  const id = typeof value === "string" ? value.trim() : "";
  if (!VENUE_ID.test(id)) throw new RowError(`venue id "${String(value ?? "").slice(0, 80)}" is not ${VENUE_ID_RULE}`);
  return id;
}

export function venueName(value: unknown, id: string): string {
  const name = typeof value === "string" ? value.trim().replace(/\s+/g, " ") : "";
  if (name === "") throw new RowError(`venue ${id} has no name`);
  if (CONTROL.test(name)) throw new RowError(`venue ${id}: name contains a control character`);
  if (name.length > MAX_NAME) throw new RowError(`venue ${id}: name is longer than ${MAX_NAME} characters`);
  return name;
}

export function cityIdOf(value: unknown, id: string): string | null {
  if (!given(value)) return null;
  const c = String(value).trim();
  if (!GEO_ID.test(c)) throw new RowError(`venue ${id}: cityId "${c.slice(0, 80)}" is not a GeoNames id`);
  return c;
}

export function urlOf(value: unknown, id: string): string | null {
  if (!given(value)) return null;
  if (typeof value !== "string") throw new RowError(`venue ${id}: url is not a string`);
  const url = value.trim();
  if (url.length > MAX_URL || !/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) {
    throw new RowError(`venue ${id}: url "${url.slice(0, 80)}" is not an http(s) URL`);
  }
  return url;
}

/** One coordinate: a JSON number or a decimal string, within ±limit. */
function coordinate(value: unknown, what: string, limit: number, id: string): number {
  const n =
    typeof value === "number"
      ? value
      : typeof value === "string" && /^-?\d+(\.\d+)?$/.test(value.trim())
        ? Number(value)
        : NaN;
  if (!Number.isFinite(n)) throw new RowError(`venue ${id}: ${what} "${String(value).slice(0, 40)}" is not a number`);
  if (Math.abs(n) > limit) throw new RowError(`venue ${id}: ${what} ${n} is outside ±${limit}`);
  return n;
}

/** A position: both coordinates or neither. */
export function positionOf(lat: unknown, lng: unknown, id: string): { lat: number | null; lng: number | null } {
  if (!given(lat) && !given(lng)) return { lat: null, lng: null };
  if (!given(lat) || !given(lng)) throw new RowError(`venue ${id}: lat and long go together`);
  return { lat: coordinate(lat, "latitude", 90, id), lng: coordinate(lng, "longitude", 180, id) };
}

/** A free-text hint (a city's name): trimmed, no control characters; null when absent. */
export function hintOf(value: unknown, what: string, id: string): string | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  const hint = value.trim();
  if (CONTROL.test(hint)) throw new RowError(`venue ${id}: ${what} contains a control character`);
  if (hint.length > MAX_HINT) throw new RowError(`venue ${id}: ${what} is longer than ${MAX_HINT} characters`);
  return hint;
}

const NAME_KINDS: [RegExp, VenueKind][] = [
  [/\b(stadium|stadion|stadio|estadio|stade)\b/i, "stadium"],
  [/\b(arena)\b/i, "arena"],
  [/\b(amphitheat(re|er)|open air)\b/i, "amphitheatre"],
  [/\b(theat(re|er)|teatro|théâtre|theater)\b/i, "theatre"],
  [/\b(club|klub|клуб)\b/i, "club"],
  [/\b(concert hall|konzerthaus|philharmoni\w*|auditorium)\b/i, "concert hall"],
  [/\b(festival)\b/i, "festival"],
];

/** A generated venue's kind, read from its name ("Stadthalle" is a venue, "Arena Berlin" an arena). */
export function kindFromName(name: string): VenueKind {
  return NAME_KINDS.find(([pattern]) => pattern.test(name))?.[1] ?? "venue";
}

/** A row's own kind (any spelling of one of VENUE_KINDS), or "venue" without one. */
export function kindOf(value: unknown, id: string): VenueKind {
  if (!given(value)) return "venue";
  const kind = normalize(String(value));
  if (isVenueKind(kind)) return kind;
  throw new RowError(`venue ${id}: kind "${String(value).slice(0, 40)}" is not one of ${VENUE_KINDS.join(", ")}`);
}
