/**
 * The query sets of a place in the text (docs/benchmarks.md#a-place-in-the-text), built from the
 * GeoNames files themselves, not from the service's index:
 *
 * - places: "City, region code", "City, Region", "City Country" and "City, ISO3" for cities of
 *   15,000 people or more that are the largest place of their name (any of their GeoNames names,
 *   normalized) in that region or that country, a few per country, in every country that has them;
 * - spellings: names written the other way — Saint for St., Ft for Fort, ae for ä, o for ø, ss for
 *   ß … — for cities of 1,000 people or more that are the largest place of any of those names;
 * - precision: the places set with one letter of the place part changed.
 */
import { normalize } from "../../src/data-contract/normalize.ts";
import { Problems } from "../import/problems.ts";
import { readAdmin1, readCities, readCountryInfo, type City, type Country } from "../import/sources/geonames.ts";
import { readRegionCodes } from "../import/sources/region-codes.ts";
import { defaultSources } from "../import/sources/resolve.ts";
import { random, type Rng } from "../tools/random.ts";

export interface PlaceQuery {
  text: string;
  /** The city meant. */
  id: string;
  /** How the place is written: region code, region, country, ISO3; or the spelling rule. */
  form: string;
  country: string;
}

/** Cities of a place set at most, per country and form. */
const PER_COUNTRY = 6;
const POPULATION = 15_000;
const SPELLING_POPULATION = 1_000;

interface Sources {
  cities: City[];
  countries: Map<string, Country>;
  regionNames: Map<string, string>;
  /** A region's written code: its admin-1 code when it has letters, else its abbreviation (ON, NSW). */
  regionCodes: Map<string, string>;
}

/** A city's names, normalized: what people may type for it. */
const namesOf = (c: City): Set<string> => new Set([c.name, c.asciiName, ...c.alternateNames].map(normalize));

export async function readSources(): Promise<Sources> {
  const files = defaultSources();
  const problems = new Problems(true);
  const countries = new Map((await readCountryInfo(files.countries, problems)).map((c) => [c.code, c]));
  const regionNames = new Map(
    (await readAdmin1(files.admin1, problems)).map((a) => [`${a.countryCode}.${a.code}`, a.name]),
  );
  const regionCodes = new Map<string, string>();
  for (const key of regionNames.keys()) {
    const code = key.slice(3);
    if (/[A-Z]/.test(code) && code.length >= 2) regionCodes.set(key, code);
  }
  for (const r of await readRegionCodes(files.regionCodes, problems)) {
    const key = `${r.countryCode}.${r.admin1Code}`;
    if (!regionCodes.has(key)) regionCodes.set(key, r.abbreviation);
  }
  const cities: City[] = [];
  const counts = { lines: 0, notPopulated: 0, badAlternateNames: 0 };
  for await (const c of readCities(files.cities, problems, new Set(countries.keys()), counts)) cities.push(c);
  return { cities, countries, regionNames, regionCodes };
}

/** For each scope (a region or a country), each name's largest place: scope → name → city id. */
function largestOfName(cities: readonly City[], scopeOf: (c: City) => string | null): Map<string, string> {
  const best = new Map<string, City>();
  for (const c of cities) {
    const scope = scopeOf(c);
    if (scope === null) continue;
    for (const name of namesOf(c)) {
      const key = `${scope}\u0000${name}`;
      const other = best.get(key);
      if (other === undefined || c.population > other.population) best.set(key, c);
    }
  }
  return new Map([...best].map(([key, c]) => [key, c.id]));
}

function shuffled<T>(list: readonly T[], rng: Rng): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** The four ways of writing a city with its place, where the city is the largest of its name there. */
function placeForms(s: Sources, c: City, inRegion: boolean, inCountry: boolean): PlaceQuery[] {
  const region = `${c.countryCode}.${c.admin1Code ?? ""}`;
  const country = s.countries.get(c.countryCode);
  const out: PlaceQuery[] = [];
  const add = (text: string, form: string) => out.push({ text, id: c.id, form, country: c.countryCode });
  const code = s.regionCodes.get(region);
  if (inRegion && code !== undefined) add(`${c.name}, ${code}`, "City, region code");
  const regionName = s.regionNames.get(region);
  if (inRegion && regionName !== undefined) add(`${c.name}, ${regionName}`, "City, Region");
  if (inCountry && country !== undefined) add(`${c.name} ${country.name}`, "City Country");
  if (inCountry && country?.iso3 != null) add(`${c.name}, ${country.iso3}`, "City, ISO3");
  return out;
}

