/**
 * Readers for GeoNames dumps in their own tab-separated formats
 * (https://download.geonames.org/export/dump/readme.txt): countryInfo.txt,
 * admin1CodesASCII.txt and the 19-column geoname table (cities500.txt, cities15000.txt,
 * allCountries.txt ...). Every row is validated; bad rows go to `problems`. The geoname table is
 * streamed: it can be far larger than memory.
 */
import { GEO_ID } from "../../../src/data-contract/ids.ts";
import { CONTROL, RowError, textField, type Problems } from "../problems.ts";
import { checkedLines } from "./lines.ts";

export interface Country {
  code: string;
  /** ISO 3166-1 alpha-3 (`DEU`), when the file gives one. */
  iso3: string | null;
  name: string;
  /** Language codes in order of use, from the Languages column (`de-AT` → `de`). */
  languages: string[];
}

export interface Admin1 {
  countryCode: string;
  code: string;
  name: string;
}

export interface City {
  id: string;
  name: string;
  asciiName: string;
  alternateNames: string[];
  lat: number;
  lng: number;
  countryCode: string;
  admin1Code: string | null;
  population: number;
  /** GeoNames feature code: PPL, PPLC, PPLA…, PPLX (a section of a populated place). */
  featureCode: string;
  /** Where the row is, for problems found later (a repeated id). */
  line: number;
}

/** A section of a populated place (Kreuzberg of Berlin): never a venue's city, no generated venues. */
export const isSection = (city: Pick<City, "featureCode">): boolean => city.featureCode === "PPLX";

/** The field formats of GeoNames rows (also what synthetic rows must meet: synthetic-cities.ts). */
export const COUNTRY_CODE = /^[A-Z]{2}$/;
export const ADMIN1_CODE = /^[0-9A-Za-z]{1,20}$/;
export const INTEGER = /^[0-9]{1,12}$/;
export const DECIMAL = /^-?[0-9]{1,3}(\.[0-9]+)?$/;

/** countryInfo.txt: `#` comment lines, then ISO, ISO3, numeric, fips, Country, ... Languages. */
export async function readCountryInfo(path: string, problems: Problems): Promise<Country[]> {
  const byCode = new Map<string, Country>();
  const rows = checkedLines(path, problems, (line) => {
    const cols = line.split("\t");
    if (cols.length < 5) throw new RowError(`expected at least 5 tab-separated columns, got ${cols.length}`);
    const code = textField(cols[0], "country code");
    if (!COUNTRY_CODE.test(code)) throw new RowError(`country code "${code}" is not two capital letters`);
    if (byCode.has(code)) throw new RowError(`country ${code} appears twice`);
    const name = textField(cols[4], "country name");
    if (name === "") throw new RowError(`country ${code} has no name`);
    const iso3 = textField(cols[1], "ISO3 code").toUpperCase();
    const languages = (cols[15] ?? "")
      .split(",")
      .map((l) => l.trim().split("-")[0]?.toLowerCase() ?? "")
      .filter((l) => /^[a-z]{2,3}$/.test(l));
    return { code, iso3: /^[A-Z]{3}$/.test(iso3) ? iso3 : null, name, languages };
  });
  // Rows are read one at a time: each line's check sees the countries before it.
  for await (const country of rows) byCode.set(country.code, country);
  return [...byCode.values()];
}

/** admin1CodesASCII.txt: `CC.CODE`, name, ASCII name, geonameid. */
export async function readAdmin1(path: string, problems: Problems): Promise<Admin1[]> {
  const seen = new Set<string>();
  const rows: Admin1[] = [];
  const checked = checkedLines(path, problems, (line) => {
    const cols = line.split("\t");
    if (cols.length < 2) throw new RowError(`expected at least 2 tab-separated columns, got ${cols.length}`);
    const key = textField(cols[0], "admin-1 key");
    const dot = key.indexOf(".");
    const countryCode = key.slice(0, dot);
    const code = key.slice(dot + 1).toUpperCase();
    if (dot < 0 || !COUNTRY_CODE.test(countryCode) || !ADMIN1_CODE.test(code)) {
      throw new RowError(`admin-1 key "${key}" is not COUNTRY.CODE`);
    }
    if (seen.has(`${countryCode}.${code}`)) throw new RowError(`admin-1 ${key} appears twice`);
    const name = textField(cols[1], "admin-1 name");
    if (name === "") throw new RowError(`admin-1 ${key} has no name`);
    seen.add(`${countryCode}.${code}`);
    return { countryCode, code, name };
  });
  for await (const row of checked) rows.push(row);
  return rows;
}

