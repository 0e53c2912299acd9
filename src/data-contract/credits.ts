/**
 * Who the served data comes from, and under which licence (docs/api.md#data-credits): GeoNames
 * always (the cities), OpenStreetMap and MusicBrainz when the import took venues from them. The
 * import records its venue sources in meta `venue_sources` (comma-separated: generated, file,
 * musicbrainz, openstreetmap); the OpenAPI document and the search page credit what it names.
 */

export interface Credit {
  /** What the source gave: "Cities and their names", "Venues". */
  what: string;
  name: string;
  url: string;
  licence: string;
  licenceUrl: string;
}

export interface Credits {
  sources: Credit[];
  /** Whether some venues are the import's generated examples (not real places). */
  generatedVenues: boolean;
}

const GEONAMES: Credit = {
  what: "Cities and their names",
  name: "GeoNames",
  url: "https://www.geonames.org/",
  licence: "CC BY 4.0",
  licenceUrl: "https://creativecommons.org/licenses/by/4.0/",
};

/** The venue sources that ask for credit, in the order they are named. */
const VENUE_CREDITS: Record<string, Credit> = {
  openstreetmap: {
    what: "Venues",
    name: "© OpenStreetMap contributors",
    url: "https://www.openstreetmap.org/copyright",
    licence: "ODbL",
    licenceUrl: "https://opendatacommons.org/licenses/odbl/",
  },
  musicbrainz: {
    what: "Venues",
    name: "MusicBrainz",
    url: "https://musicbrainz.org/",
    licence: "CC0",
    licenceUrl: "https://creativecommons.org/publicdomain/zero/1.0/",
  },
};

/** Every source a served import can carry: what is credited when the database cannot say. */
export const ALL_VENUE_SOURCES = "generated,openstreetmap,musicbrainz";

/** The credits of an import whose meta `venue_sources` is `venueSources` (empty: none recorded). */
export function creditsFor(venueSources: string): Credits {
  const named = new Set(venueSources.split(",").map((s) => s.trim()));
  const venues = Object.entries(VENUE_CREDITS).filter(([source]) => named.has(source));
  return { sources: [GEONAMES, ...venues.map(([, credit]) => credit)], generatedVenues: named.has("generated") };
}

/** The credits grouped by what each source gave, in order: [what, its sources]. */
export function creditGroups(credits: Credits): [string, Credit[]][] {
  const groups = new Map<string, Credit[]>();
  for (const credit of credits.sources) groups.set(credit.what, [...(groups.get(credit.what) ?? []), credit]);
  return [...groups];
}

/** What to say of generated venues, or null when the import generated none. */
export function generatedNote(credits: Credits): string | null {
  if (!credits.generatedVenues) return null;
  const real = credits.sources.some((c) => c.what === "Venues");
  return real ? "Some venues are generated examples, not real places." : "Venues are generated examples.";
}

/** The command that fetches real venues (npm run venues), for the line of a page serving only generated ones. */
export function examplesOnlyNote(credits: Credits): string | null {
  if (!credits.generatedVenues || credits.sources.some((c) => c.what === "Venues")) return null;
  return 'The venues here are generated examples, not real places: npm run venues -- osm "Your City" fetches real ones.';
}

/** The credits as text: "Cities and their names: GeoNames (CC BY 4.0). Venues: … ." */
export function creditText(credits: Credits): string {
  const groups = creditGroups(credits).map(
    ([what, sources]) => `${what}: ${sources.map((c) => `${c.name} (${c.licence})`).join(", ")}.`,
  );
  const note = generatedNote(credits);
  return [...groups, ...(note === null ? [] : [note])].join(" ");
}
