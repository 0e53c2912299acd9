/**
 * A synthetic GeoNames-format file of populated places, for testing the import and the search
 * at the size of GeoNames' allCountries.txt without downloading it (npm run data:scale).
 *
 * The output is the source's populated places (feature class P) unchanged, so real cities keep
 * their ids for benchmarks, then synthetic rows, each derived from a base city of the source:
 *
 * - a new geonameid above every source id;
 * - a name recombined from two cities of the base's country (word halves or whole words), so
 *   the vocabulary grows as a real gazetteer's does and stays in the country's script; the
 *   ASCII name recombined the same way from their ASCII names; 0-3 alternate names;
 * - the base's coordinates jittered by up to ±0.5°, its country, admin-1 code, feature code,
 *   dem and timezone; a small population, mostly none.
 *
 * Same source, count and seed: byte-identical output. Memory holds the source, never the output.
 */
import { createReadStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { GEO_ID as GEONAME_ID } from "../../src/data-contract/ids.ts";
import { CONTROL } from "../import/problems.ts";
import { ChunkedOutput } from "../tools/chunked-output.ts";
import { pick, random as seeded, type Rng } from "../tools/random.ts";
import { ADMIN1_CODE, COUNTRY_CODE, DECIMAL, INTEGER } from "../import/sources/geonames.ts";
import { MAX_NAME, mixWords, parts, splice, type Name } from "./synthetic-names.ts";

export interface SyntheticCitiesOptions {
  /** A GeoNames geoname table (cities500.txt, allCountries.txt ...). */
  source: string;
  out: string;
  /** Rows to write in all, source rows included. */
  count: number;
  seed: string;
  /** Called every 100,000 rows written and once at the end, with the rows written so far. */
  onProgress?: (rows: number) => void;
}

export interface SyntheticCitiesResult {
  rows: number;
  bytes: number;
  /** Rows that are not source rows. */
  synthetic: number;
}

/** Synthetic ids start above this (or above the largest source id), far from GeoNames' own. */
const SYNTHETIC_ID_FLOOR = 100_000_000;
/** GeoNames' modification date column, the same on every synthetic row. */
const SYNTHETIC_DATE = "2026-01-01";

const PROGRESS_EVERY = 100_000;
const JITTER_DEGREES = 0.5;
/** Share of synthetic names made from whole words rather than word halves (when there are words to mix). */
const WORD_MIX_SHARE = 0.3;
const EMPTY_POPULATION_SHARE = 0.4;
const ZERO_POPULATION_SHARE = 0.2;
const MAX_POPULATION_FRACTION = 0.2;

/** A source city that synthetic rows can be derived from. */
interface Base {
  name: Name;
  ascii: Name;
  lat: number;
  lng: number;
  featureCode: string;
  countryCode: string;
  admin1Code: string;
  population: number;
  dem: string;
  timezone: string;
  /** Indexes of the bases of the same country (the array is shared by the country). */
  peers: number[];
  /** This base's position in `peers`. */
  peer: number;
}

export async function writeSyntheticCities(options: SyntheticCitiesOptions): Promise<SyntheticCitiesResult> {
  const { count } = options;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a whole number ≥ 0: ${count}`);
  // Fail before the output file is created.
  if (!(await stat(options.source)).isFile()) throw new Error(`${options.source} is not a file`);

  const out = new ChunkedOutput(options.out, (rows) => {
    if (rows % PROGRESS_EVERY === 0) options.onProgress?.(rows);
  });
  try {
    const bases: Base[] = [];
    const byCountry = new Map<string, number[]>();
    const shared = new Map<string, string>();
    let maxSourceId = 0;
    for await (const cols of sourceRows(options.source)) {
      if (out.rows >= count) break;
      await out.add(cols.join("\t"));
      const id = cols[0] ?? "";
      if (GEONAME_ID.test(id)) maxSourceId = Math.max(maxSourceId, Number(id));
      const base = toBase(cols, bases.length, byCountry, shared);
      if (base) bases.push(base);
    }
    const sourceRowCount = out.rows;
    if (out.rows < count) {
      if (bases.length === 0) throw new Error(`${options.source} has no usable populated places to derive cities from`);
      const firstId = Math.max(SYNTHETIC_ID_FLOOR, maxSourceId) + 1;
      const random = seeded(options.seed);
      for (let i = 0; out.rows < count; i++) await out.add(syntheticRow(firstId + i, bases, random));
    }
    const bytes = await out.close();
    if (out.rows % PROGRESS_EVERY !== 0) options.onProgress?.(out.rows);
    return { rows: out.rows, bytes, synthetic: out.rows - sourceRowCount };
  } catch (e) {
    // A partial file would look like a complete one of a smaller size.
    out.destroy();
    await rm(options.out, { force: true });
    throw e;
  }
}

/** The 19 columns of each populated place of a geoname table; a BOM, CRLF and blank lines are tolerated. */
async function* sourceRows(path: string): AsyncGenerator<string[]> {
  const input = createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 20 });
  const lines = createInterface({ input, crlfDelay: Infinity });
  let first = true;
  for await (const raw of lines) {
    const line = first ? raw.replace(/^\uFEFF/, "") : raw;
    first = false;
    if (line.trim() === "") continue;
    const cols = line.split("\t");
    if (cols.length === 19 && cols[6]?.trim() === "P") yield cols;
  }
}

/** The fields a base needs, or undefined when the row would not pass the import's checks. */
function baseFields(cols: string[]) {
  const field = (i: number) => cols[i]?.trim() ?? "";
  const name = field(1);
  const ascii = field(2) || name;
  const [latText, lngText, countryCode, admin1Code, populationText] = [
    field(4),
    field(5),
    field(8),
    field(10),
    field(14),
  ];
  const textOk = (text: string) => text.length <= MAX_NAME && !CONTROL.test(text);
  const placeOk =
    DECIMAL.test(latText) &&
    DECIMAL.test(lngText) &&
    Math.abs(Number(latText)) <= 90 &&
    Math.abs(Number(lngText)) <= 180;
  const codesOk = COUNTRY_CODE.test(countryCode) && (admin1Code === "" || ADMIN1_CODE.test(admin1Code));
  const populationOk = populationText === "" || INTEGER.test(populationText);
  if (name === "" || !textOk(name) || !textOk(ascii) || !placeOk || !codesOk || !populationOk) return undefined;
  return {
    name,
    ascii,
    lat: Number(latText),
    lng: Number(lngText),
    countryCode,
    admin1Code,
    population: Number(populationText),
  };
}

/** The row as a base for synthetic rows, or undefined when it would not pass the import's checks. */
function toBase(
  cols: string[],
  index: number,
  byCountry: Map<string, number[]>,
  shared: Map<string, string>,
): Base | undefined {
  const fields = baseFields(cols);
  if (fields === undefined) return undefined;
  const { name, ascii, countryCode } = fields;
  let peers = byCountry.get(countryCode);
  if (!peers) byCountry.set(countryCode, (peers = []));
  const peer = peers.push(index) - 1;
  // Substrings of a line can keep the whole line (and the chunk it was read from) in memory:
  // a base keeps copies, and one copy of each of the values that repeat.
  const one = (value: string): string => {
    let kept = shared.get(value);
    if (kept === undefined) shared.set(value, (kept = detach(value)));
    return kept;
  };
  const nameParts = parts(detach(name));
  const featureCode = cols[7]?.trim() ?? "";
  return {
    name: nameParts,
    ascii: ascii === name ? nameParts : parts(detach(ascii)),
    lat: fields.lat,
    lng: fields.lng,
    // A country has one capital: copies of it are ordinary populated places.
    featureCode: one(featureCode === "PPLC" ? "PPL" : featureCode),
    countryCode: one(countryCode),
    admin1Code: one(fields.admin1Code),
    population: fields.population,
    dem: one(cols[16]?.trim() ?? ""),
    timezone: one(cols[17]?.trim() ?? ""),
    peers,
    peer,
  };
}

/** A copy of the text that shares no memory with the string it came from. */
function detach(text: string): string {
  return Buffer.from(text, "utf8").toString("utf8");
}

function syntheticRow(id: number, bases: readonly Base[], random: Rng): string {
  const a = pick(random, bases);
  // Another city of the same country (any but A itself, when there is one), so the name mixes two.
  let other = Math.floor(random() * Math.max(1, a.peers.length - 1));
  if (other >= a.peer && a.peers.length > 1) other++;
  const b = bases[a.peers[other] ?? -1] ?? a;

  const byWords = random() < WORD_MIX_SHARE && (a.name.text.includes(" ") || b.name.text.includes(" "));
  const f = random();
  const g = random();
  const name = byWords ? mixWords(a.name, b.name) : splice(a.name, b.name, f, g);
  const ascii = byWords ? mixWords(a.ascii, b.ascii) : splice(a.ascii, b.ascii, f, g);

  const alternates = alternateNames(a, b, name, ascii, random);

  const lat = Math.max(-90, Math.min(90, a.lat + (random() * 2 - 1) * JITTER_DEGREES));
  const lng = wrapLongitude(a.lng + (random() * 2 - 1) * JITTER_DEGREES);

  const population = syntheticPopulation(a, random);

  return [
    id,
    name,
    ascii,
    alternates.join(","),
    lat.toFixed(5),
    lng.toFixed(5),
    "P",
    a.featureCode,
    a.countryCode,
    "",
    a.admin1Code,
    "",
    "",
    "",
    population,
    "",
    a.dem,
    a.timezone,
    SYNTHETIC_DATE,
  ].join("\t");
}

/** 0-3 alternate names: other mixes of the same two cities, as GeoNames lists variant spellings. */
function alternateNames(a: Base, b: Base, name: string, ascii: string, random: Rng): string[] {
  const wanted = Math.floor(random() * 4);
  const alternates: string[] = [];
  if (wanted === 0) return alternates;
  const h = random();
  const k = random();
  for (const candidate of [splice(a.name, b.name, h, k), splice(b.name, a.name, k, h), ascii]) {
    if (alternates.length === wanted) break;
    if (candidate !== name && !candidate.includes(",") && !alternates.includes(candidate)) alternates.push(candidate);
  }
  return alternates;
}

/** Mostly none or 0, else a fraction of the base's. */
function syntheticPopulation(a: Base, random: Rng): string {
  const p = random();
  if (p < EMPTY_POPULATION_SHARE) return "";
  if (p < EMPTY_POPULATION_SHARE + ZERO_POPULATION_SHARE) return "0";
  return String(Math.floor(a.population * random() * MAX_POPULATION_FRACTION));
}

function wrapLongitude(lng: number): number {
  return lng > 180 ? lng - 360 : lng < -180 ? lng + 360 : lng;
}
