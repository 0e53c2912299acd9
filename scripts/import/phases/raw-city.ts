/**
 * A city as a row of raw_cities (build-file.ts), the one home of its columns, made and written in
 * a worker thread (city-rows-worker.ts) while the main thread reads the file (read.ts): its names
 * as search text, and writing them, are most of the cost of reading a large table.
 */
import { normalize } from "../../../src/data-contract/normalize.ts";
import { nameIndexText, ownNameTokens, type LocalizedName } from "../../../src/data-contract/name-index.ts";
import { cellOf, FINEST_LEVEL } from "../../../src/data-contract/grid.ts";
import { regionTokens } from "../../../src/data-contract/tokens.ts";
import { isSection, type City } from "../sources/geonames.ts";

/** A city read, and its localized names. */
export type CityJob = [City, LocalizedName[]];

/** Cities for a worker to write into the build file `file`. */
export interface CityRowsJob {
  file: string;
  cities: CityJob[];
}

/**
 * What a worker wrote: how many cities, and the line of each city whose geonameid the table
 * already held. Of two rows with one geonameid the table keeps the one of the earlier line
 * (jobs of two workers land in either order).
 */
export interface CityRowsWritten {
  written: number;
  repeated: [gid: number, line: number][];
}

/** The values of INSERT_RAW_CITY, the line last. */
export type RawCityRow = (string | number | null)[];

/** The insert of a raw_cities row, the one home of its column order (city-rows-worker.ts runs it). */
export const INSERT_RAW_CITY = `INSERT INTO raw_cities (gid, name, name_norm, ascii_norm, country_code, admin1_code, lat, lng,
    population, z, section, words, names, main, shared, name_sets, name_texts, tokens, line)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** The columns of raw_cities for one city. */
export function cityColumns(c: City, localized: readonly LocalizedName[]): RawCityRow {
  // Localized city names are names of the city too: `Wiedeń` finds Vienna whatever the language.
  const index = nameIndexText([c.name, c.asciiName, ...c.alternateNames, ...localized.map((l) => l.name)], 2);
  const nameNorm = normalize(c.name);
  const asciiNorm = normalize(c.asciiName);
  return [
    Number(c.id),
    c.name,
    nameNorm,
    asciiNorm === nameNorm ? null : asciiNorm,
    c.countryCode,
    c.admin1Code,
    c.lat,
    c.lng,
    c.population,
    cellOf(FINEST_LEVEL, c.lat, c.lng),
    isSection(c) ? 1 : 0,
    index.words,
    index.tokens,
    ownNameTokens(index.own, c.name, localized, c.asciiName).join(" "),
    index.shared,
    index.sets,
    index.texts,
    regionTokens(c.countryCode, c.admin1Code).join(" "),
    c.line,
  ];
}
