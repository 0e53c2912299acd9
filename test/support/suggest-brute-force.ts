/**
 * The suggestions' order computed by brute force from the source files (docs/api.md#suggestions),
 * to compare the endpoint's modules with: every record of a GeoNames table and of a venue file,
 * its names as the files give them, each matched against the text with plain string operations
 * (each typed word the start of a word of its own of one name), scored by the rule the docs state,
 * sorted. Only the spelling rules (St = Saint, ä = ae: nameForms)
 * and the normalizer are shared with the import; the weights are the documented ones, written
 * out again here.
 */
import { readFileSync } from "node:fs";
import { normalize, words } from "../../src/data-contract/normalize.ts";
import { nameForms } from "../../src/data-contract/spellings.ts";
import { km } from "./haversine.ts";

export interface Candidate {
  id: string;
  pos: number;
  /** Each name's forms (normalized); the first names are a city's own and ASCII names. */
  names: string[][];
  /** How many of `names` are the city's own (its name and ASCII name); 0 for a venue. */
  own: number;
  population: number;
  lat: number | null;
  lng: number | null;
  country: string;
  admin1: string | null;
  kind: string;
  cityId: string | null;
}

/** GeoNames rows of a cities file, with their localized names, in the cities' order (pos from 1). */
export function citiesOf(file: string, localizedFile: string): Candidate[] {
  const localized = new Map<string, string[]>();
  for (const line of readFileSync(localizedFile, "utf8").split("\n")) {
    const [, key, name] = line.split("\t");
    if (line.startsWith("#") || key === undefined || name === undefined || key.includes(".")) continue;
    localized.set(key, [...(localized.get(key) ?? []), name]);
  }
  const rows = readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.split("\t"))
    .filter((f) => f.length === 19 && f[6] === "P");
  const cities = rows.map((f): Candidate => {
    const [name, ascii] = [f[1] ?? "", f[2] || (f[1] ?? "")];
    const others = (f[3] ?? "").split(",").filter((n) => n.trim() !== "");
    const code = f[10] ?? "";
    return {
      id: f[0] ?? "",
      pos: 0,
      names: [name, ascii, ...others, ...(localized.get(f[0] ?? "") ?? [])].map(nameForms),
      own: 2,
      population: Number(f[14] || 0),
      lat: Number(f[4]),
      lng: Number(f[5]),
      country: f[8] ?? "",
      admin1: code === "" || code === "00" ? null : code,
      kind: "",
      cityId: null,
    };
  });
  cities.sort((a, b) => b.population - a.population || Number(a.id) - Number(b.id));
  cities.forEach((c, i) => (c.pos = i + 1));
  return cities;
}

export interface VenueRow {
  id: string;
  name: string;
  otherNames: string[];
  cityId: string | null;
  lat: number | null;
  long: number | null;
  kind: string;
}

/** A venue with no city: the place of a city of population 0, nowhere, last in the order. */
const NO_CITY: Candidate = {
  id: "",
  pos: Number.MAX_SAFE_INTEGER,
  names: [],
  own: 0,
  population: 0,
  lat: null,
  lng: null,
  country: "",
  admin1: null,
  kind: "",
  cityId: null,
};

function venueOf(v: VenueRow, city: Candidate = NO_CITY): Candidate & { cityPos: number; norm: string } {
  return {
    id: v.id,
    pos: 0,
    names: [v.name, ...v.otherNames].map(nameForms),
    own: 0,
    population: city.population,
    lat: v.lat ?? city.lat,
    lng: v.long ?? city.lng,
    country: city.country,
    admin1: city.admin1,
    kind: v.kind,
    cityId: city === NO_CITY ? null : city.id,
    cityPos: city.pos,
    norm: normalize(v.name),
  };
}

/** Venues of a file, in the venues' order: their city's pos, their name, their id; cityless last. */
export function venuesOf(rows: readonly VenueRow[], cities: readonly Candidate[]): Candidate[] {
  const byId = new Map(cities.map((c) => [c.id, c]));
  const venues = rows.map((v) => venueOf(v, v.cityId === null ? undefined : byId.get(v.cityId)));
  const bytes = (s: string) => Buffer.from(s);
  venues.sort(
    (a, b) =>
      a.cityPos - b.cityPos || Buffer.compare(bytes(a.norm), bytes(b.norm)) || Buffer.compare(bytes(a.id), bytes(b.id)),
  );
  venues.forEach((v, i) => (v.pos = i + 1));
  return venues;
}

