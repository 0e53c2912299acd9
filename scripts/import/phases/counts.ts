/**
 * What a build counts as it goes (phases/build.ts), which an import's summary reports and its meta
 * rows keep (import-meta.ts); a database imported before reads some of them back (target.ts).
 */
import type { BuiltPlan } from "../shards/venues.ts";
import type { VenueFileReport } from "../sources/venue-files.ts";

export interface BuildCounts {
  /** An anchor of deep pages every this many matches (meta name_anchor_every). */
  anchorEvery: number;
  countries: number;
  admin1: number;
  cities: number;
  /** The population of the largest city read (meta LARGEST_POPULATION_KEY: a venue database holds some cities). */
  largestPopulation: number;
  venues: number;
  words: number;
  /** Rows of cell_counts. */
  cellCounts: number;
  localizedNames: number;
  /** Rows of place_names: the forms of countries and regions read at the end of a name. */
  placeNames: number;
  notPopulated: number;
  /** Populated places below --min-population, left out. */
  belowMinPopulation: number;
  /** Cities whose admin-1 code the admin-1 table lacks, per country, most first (served without a state). */
  outsideAdmin1: [country: string, cities: number][];
  badAlternateNames: number;
  duplicateVenues: number;
  /** Per venue file: records read, kept, skipped by reason, and how the venues were placed. */
  venueFiles: VenueFileReport[];
  /** Where the imported venues come from (generated, file, musicbrainz, openstreetmap): their licences follow. */
  venueSources: string[];
  /** With --shards: the plan of the venue databases and their venues' digests (scripts/import/shards/), else none. */
  shardPlan: BuiltPlan;
}

/** Counts before anything was read. */
export function noCounts(anchorEvery = 0): BuildCounts {
  return {
    anchorEvery,
    countries: 0,
    admin1: 0,
    cities: 0,
    largestPopulation: 0,
    venues: 0,
    words: 0,
    cellCounts: 0,
    localizedNames: 0,
    placeNames: 0,
    notPopulated: 0,
    belowMinPopulation: 0,
    outsideAdmin1: [],
    badAlternateNames: 0,
    duplicateVenues: 0,
    venueFiles: [],
    venueSources: [],
    shardPlan: { shards: [], digests: [] },
  };
}
