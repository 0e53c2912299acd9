/**
 * Which records of the open sources are venues (docs/import.md#real-venues), and their kind:
 * MusicBrainz place types and OpenStreetMap tags, each list replaceable by an import option.
 */
import type { VenueKind } from "../../../src/data-contract/venue-kinds.ts";
import { ImportError } from "../problems.ts";

export interface VenueSelection {
  /** MusicBrainz place type (as the dump spells it) → kind. */
  musicbrainz: ReadonlyMap<string, VenueKind>;
  /** OSM `key=value` → kind. */
  osm: ReadonlyMap<string, VenueKind>;
}

const MUSICBRAINZ_TYPES: [string, VenueKind][] = [
  ["Venue", "venue"],
  ["Club", "club"],
  ["Concert hall / Theatre", "concert hall"],
  ["Amphitheatre", "amphitheatre"],
  ["Festival stage", "festival"],
  ["Stadium", "stadium"],
  ["Indoor arena", "arena"],
];

const OSM_TAGS: [string, VenueKind][] = [
  ["amenity=music_venue", "venue"],
  ["amenity=concert_hall", "concert hall"],
  ["amenity=nightclub", "club"],
  ["amenity=theatre", "theatre"],
  ["amenity=arts_centre", "venue"],
  ["amenity=events_venue", "venue"],
  ["leisure=stadium", "stadium"],
];

export const DEFAULT_SELECTION: VenueSelection = {
  musicbrainz: new Map(MUSICBRAINZ_TYPES),
  osm: new Map(OSM_TAGS),
};

/**
 * The selection with either list replaced by a comma-separated one (`--musicbrainz-types`,
 * `--osm-tags`); a type or tag of the default list keeps its kind, any other is "other".
 */
export function selectionWith(musicbrainzTypes?: string, osmTags?: string): VenueSelection {
  const list = (text: string, defaults: ReadonlyMap<string, VenueKind>, valid: RegExp, flag: string) => {
    const items = text
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const bad = items.find((i) => !valid.test(i));
    if (items.length === 0 || bad !== undefined) throw new ImportError(`${flag}: "${bad ?? text}" is not a valid item`);
    return new Map(items.map((i): [string, VenueKind] => [i, defaults.get(i) ?? "other"]));
  };
  return {
    musicbrainz:
      musicbrainzTypes === undefined
        ? DEFAULT_SELECTION.musicbrainz
        : list(musicbrainzTypes, DEFAULT_SELECTION.musicbrainz, /^[^,=]{1,60}$/, "--musicbrainz-types"),
    osm:
      osmTags === undefined
        ? DEFAULT_SELECTION.osm
        : list(osmTags, DEFAULT_SELECTION.osm, /^[\w:]+=[\w:;-]+$/, "--osm-tags"),
  };
}
