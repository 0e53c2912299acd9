/**
 * Phase 1b, place the venues that came without a city (docs/import.md#which-city-a-venue-is-in):
 * each gets the GeoNames place a person would name for it.
 *
 * 1. A city its source names (OSM addr:city, MusicBrainz area or address), among the places within
 *    REACH_KM of its point: the nearest place with that name — unless that is a section of a city
 *    (PPLX) or a place without people (Kensington, PPLA3, population 0), when rule 2 decides.
 * 2. Its point: of the populated places near it that are not sections, those whose reach (growing
 *    with population) covers the point, the largest: the Royal Albert Hall is in London, not
 *    Kensington; Berghain in Berlin, not Friedrichshain. Failing that, the nearest such place.
 * 3. No point: the named place alone, when it is the only one of that name (in the source's
 *    country, when known) or ten times as populous as the next.
 *
 * Candidates come from an R*Tree of the cities (a box around each point), so placing a million
 * venues is a million index lookups, not a scan each. Then two venues of different sources with the
 * same normalized name within 250 m are one: the first file given keeps its record.
 */
import type Database from "better-sqlite3";
import type { Progress } from "../progress.ts";
import { haversineKm } from "../../../src/data-contract/distance.ts";

const REACH_KM = 30;
const SAME_VENUE_KM = 0.25;

/** How far from its centre a place of this population is still "in" it, km. */
export const reachKm = (population: number): number => 1 + 7 * Math.sqrt(population / 1e6);

interface Candidate {
  gid: number;
  lat: number;
  lng: number;
  population: number;
  section: number;
  names: string;
  km: number;
}

const peopled = (c: Candidate) => c.section === 0 && c.population > 0;

/** Rule 2: the largest peopled place whose reach covers the point, else the nearest peopled place. */
function byPosition(candidates: readonly Candidate[]): Candidate | undefined {
  const eligible = candidates.filter(peopled);
  const covering = eligible.filter((c) => c.km <= reachKm(c.population));
  if (covering.length > 0) return covering.reduce((a, b) => (b.population > a.population ? b : a));
  return [...eligible, ...candidates.filter((c) => c.section === 0)].sort((a, b) => a.km - b.km)[0];
}

/** Whether a space-separated list of name tokens holds `token` (no split: lists can be long). */
function hasName(names: string, token: string): boolean {
  for (let at = names.indexOf(token); at !== -1; at = names.indexOf(token, at + 1)) {
    const end = at + token.length;
    if ((at === 0 || names[at - 1] === " ") && (end === names.length || names[end] === " ")) return true;
  }
  return false;
}

/** Rules 1 and 2 for a venue with a point: its city and how it was found. */
function placeAt(candidates: readonly Candidate[], hints: readonly string[]): [Candidate, string] | null {
  for (const hint of hints) {
    const named = candidates.filter((c) => hasName(c.names, hint)).sort((a, b) => a.km - b.km)[0];
    if (named === undefined) continue;
    if (peopled(named)) return [named, "hint"];
    const city = byPosition(candidates);
    return city === undefined ? [named, "hint"] : [city, "position"];
  }
  const city = byPosition(candidates);
  return city === undefined ? null : [city, "position"];
}

interface Unplaced {
  rowid: number;
  lat: number | null;
  lng: number | null;
  hints: string;
  country_hint: string | null;
}