/** The places set: a few cities per country, each in every form it qualifies for. */
export function placeQueries(s: Sources, seed: string): PlaceQuery[] {
  const inRegion = largestOfName(s.cities, (c) => (c.admin1Code === null ? null : `${c.countryCode}.${c.admin1Code}`));
  const inCountry = largestOfName(s.cities, (c) => c.countryCode);
  const byCountry = new Map<string, City[]>();
  for (const c of s.cities) {
    if (c.population < POPULATION) continue;
    byCountry.set(c.countryCode, [...(byCountry.get(c.countryCode) ?? []), c]);
  }
  const rng = random(seed);
  const out: PlaceQuery[] = [];
  for (const [code, list] of [...byCountry].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const name = (c: City) => normalize(c.name);
    const picked = shuffled(list, rng).slice(0, PER_COUNTRY);
    for (const c of picked) {
      const region = inRegion.get(`${code}.${c.admin1Code ?? ""}\u0000${name(c)}`) === c.id;
      const country = inCountry.get(`${code}\u0000${name(c)}`) === c.id;
      out.push(...placeForms(s, c, region, country));
    }
  }
  return out;
}

const UMLAUTS: Record<string, string> = { ä: "ae", ö: "oe", ü: "ue" };

/** How a person may write a name the other way: the rule, and the name so written. */
const SPELLINGS: readonly [string, (name: string) => string][] = [
  ["St. → Saint", (n) => n.replace(/\bSt\.? (?=\S)/, "Saint ")],
  ["Saint → St.", (n) => n.replace(/\bSaint[- ](?=\S)/, "St. ")],
  ["Sainte → Ste", (n) => n.replace(/\bSainte[- ](?=\S)/, "Ste ")],
  ["Fort → Ft", (n) => n.replace(/\bFort (?=\S)/, "Ft ")],
  ["Mount → Mt", (n) => n.replace(/\bMount (?=\S)/, "Mt ")],
  ["ä ö ü → ae oe ue", (n) => n.replace(/[äöü]/g, (ch) => UMLAUTS[ch] ?? ch)],
  ["ø → o", (n) => n.replaceAll("ø", "o")],
  ["ł → l", (n) => n.replaceAll("ł", "l")],
  ["ß → ss", (n) => n.replaceAll("ß", "ss")],
  ["æ → ae", (n) => n.replaceAll("æ", "ae")],
];

/** The spellings set: every city of 1,000 people or more that a rule applies to, the largest of its names. */
export function spellingQueries(s: Sources): PlaceQuery[] {
  const everywhere = largestOfName(
    s.cities.filter((c) => c.population >= SPELLING_POPULATION),
    () => "",
  );
  const out: PlaceQuery[] = [];
  for (const c of s.cities) {
    if (c.population < SPELLING_POPULATION || everywhere.get(`\u0000${normalize(c.name)}`) !== c.id) continue;
    for (const [form, respell] of SPELLINGS) {
      const written = respell(c.name);
      const text = written === c.name ? null : written;
      // Written the other way it must not be another place's name (Saint-Louis is not St. Louis).
      const owner = text === null ? undefined : everywhere.get(`\u0000${normalize(text)}`);
      if (text !== null && (owner === undefined || owner === c.id)) {
        out.push({ text, id: c.id, form, country: c.countryCode });
      }
    }
  }
  return out;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** The place part of a query (after its name) with one letter changed, the case kept. */
function misspelledPlace(q: PlaceQuery, rng: Rng): string | null {
  const cut = q.form === "City Country" ? q.text.lastIndexOf(" ") : q.text.lastIndexOf(", ");
  const [name, place] = [q.text.slice(0, cut), q.text.slice(cut)];
  const positions = [...place].map((ch, i) => (/\p{L}/u.test(ch) ? i : -1)).filter((i) => i >= 0);
  const at = positions[Math.floor(rng() * positions.length)];
  if (at === undefined) return null;
  const chars = [...place];
  const old = chars[at] ?? "";
  let letter = old;
  while (letter.toLowerCase() === old.toLowerCase()) letter = LETTERS[Math.floor(rng() * LETTERS.length)] ?? "x";
  chars[at] = old === old.toUpperCase() ? letter.toUpperCase() : letter;
  return name + chars.join("");
}

/** The precision set: each query of the places set with one letter of its place changed. */
export function precisionQueries(places: readonly PlaceQuery[], seed: string): PlaceQuery[] {
  const rng = random(`${seed}:precision`);
  return places.flatMap((q) => {
    const text = misspelledPlace(q, rng);
    return text === null ? [] : [{ ...q, text }];
  });
}
