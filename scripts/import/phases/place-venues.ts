/**
 * Phase 1b, place the venues that came without a city (docs/import.md#which-city-a-venue-is-in):
 * each gets the GeoNames place a person would name for it.
 *
 * 1. A city its source names (OSM addr:city, MusicBrainz area or address), among the places within
 *    REACH_KM of its point: the nearest place with that name — unless that is a section of a city
 *    (PPLX) or a place without people (Kensington, PPLA3, population 0), when rule 2 decides.
 * 2. Its point (place-rule.ts, which the venue generator follows too): of the populated places
 *    near it that are not sections, those whose reach (growing with population) covers the point,
 *    the largest: the Royal Albert Hall is in London, not Kensington; Berghain in Berlin, not
 *    Friedrichshain. Failing that, the nearest such place.
 * 3. No point: the named place alone, when it is the only one of that name (in the source's
 *    country, when known) or ten times as populous as the next.
 *
 * Candidates come from a sweep over the cities, band by band of latitude (place-sweep.ts): each
 * city is read once and a venue's candidates are those of a few tiles in memory. Then two venues of different sources with the same normalized
 * name within 250 m are one: the first file given keeps its record.
 */
import type Database from "better-sqlite3";
import type { Progress } from "../progress.ts";
import { haversineKm } from "../../../src/data-contract/distance.ts";
import { SETLIST_VENUE_URL_PREFIX } from "../../../src/data-contract/ids.ts";
import { RAW_VENUES_FILE } from "./build-file.ts";
import { peopled, REACH_KM } from "./place-rule.ts";
import { bandOf, bandSouth, PlaceSweep, type CityRow } from "./place-sweep.ts";

const SAME_VENUE_KM = 0.25;

/** Whether a space-separated list of name tokens holds `token` (no split: lists can be long). */
function hasName(names: string, token: string): boolean {
  for (let at = names.indexOf(token); at !== -1; at = names.indexOf(token, at + 1)) {
    const end = at + token.length;
    if ((at === 0 || names[at - 1] === " ") && (end === names.length || names[end] === " ")) return true;
  }
  return false;
}

/** Rules 1 and 2 for a venue with a point: its city and how it was found. */
function placeAt(places: PlaceSweep, lat: number, lng: number, hints: readonly string[]): [CityRow, string] | null {
  const candidates = hints.length > 0 ? places.near(lat, lng) : [];
  for (const hint of hints) {
    const named = candidates.filter((c) => hasName(c.names, hint)).sort((a, b) => a.km - b.km)[0];
    if (named === undefined) continue;
    if (peopled(named)) return [named, "hint"];
    const city = places.placeOf(lat, lng);
    return city === undefined ? [named, "hint"] : [city, "position"];
  }
  const city = places.placeOf(lat, lng);
  return city === undefined ? null : [city, "position"];
}

interface Unplaced {
  rowid: number;
  lat: number;
  lng: number;
  hints: string;
  country_hint: string | null;
}

const hintList = (hints: string): string[] => (hints === "" ? [] : hints.split(" "));

/** Places every venue without a city; returns how many got one. */
export function placeVenues(db: Database.Database, progress: Progress): number {
  const unplaced = "city_gid IS NULL AND (lat IS NOT NULL OR hints <> '')";
  const total = db.prepare(`SELECT count(*) FROM raw_venues WHERE ${unplaced}`).pluck().get() as number;
  if (total === 0) return 0;
  progress.phase("placing venues in their cities", total);
  const update = db.prepare("UPDATE raw_venues SET city_gid = ?, placed = ? WHERE rowid = ?");
  let done = 0;
  let placed = 0;
  const write = (found: [{ gid: number }, string] | null, rowid: number) => {
    if (found === null) return;
    update.run(found[0].gid, found[1], rowid);
    placed++;
  };
  for (const rows of venuesByBand(db)) {
    const places = rows.places;
    db.transaction(() => {
      for (const v of rows.venues) write(placeAt(places, v.lat, v.lng, hintList(v.hints)), v.rowid);
    })();
    progress.tick((done += rows.venues.length));
  }
  db.exec("CREATE INDEX raw_cities_by_name ON raw_cities (name_norm)");
  const named = db.prepare(
    "SELECT gid, population, country_code, section FROM raw_cities WHERE name_norm = ? ORDER BY population DESC",
  );
  const withoutPoint = db
    .prepare("SELECT rowid, hints, country_hint FROM raw_venues WHERE city_gid IS NULL AND lat IS NULL AND hints <> ''")
    .all() as Omit<Unplaced, "lat" | "lng">[];
  db.transaction(() => {
    for (const v of withoutPoint) write(placeByName(named, hintList(v.hints), v.country_hint), v.rowid);
  })();
  progress.tick(done + withoutPoint.length);
  db.exec("DROP INDEX raw_cities_by_name");
  return placed;
}

/**
 * The venues with a point and no city, band by band south to north (PlaceSweep), each band with
 * the sweep holding the places around it.
 */
