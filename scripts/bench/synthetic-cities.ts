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
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import { finished } from "node:stream/promises";
import { GEO_ID as GEONAME_ID } from "../../src/format/ids.ts";
import { CONTROL } from "../import/problems.ts";
import { pick, random as seeded, type Rng } from "../tools/random.ts";
import { ADMIN1_CODE, COUNTRY_CODE, DECIMAL, INTEGER } from "../import/sources/geonames.ts";

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
export const SYNTHETIC_ID_FLOOR = 100_000_000;
/** GeoNames' modification date column, the same on every synthetic row. */
export const SYNTHETIC_DATE = "2026-01-01";

const PROGRESS_EVERY = 100_000;
/** Output is written in chunks of this many bytes (fewer, larger writes). */
const CHUNK_BYTES = 1 << 20;
const JITTER_DEGREES = 0.5;
/** Share of synthetic names made from whole words rather than word halves (when there are words to mix). */
const WORD_MIX_SHARE = 0.3;
const EMPTY_POPULATION_SHARE = 0.4;
const ZERO_POPULATION_SHARE = 0.2;
const MAX_POPULATION_FRACTION = 0.2;
const MAX_NAME = 200;

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

/** A name (words separated by single spaces) and where its last word can be cut in two. */
interface Name {
  text: string;
  /** Cut positions in `text`, as char codes: 200,000 short strings take less memory than arrays. */
  cuts: string;
}

