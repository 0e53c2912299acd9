/**
 * MusicBrainz places (core data CC0) as venues: one object per line as the JSON dump ships them
 * (`mbdump/place` of `place.tar.xz`) and as /ws/2/place answers (a lookup, or a search's `places`).
 * Fields read: `id`, `name`, `aliases`, `type`, `coordinates`, `area`, `address`, `life-span`, and
 * the URL `relations` (a place that links its setlist.fm venue page takes setlist.fm's id and url).
 */
import { setlistVenuePage } from "../../../src/data-contract/ids.ts";
import { RowError } from "../problems.ts";
import { hintOf, positionOf, venueName, type Skipped, type VenueInput } from "./venue-input.ts";
import { cleanName, isLatin, venueNames, type SourceNames } from "./venue-names.ts";
import type { VenueSelection } from "./venue-selection.ts";

const MBID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PLACE_KEYS = ["type-id", "life-span", "coordinates", "area", "address"];

/** Whether a JSON object reads as a MusicBrainz place. */
export function isMusicBrainzPlace(o: Record<string, unknown>): boolean {
  return typeof o.id === "string" && MBID.test(o.id) && "name" in o && PLACE_KEYS.some((k) => k in o);
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The towns an address may name: its parts after the street, without postcodes ("Kensington Gore, London SW7 2AP, UK"). */
function addressTowns(address: unknown): string[] {
  if (typeof address !== "string") return [];
  const parts = address.split(/[,\n]/).map((p) =>
    p
      .replace(/\b[A-Z0-9]*\d[A-Z0-9]*\b/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  );
  return parts.slice(1).filter((p) => p.length > 1);
}

/**
 * A place's aliases (each `name`, `locale`, `primary`, `type`: "Place name" or "Search hint"): a
 * primary alias names it in its locale's language; a Latin-script place name without a locale is
 * an international name; every alias is searched.
 */
function musicBrainzNames(o: Record<string, unknown>, name: string): SourceNames {
  const byLanguage = new Map<string, string>();
  const international: string[] = [];
  const others: string[] = [];
  for (const alias of Array.isArray(o.aliases) ? (o.aliases as unknown[]).map(record) : []) {
    const aliasName = cleanName(alias.name);
    if (aliasName === null) continue;
    const language = typeof alias.locale === "string" ? alias.locale.split(/[_-]/)[0]?.toLowerCase() : undefined;
    if (language !== undefined && alias.primary === true && !byLanguage.has(language))
      byLanguage.set(language, aliasName);
    else if (language === undefined && alias.type !== "Search hint" && isLatin(aliasName))
      international.push(aliasName);
    else others.push(aliasName);
  }
  return { name, byLanguage, international, others };
}

/**
 * The setlist.fm venue page a place links (a URL relation, `"type":"setlistfm"` in the dump and in
 * /ws/2/place?inc=url-rels), by its URL: a place with one is served under setlist.fm's id.
 */
function setlistPage(o: Record<string, unknown>): { id: string; url: string } | null {
  for (const relation of Array.isArray(o.relations) ? (o.relations as unknown[]).map(record) : []) {
    const resource = record(relation.url).resource;
    if (relation["target-type"] !== "url" || typeof resource !== "string") continue;
    const page = setlistVenuePage(resource);
    if (page !== null && relation.ended !== true) return page;
  }
  return null;
}

export function placeToVenue(
  o: Record<string, unknown>,
  selection: VenueSelection,
  file: string,
  at: number | string,
): VenueInput | Skipped {
  if (typeof o.id !== "string" || !MBID.test(o.id)) throw new RowError(`"id" is not a MusicBrainz id (MBID)`);
  const id = o.id;
  const kind = typeof o.type === "string" ? selection.musicbrainz.get(o.type) : undefined;
  if (kind === undefined) return { skipped: typeof o.type === "string" ? `type ${o.type}` : "no type" };
  if (typeof o.name !== "string" || o.name.trim() === "") return { skipped: "no name" };
  if (record(o["life-span"]).ended === true) return { skipped: "closed" };
  const coordinates = record(o.coordinates);
  const area = record(o.area);
  const hints = [hintOf(area.name, "area name", id), ...addressTowns(o.address).map((t) => hintOf(t, "address", id))];
  const setlist = setlistPage(o);
  return {
    id: setlist?.id ?? id,
    ...venueNames(musicBrainzNames(o, venueName(o.name, id))),
    cityId: null,
    url: setlist?.url ?? `https://musicbrainz.org/place/${id}`,
    ...(setlist === null ? {} : { ownLink: { id, url: `https://musicbrainz.org/place/${id}` } }),
    ...positionOf(coordinates.latitude, coordinates.longitude, id),
    kind,
    cityHints: hints.filter((h): h is string => h !== null),
    countryHint: null,
    source: "musicbrainz",
    file,
    at,
  };
}