/** Places every venue without a city; returns how many got one. */
export function placeVenues(db: Database.Database, progress: Progress): number {
  const unplaced = "city_gid IS NULL AND (lat IS NOT NULL OR hints <> '')";
  const total = db.prepare(`SELECT count(*) FROM raw_venues WHERE ${unplaced}`).pluck().get() as number;
  if (total === 0) return 0;
  progress.phase("placing venues in their cities", total);
  db.exec(`
    CREATE VIRTUAL TABLE temp.city_boxes USING rtree(gid, min_lat, max_lat, min_lng, max_lng);
    INSERT INTO temp.city_boxes SELECT gid, lat, lat, lng, lng FROM raw_cities;
    CREATE INDEX raw_cities_by_name ON raw_cities (name_norm);`);
  const near = db.prepare(
    `SELECT c.gid, c.lat, c.lng, c.population, c.section, c.names FROM temp.city_boxes b JOIN raw_cities c ON c.gid = b.gid
     WHERE b.min_lat <= ? AND b.max_lat >= ? AND b.min_lng <= ? AND b.max_lng >= ?`,
  );
  const named = db.prepare(
    "SELECT gid, population, country_code, section FROM raw_cities WHERE name_norm = ? ORDER BY population DESC",
  );
  const batch = db.prepare(
    `SELECT rowid, lat, lng, hints, country_hint FROM raw_venues WHERE ${unplaced} AND rowid > ? ORDER BY rowid LIMIT 2000`,
  );
  const update = db.prepare("UPDATE raw_venues SET city_gid = ?, placed = ? WHERE rowid = ?");
  let done = 0;
  let placed = 0;
  for (
    let rows = batch.all(0) as Unplaced[];
    rows.length > 0;
    rows = batch.all(rows.at(-1)?.rowid ?? 0) as Unplaced[]
  ) {
    db.transaction(() => {
      for (const v of rows) {
        const hints = v.hints === "" ? [] : v.hints.split(" ");
        const found =
          v.lat !== null && v.lng !== null
            ? placeAt(candidatesNear(near, v.lat, v.lng), hints)
            : placeByName(named, hints, v.country_hint);
        if (found !== null) {
          update.run(found[0].gid, found[1], v.rowid);
          placed++;
        }
      }
    })();
    progress.tick((done += rows.length));
  }
  db.exec("DROP TABLE temp.city_boxes; DROP INDEX raw_cities_by_name;");
  return placed;
}

function candidatesNear(near: Database.Statement, lat: number, lng: number): Candidate[] {
  const dLat = REACH_KM / 111.2;
  const dLng = Math.min(180, REACH_KM / (111.2 * Math.max(Math.cos((lat * Math.PI) / 180), 0.01)));
  const rows = near.all(lat + dLat, lat - dLat, lng + dLng, lng - dLng) as Omit<Candidate, "km">[];
  return rows.map((c) => ({ ...c, km: haversineKm(lat, lng, c.lat, c.lng) })).filter((c) => c.km <= REACH_KM);
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

/**
 * The same venue from two sources (the same normalized name within 250 m) is imported once: the
 * record of the file given first stays. Returns the records dropped, by file.
 */
export function dropSameVenues(db: Database.Database): Map<string, number> {
  const dropped = new Map<string, number>();
  const hasPoints = db
    .prepare("SELECT 1 FROM raw_venues WHERE lat IS NOT NULL AND source <> 'generated' LIMIT 1")
    .get();
  if (hasPoints === undefined) return dropped;
  db.exec("CREATE INDEX raw_venues_by_name ON raw_venues (name_norm, lat)");
  const pairs = db
    .prepare(
      `SELECT b.rowid AS rowid, b.file AS file, a.lat AS alat, a.lng AS alng, b.lat AS blat, b.lng AS blng
       FROM raw_venues a JOIN raw_venues b ON b.name_norm = a.name_norm AND b.rowid > a.rowid
       WHERE a.lat IS NOT NULL AND b.lat BETWEEN a.lat - 0.003 AND a.lat + 0.003 AND a.source <> b.source`,
    )
    .all() as { rowid: number; file: string; alat: number; alng: number; blat: number; blng: number }[];
  const remove = db.prepare("DELETE FROM raw_venues WHERE rowid = ?");
  db.transaction(() => {
    for (const p of pairs) {
      if (haversineKm(p.alat, p.alng, p.blat, p.blng) > SAME_VENUE_KM) continue;
      if (remove.run(p.rowid).changes > 0) dropped.set(p.file, (dropped.get(p.file) ?? 0) + 1);
    }
  })();
  db.exec("DROP INDEX raw_venues_by_name");
  return dropped;
}