/** The documented weights (log10): a class's penalty, a kind's bonus, a band of distance's penalty. */
const PENALTY = { mainExact: -1.5, starts: 0, ownWords: 1.5, alternateStarts: 2, wordsStart: 2.5 };
const KIND_BONUS: Record<string, number> = {
  arena: 0.3,
  stadium: 0.3,
  "concert hall": 0.2,
  amphitheatre: 0.2,
  theatre: 0.1,
  club: 0.1,
};
const BANDS: [km: number, penalty: number][] = [12.5, 50, 200, 800, 5000].map((mid, i) => [
  [25, 100, 400, 1600, Infinity][i] ?? Infinity,
  1.5 * Math.log10(1 + mid / 25),
]);

export const token = (form: string) => `_${words(form).join("_")}`;

/**
 * Whether the typed words start words of `name` (one form's words), each its own: tried every way
 * of giving each typed word a word of the name (a plain search, apart from the worker's matching).
 */
function eachOwnWord(
  name: readonly string[],
  typed: readonly string[],
  taken: ReadonlySet<number> = new Set(),
): boolean {
  const [first, ...rest] = typed;
  if (first === undefined) return true;
  return name.some((w, i) => !taken.has(i) && w.startsWith(first) && eachOwnWord(name, rest, new Set([...taken, i])));
}

/** Whether one name (its forms) holds every typed word as the start of one of its words, each its own. */
export const holds = (forms: readonly string[], typed: readonly string[]): boolean =>
  forms.some((form) => eachOwnWord(words(form), typed));

/** The penalty of the best way a record's names hold the text, or null when none does. */
export function classPenalty(c: Candidate, text: string, resource: "venues" | "cities"): number | null {
  const typed = words(normalize(text));
  if (typed.length === 0) return null;
  const t = token(normalize(text));
  const own = c.names.slice(0, c.own).flat();
  if (resource === "cities" && own.some((f) => token(f) === t)) return PENALTY.mainExact;
  const startsOwn = (resource === "cities" ? own : c.names.flat()).some((f) => token(f).startsWith(t));
  if (startsOwn) return PENALTY.starts;
  // A city's shown name (its GeoNames name) holding the words, not at its start.
  if (resource === "cities" && holds(c.names[0] ?? [], typed)) return PENALTY.ownWords;
  if (resource === "cities" && c.names.flat().some((f) => token(f).startsWith(t))) return PENALTY.alternateStarts;
  return c.names.some((forms) => holds(forms, typed)) ? PENALTY.wordsStart : null;
}

export interface Ask {
  text: string;
  focus?: { lat: number; lng: number };
  country?: string;
  stateCode?: string;
  kind?: string;
  cityId?: string;
  bbox?: [west: number, south: number, east: number, north: number];
}

function inBox(c: Candidate, [west, south, east, north]: NonNullable<Ask["bbox"]>): boolean {
  if (c.lat === null || c.lng === null) return false;
  const lngIn = west <= east ? c.lng >= west && c.lng <= east : c.lng >= west || c.lng <= east;
  return c.lat >= south && c.lat <= north && lngIn;
}

export function passes(c: Candidate, a: Ask): boolean {
  return (
    (a.country === undefined || c.country === a.country) &&
    (a.stateCode === undefined || c.admin1 === a.stateCode) &&
    (a.kind === undefined || c.kind === a.kind) &&
    (a.cityId === undefined || c.cityId === a.cityId) &&
    (a.bbox === undefined || inBox(c, a.bbox))
  );
}

function bandPenalty(c: Candidate, focus: Ask["focus"]): number {
  if (focus === undefined) return 0;
  const d = c.lat === null || c.lng === null ? Infinity : km(focus.lat, focus.lng, c.lat, c.lng);
  return (BANDS.find(([edge]) => d <= edge) ?? BANDS[BANDS.length - 1] ?? [0, 0])[1];
}

export interface Scored {
  id: string;
  pos: number;
  score: number;
}

/** Every record the text matches, with its score, in the suggestions' order. */
export function bruteForce(records: readonly Candidate[], resource: "venues" | "cities", a: Ask): Scored[] {
  const scored: Scored[] = [];
  for (const c of records) {
    if (!passes(c, a)) continue;
    const penalty = classPenalty(c, a.text, resource);
    if (penalty === null) continue;
    const bonus = resource === "venues" ? (KIND_BONUS[c.kind] ?? 0) : 0;
    scored.push({
      id: c.id,
      pos: c.pos,
      score: Math.log10(c.population + 10) + bonus - penalty - bandPenalty(c, a.focus),
    });
  }
  return scored.sort((x, y) => y.score - x.score || x.pos - y.pos);
}