function* venuesByBand(db: Database.Database): Generator<{ venues: Unplaced[]; places: PlaceSweep }> {
  const range = db
    .prepare("SELECT min(lat) AS south, max(lat) AS north FROM raw_venues WHERE city_gid IS NULL AND lat IS NOT NULL")
    .get() as { south: number | null; north: number | null };
  if (range.south === null || range.north === null) return;
  const places = new PlaceSweep(db, { marginKm: REACH_KM, names: true });
  db.exec(`CREATE INDEX ${RAW_VENUES_FILE}.raw_venues_by_lat ON raw_venues (lat)`);
  const inBand = db.prepare(
    "SELECT rowid, lat, lng, hints, country_hint FROM raw_venues WHERE lat >= ? AND lat < ? AND city_gid IS NULL ORDER BY rowid",
  );
  try {
    for (let band = bandOf(range.south); band <= bandOf(range.north); band++) {
      const venues = inBand.all(bandSouth(band), bandSouth(band + 1)) as Unplaced[];
      if (venues.length === 0) continue;
      places.advanceTo(band);
      yield { venues, places };
    }
  } finally {
    places.close();
    db.exec(`DROP INDEX ${RAW_VENUES_FILE}.raw_venues_by_lat`);
  }
}

/** Rule 3: a named place without a point, when the name is unambiguous. */
function placeByName(
  named: Database.Statement,
  hints: readonly string[],
  country: string | null,
): [{ gid: number }, string] | null {
  for (const hint of hints) {
    const all = named.all(hint.slice(1).replaceAll("_", " ")) as {
      gid: number;
      population: number;
      country_code: string;
      section: number;
    }[];
    const places = all.filter((p) => p.section === 0 && (country === null || p.country_code === country));
    const [first, second] = places;
    if (first !== undefined && (second === undefined || first.population >= 10 * second.population))
      return [first, "hint"];
  }
  return null;
}

/** Two lists of space-separated tokens as one, each token once, the first list's first. */
const union = (a: string, b: string): string => [...new Set(`${a} ${b}`.split(" ").filter(Boolean))].join(" ");

interface SamePair {
  keep: number;
  other: number;
  file: string;
  km: number;
}

/**
 * The same venue from two sources (the same normalized name within 250 m) is imported once: the
 * record of the file given first stays, found by every name either record has, and under the
 * setlist.fm id and url of the other when only the other has them (a MusicBrainz place that links
 * its setlist.fm page, docs/import.md#setlistfm-ids). Returns the records dropped, by file.
 */
export function dropSameVenues(db: Database.Database): Map<string, number> {
  const dropped = new Map<string, number>();
  const hasPoints = db
    .prepare("SELECT 1 FROM raw_venues WHERE lat IS NOT NULL AND source <> 'generated' LIMIT 1")
    .get();
  if (hasPoints === undefined) return dropped;
  db.exec(`CREATE INDEX ${RAW_VENUES_FILE}.raw_venues_by_name ON raw_venues (name_norm, lat)`);
  const pairs = (
    db
      .prepare(
        `SELECT a.rowid AS keep, b.rowid AS other, b.file AS file, a.lat AS alat, a.lng AS alng, b.lat AS blat, b.lng AS blng
         FROM raw_venues a JOIN raw_venues b ON b.name_norm = a.name_norm AND b.rowid > a.rowid
         WHERE a.lat IS NOT NULL AND b.lat BETWEEN a.lat - 0.003 AND a.lat + 0.003 AND a.source <> b.source`,
      )
      .all() as { keep: number; other: number; file: string; alat: number; alng: number; blat: number; blng: number }[]
  ).map((p): SamePair => ({ ...p, km: haversineKm(p.alat, p.alng, p.blat, p.blng) }));
  const merge = mergeStatements(db);
  db.transaction(() => {
    for (const p of pairs) {
      if (p.km > SAME_VENUE_KM || !merge(p)) continue;
      dropped.set(p.file, (dropped.get(p.file) ?? 0) + 1);
    }
  })();
  db.exec(`DROP INDEX ${RAW_VENUES_FILE}.raw_venues_by_name`);
  return dropped;
}

/** Merges one pair into its first record; false when either was merged away already. */
function mergeStatements(db: Database.Database): (p: SamePair) => boolean {
  const read = db.prepare("SELECT id, url, words, names, own_id, own_url FROM raw_venues WHERE rowid = ?");
  const update = db.prepare(
    "UPDATE raw_venues SET id = ?, url = ?, words = ?, names = ?, own_id = ?, own_url = ? WHERE rowid = ?",
  );
  const remove = db.prepare("DELETE FROM raw_venues WHERE rowid = ?");
  type Merged = {
    id: string;
    url: string | null;
    words: string;
    names: string;
    own_id: string | null;
    own_url: string | null;
  };
  const isSetlist = (url: string | null) => url?.startsWith(SETLIST_VENUE_URL_PREFIX) === true;
  return (p) => {
    const kept = read.get(p.keep) as Merged | undefined;
    const other = read.get(p.other) as Merged | undefined;
    if (kept === undefined || other === undefined) return false;
    const takeId = isSetlist(other.url) && !isSetlist(kept.url);
    update.run(
      takeId ? other.id : kept.id,
      takeId ? other.url : kept.url,
      union(kept.words, other.words),
      union(kept.names, other.names),
      takeId ? kept.id : kept.own_id,
      takeId ? kept.url : kept.own_url,
      p.keep,
    );
    remove.run(p.other);
    return true;
  };
}
