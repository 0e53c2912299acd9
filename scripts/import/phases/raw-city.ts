/**
 * A city as a row of raw_cities (build-file.ts), the one home of its columns, made in a worker
 * thread while the main thread reads the file and writes (read.ts): its names as search text are
 * most of the cost of reading a large table.
 */
import { normalize } from "../../../src/data-contract/normalize.ts";
import { nameIndexText, ownNameTokens, type LocalizedName } from "../../../src/data-contract/name-index.ts";
import { cellOf, FINEST_LEVEL } from "../../../src/data-contract/grid.ts";
import { regionTokens } from "../../../src/data-contract/tokens.ts";
import { isSection, type City } from "../sources/geonames.ts";

/** A city read, and its localized names. */
export type CityJob = [City, LocalizedName[]];

/** The values of the insert into raw_cities (read.ts), the line last. */
export type RawCityRow = (string | number | null)[];

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