/** What reading the geoname table left out, besides bad rows. */
export interface CityReadCounts {
  /** Lines read. */
  lines: number;
  /** Rows that are valid but not populated places (feature class other than P). */
  notPopulated: number;
  /** Alternate names left out for control characters (GeoNames has a few mis-encoded ones). */
  badAlternateNames: number;
}

/**
 * The populated places (feature class P) of a 19-column geoname table, validated, one at a time;
 * `zeroRegions` the countries whose admin-1 table has a region coded "00".
 * `counts` is filled in as the rows go by. (A repeated geonameid is found by the database the
 * rows go into, which knows every id; see build.ts.)
 */
export async function* readCities(
  path: string,
  problems: Problems,
  countries: ReadonlySet<string>,
  counts: CityReadCounts,
  zeroRegions: ReadonlySet<string> = new Set(),
): AsyncGenerator<City> {
  const alternates = (value: string | undefined): string[] => {
    const names = (value ?? "")
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean);
    const good = names.filter((n) => !CONTROL.test(n) && n.length <= 200);
    counts.badAlternateNames += names.length - good.length;
    return good;
  };
  const rows = checkedLines(
    path,
    problems,
    (line, lineNo) => {
      counts.lines = lineNo;
      return cityRow(line.split("\t"), { countries, zeroRegions }, alternates, lineNo);
    },
    { comments: false },
  );
  for await (const city of rows) {
    if (city === null) counts.notPopulated++;
    else yield city;
  }
}

/** One row of the geoname table as a city; null for a valid row that is not a populated place. */
function cityRow(
  cols: string[],
  { countries, zeroRegions }: { countries: ReadonlySet<string>; zeroRegions: ReadonlySet<string> },
  alternates: (value: string | undefined) => string[],
  line: number,
): City | null {
  if (cols.length !== 19) throw new RowError(`expected 19 tab-separated columns, got ${cols.length}`);
  const id = cols[0] ?? "";
  if (!GEO_ID.test(id)) throw new RowError(`geonameid "${id}" is not a positive integer`);
  const name = textField(cols[1], "name");
  if (name === "") throw new RowError(`city ${id} has no name`);
  const asciiName = textField(cols[2], "asciiname") || name;
  const lat = coordinate(cols[4], "latitude", 90);
  const lng = coordinate(cols[5], "longitude", 180);
  const countryCode = countryField(cols[8], countries);
  const admin1 = textField(cols[10], "admin1 code").toUpperCase();
  if (admin1 !== "" && !ADMIN1_CODE.test(admin1)) throw new RowError(`admin1 code "${admin1}" is malformed`);
  const population = populationField(cols[14]);
  if ((cols[6] ?? "").trim() !== "P") return null;
  return {
    id,
    name,
    asciiName,
    alternateNames: alternates(cols[3]),
    lat,
    lng,
    countryCode,
    // GeoNames' "00" is no region, except in a country whose admin-1 table has one (Monaco's MC.00).
    admin1Code: admin1 === "" || (admin1 === "00" && !zeroRegions.has(countryCode)) ? null : admin1,
    population,
    featureCode: textField(cols[7], "feature code").toUpperCase(),
    line,
  };
}

function countryField(value: string | undefined, countries: ReadonlySet<string>): string {
  const code = textField(value, "country code");
  if (!COUNTRY_CODE.test(code)) throw new RowError(`country code "${code}" is not two capital letters`);
  if (!countries.has(code)) throw new RowError(`country code ${code} is not in the country file`);
  return code;
}

function populationField(value: string | undefined): number {
  const text = (value ?? "").trim();
  if (text !== "" && !INTEGER.test(text)) throw new RowError(`population "${text}" is not a non-negative integer`);
  return text === "" ? 0 : Number(text);
}

function coordinate(value: string | undefined, what: string, limit: number): number {
  const v = (value ?? "").trim();
  if (!DECIMAL.test(v)) throw new RowError(`${what} "${v}" is not a decimal number`);
  const n = Number(v);
  if (Math.abs(n) > limit) throw new RowError(`${what} ${v} is outside ±${limit}`);
  return n;
}
