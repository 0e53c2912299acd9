/**
 * A city as a row of raw_cities (build-file.ts), the one home of its columns, made in a worker
 * thread while the main thread reads the file and writes (read.ts): its names as search text are
 * most of the cost of reading a large table.
 */
import type { Language } from "../../../src/data-contract/languages.ts";
import { normalize } from "../../../src/data-contract/normalize.ts";
import { nameIndexText, wordTokens } from "../../../src/data-contract/name-index.ts";
import { nameForms, wordWays } from "../../../src/data-contract/spellings.ts";
import { cellOf, FINEST_LEVEL } from "../../../src/data-contract/grid.ts";
import { localizedNameToken, mainNameToken, ownWords, regionTokens } from "../../../src/data-contract/tokens.ts";
import { isSection, type City } from "../sources/geonames.ts";

/** A city's name in a served language. */
export interface CityLocalized {
  lang: Exclude<Language, "en">;
  name: string;
}

/** A city read, and its localized names. */
export type CityJob = [City, CityLocalized[]];

/** The values of the insert into raw_cities (read.ts), the line last. */
export type RawCityRow = (string | number | null)[];

/**
 * The tokens of a city's own names (src/data-contract/tokens.ts), which the suggestions count over
 * its others: its name and ASCII name as main-name tokens, and its shown name's words; the same of
 * its name in each served language, for a request in that language.
 */
function ownNameTokens(c: City, own: readonly string[], localized: readonly CityLocalized[]): string {
  return [
    ...own.map(mainNameToken),
    ...wordTokens(wordWays(c.name), ownWords("en")),
    ...localized.flatMap((l) => [
      ...nameForms(l.name).map((form) => localizedNameToken(l.lang, form)),
      ...wordTokens(wordWays(l.name), ownWords(l.lang)),
    ]),
  ].join(" ");
}

/** The columns of raw_cities for one city. */
export function cityColumns(c: City, localized: readonly CityLocalized[]): RawCityRow {
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
    ownNameTokens(c, index.own, localized),
    index.shared,
    index.sets,
    index.texts,
    regionTokens(c.countryCode, c.admin1Code).join(" "),
    c.line,
  ];
}
