/**
 * The meta rows an import publishes about itself (docs/import.md): its data version, what it read
 * and with which options (so that another import can read the same files with more), its counts.
 */
import { resolve } from "node:path";
import { LARGEST_POPULATION_KEY } from "../../src/data-contract/ranking.ts";
import type { BuildCounts } from "./phases/counts.ts";
import type { ImportOptions } from "./options.ts";
import type { resolveSources } from "./sources/resolve.ts";

/**
 * What an import read, as absolute paths (meta `import_options`), so that another import can read
 * the same files with more (npm run venues adds its downloads to them: scripts/import/start-data.ts).
 */
export interface RecordedOptions {
  cities: string;
  admin1: string;
  countries: string;
  localized: string;
  /** Venue files; none: generated venues. */
  venues: string[];
  venueCount: number;
  seed: string;
  musicbrainzTypes: string | null;
  osmTags: string | null;
  /** --min-population; null (or absent, in an older import's record) for every city. */
  minPopulation?: number | null;
}

export function recordedOptions(
  options: ImportOptions,
  s: ReturnType<typeof resolveSources>["sources"],
): RecordedOptions {
  return {
    cities: resolve(s.cities),
    admin1: resolve(s.admin1),
    countries: resolve(s.countries),
    localized: resolve(s.localized),
    venues: s.venueFiles.map((f) => resolve(f)),
    venueCount: s.venueCount,
    seed: s.seed,
    musicbrainzTypes: options.musicbrainzTypes ?? null,
    osmTags: options.osmTags ?? null,
    minPopulation: options.minPopulation ?? null,
  };
}

/** The meta rows a publish writes (data_version last: publish/stage.ts). */
export function metaRows(
  version: string,
  description: string,
  counts: BuildCounts,
  options: RecordedOptions,
): [string, string][] {
  return [
    ["data_version", version],
    ["sources", description],
    ["import_options", JSON.stringify(options)],
    ["imported_at", new Date().toISOString()],
    ["rows_cities", String(counts.cities)],
    ["rows_venues", String(counts.venues)],
    [LARGEST_POPULATION_KEY, String(counts.largestPopulation)],
    ["name_anchor_every", String(counts.anchorEvery)],
    // Which licences the served venues carry (docs/import.md#real-venues).
    ["venue_sources", counts.venueSources.join(",")],
  ];
}