export async function writeSyntheticCities(options: SyntheticCitiesOptions): Promise<SyntheticCitiesResult> {
  const { count } = options;
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a whole number ≥ 0: ${count}`);
  // Fail before the output file is created.
  if (!(await stat(options.source)).isFile()) throw new Error(`${options.source} is not a file`);

  const output = createWriteStream(options.out);
  let failure: unknown;
  output.on("error", (e) => (failure = e));
  let rows = 0;
  // Rows are encoded into a buffer at once, so each row's strings die young: strings kept until
  // a write (a chunk built by +=) outlive V8's young generation and pile up in the old one.
  let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  const write = async (data: Buffer | string): Promise<void> => {
    if (failure !== undefined) throw failure;
    // Backpressure: the file grows no faster than the disk takes it, so memory stays flat.
    if (!output.write(data)) await once(output, "drain");
  };
  const flush = async (): Promise<void> => {
    if (used === 0) return;
    const full = buffer.subarray(0, used);
    buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    used = 0;
    await write(full);
  };
  const add = async (line: string): Promise<void> => {
    // At most 3 UTF-8 bytes per UTF-16 unit, and the newline.
    const most = line.length * 3 + 1;
    if (used + most > buffer.length) await flush();
    if (most > buffer.length) await write(line + "\n");
    else {
      used += buffer.write(line, used);
      buffer[used++] = 0x0a;
    }
    rows++;
    if (rows % PROGRESS_EVERY === 0) options.onProgress?.(rows);
  };

  try {
    const bases: Base[] = [];
    const byCountry = new Map<string, number[]>();
    const shared = new Map<string, string>();
    let maxSourceId = 0;
    for await (const cols of sourceRows(options.source)) {
      if (rows >= count) break;
      await add(cols.join("\t"));
      const id = cols[0] ?? "";
      if (GEONAME_ID.test(id)) maxSourceId = Math.max(maxSourceId, Number(id));
      const base = toBase(cols, bases.length, byCountry, shared);
      if (base) bases.push(base);
    }
    const sourceRowCount = rows;
    if (rows < count) {
      if (bases.length === 0) throw new Error(`${options.source} has no usable populated places to derive cities from`);
      const firstId = Math.max(SYNTHETIC_ID_FLOOR, maxSourceId) + 1;
      const random = seeded(options.seed);
      for (let i = 0; rows < count; i++) await add(syntheticRow(firstId + i, bases, random));
    }
    await flush();
    output.end();
    await finished(output);
    if (rows % PROGRESS_EVERY !== 0) options.onProgress?.(rows);
    return { rows, bytes: output.bytesWritten, synthetic: rows - sourceRowCount };
  } catch (e) {
    // A partial file would look like a complete one of a smaller size.
    output.destroy();
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

/** The row as a base for synthetic rows, or undefined when it would not pass the import's checks. */
function toBase(
  cols: string[],
  index: number,
  byCountry: Map<string, number[]>,
  shared: Map<string, string>,
): Base | undefined {
  const [, rawName = "", rawAscii = "", , latText = "", lngText = ""] = cols;
  const name = rawName.trim();
  const ascii = rawAscii.trim() || name;
  const countryCode = cols[8]?.trim() ?? "";
  const admin1Code = cols[10]?.trim() ?? "";
  const populationText = cols[14]?.trim() ?? "";
  const lat = Number(latText.trim());
  const lng = Number(lngText.trim());
  const valid =
    name !== "" &&
    name.length <= MAX_NAME &&
    ascii.length <= MAX_NAME &&
    !CONTROL.test(name) &&
    !CONTROL.test(ascii) &&
    DECIMAL.test(latText.trim()) &&
    DECIMAL.test(lngText.trim()) &&
    Math.abs(lat) <= 90 &&
    Math.abs(lng) <= 180 &&
    COUNTRY_CODE.test(countryCode) &&
    (admin1Code === "" || ADMIN1_CODE.test(admin1Code)) &&
    (populationText === "" || INTEGER.test(populationText));
  if (!valid) return undefined;
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
    lat,
    lng,
    // A country has one capital: copies of it are ordinary populated places.
    featureCode: one(featureCode === "PPLC" ? "PPL" : featureCode),
    countryCode: one(countryCode),
    admin1Code: one(admin1Code),
    population: populationText === "" ? 0 : Number(populationText),
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

  // Alternate names: other mixes of the same two cities, as GeoNames lists variant spellings.
  const wanted = Math.floor(random() * 4);
  const alternates: string[] = [];
  if (wanted > 0) {
    const h = random();
    const k = random();
    for (const candidate of [splice(a.name, b.name, h, k), splice(b.name, a.name, k, h), ascii]) {
      if (alternates.length === wanted) break;
      if (candidate !== name && !candidate.includes(",") && !alternates.includes(candidate)) alternates.push(candidate);
    }
  }

  const lat = Math.max(-90, Math.min(90, a.lat + (random() * 2 - 1) * JITTER_DEGREES));
  const lng = wrapLongitude(a.lng + (random() * 2 - 1) * JITTER_DEGREES);

  const p = random();
  const population =
    p < EMPTY_POPULATION_SHARE
      ? ""
      : p < EMPTY_POPULATION_SHARE + ZERO_POPULATION_SHARE
        ? "0"
        : String(Math.floor(a.population * random() * MAX_POPULATION_FRACTION));

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

function wrapLongitude(lng: number): number {
  return lng > 180 ? lng - 360 : lng < -180 ? lng + 360 : lng;
}

/** A's words but the last, then the head of A's last word and the tail of B's: "Berlin" + "Hamburg" → "Bemburg". */
function splice(a: Name, b: Name, f: number, g: number): string {
  const aCut = a.cuts.charCodeAt(Math.floor(f * a.cuts.length));
  const bCut = b.cuts.charCodeAt(Math.floor(g * b.cuts.length));
  const bLast = b.text.slice(b.text.lastIndexOf(" ") + 1);
  // A word that cannot be cut is kept whole, and the two whole words stand side by side.
  const name =
    Number.isNaN(aCut) || Number.isNaN(bCut) ? `${a.text} ${bLast}` : a.text.slice(0, aCut) + b.text.slice(bCut);
  return bounded(name, a.text);
}

/** The first half of A's words and the second half of B's: "El Tarter" + "Pas de la Casa" → "El la Casa". */
function mixWords(a: Name, b: Name): string {
  const aWords = a.text.split(" ");
  const bWords = b.text.split(" ");
  const head = aWords.slice(0, Math.ceil(aWords.length / 2));
  const tail = bWords.slice(Math.floor(bWords.length / 2));
  return bounded([...head, ...tail].join(" "), a.text);
}

/** The name cut to the import's limit (never inside a surrogate pair), or `fallback` if nothing is left. */
function bounded(name: string, fallback: string): string {
  if (name.length <= MAX_NAME) return name;
  let end = MAX_NAME;
  if (/[\udc00-\udfff]/.test(name.charAt(end))) end--;
  return name.slice(0, end).trim() || fallback.slice(0, MAX_NAME);
}

function parts(name: string): Name {
  // Brackets and quotes ("Colonia X (Lucha Social)", 'Poselok "Y"') would be cut open by the recombination.
  const plain = name
    .replace(/\([^()]*\)|\[[^[\]]*\]/g, " ")
    .replace(/["“”„«»]/g, "")
    .trim();
  const text = (plain || name).split(/\s+/).join(" ");
  const start = text.lastIndexOf(" ") + 1;
  return { text, cuts: String.fromCharCode(...cuts(text.slice(start)).map((i) => start + i)) };
}

/**
 * Where a word can be cut so that heads and tails join readably: after a vowel and before a
 * consonant ("Be|rlin"), away from the ends if possible; failing that between any two letters
 * (scripts without known vowels). Never before a combining mark or inside a surrogate pair,
 * which are not letters here.
 */
function cuts(word: string): number[] {
  const vowelConsonant: number[] = [];
  const letters: number[] = [];
  for (let i = 1; i < word.length; i++) {
    const before = charClass(word.charAt(i - 1));
    const after = charClass(word.charAt(i));
    if (before !== OTHER && after !== OTHER) letters.push(i);
    if (before === VOWEL && after === CONSONANT) vowelConsonant.push(i);
  }
  const inner = vowelConsonant.filter((i) => i >= 2 && i <= word.length - 2);
  return inner.length > 0 ? inner : vowelConsonant.length > 0 ? vowelConsonant : letters;
}

const OTHER = 0;
const VOWEL = 1;
const CONSONANT = 2;
const VOWELS = new Set([..."aeiouyıæøœаеёиоуыэюяіїєαεηιουωάέήίόύώ"]);
const LETTER = /^\p{L}$/u;
const classes = new Map<string, number>();

function charClass(ch: string): number {
  let c = classes.get(ch);
  if (c === undefined) {
    const plain = ch.normalize("NFD").charAt(0).toLowerCase();
    c = !LETTER.test(ch) ? OTHER : VOWELS.has(plain) ? VOWEL : CONSONANT;
    classes.set(ch, c);
  }
  return c;
}
