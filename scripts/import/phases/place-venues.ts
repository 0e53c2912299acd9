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
 * Candidates come from R*Trees of the cities (PlaceIndex), so placing a million venues is a million
 * index lookups, not a scan each. Then two venues of different sources with the same normalized
 * name within 250 m are one: the first file given keeps its record.
 */
import type Database from "better-sqlite3";
import type { Progress } from "../progress.ts";
import { haversineKm, KM_PER_DEGREE, rad } from "../../../src/data-contract/distance.ts";
import { largestCovering, nearestPlace, peopled, REACH_KM, reachKm, type Place } from "./place-rule.ts";

const SAME_VENUE_KM = 0.25;

/** A city of the build file as the rules read it (and the generator names its venues' URLs with). */
export interface CityRow extends Place {
  gid: number;
  name: string;
  country_code: string;
  admin1_code: string | null;
}

/** A place near a venue's point: its names (as name tokens) and its distance. */
interface Candidate extends CityRow {
  names: string;
  km: number;
}

/** Degrees of longitude that hold every point within `km` of a point at `lat` (a box's half-width). */
function lngSpan(lat: number, km: number): number {
  const poleward = Math.min(90, Math.abs(lat) + km / KM_PER_DEGREE);
  return Math.min(180, km / (KM_PER_DEGREE * Math.max(Math.cos(rad(poleward)), 0.01)));
}

const CITY_COLUMNS = "c.gid, c.name, c.country_code, c.admin1_code, c.lat, c.lng, c.population, c.section";
const BOX = "b.min_lat <= ? AND b.max_lat >= ? AND b.min_lng <= ? AND b.max_lng >= ?";
const boxAround = (lat: number, lng: number, km: number) => {
  const dLat = km / KM_PER_DEGREE;
  const dLng = lngSpan(lat, km);
  return [lat + dLat, lat - dLat, lng + dLng, lng - dLng];
};
/** A row of raw_cities as SQLite gives it: `section` a number. */
export type Row<T extends Place> = Omit<T, "section"> & { section: number };
export const withSection = <T extends Place>(r: Row<T>): T => ({ ...r, section: r.section !== 0 }) as unknown as T;

/**
 * The build file's cities near a point, from two R*Trees in the temp schema: their points (every
 * place within REACH_KM: rule 1's candidates) and the boxes of the peopled places' reach (the few
 * that may cover a point: rule 2). Open while placing; close() drops them.
 */
export class PlaceIndex {
  private readonly points: Database.Statement;
  private readonly reaches: Database.Statement;
  constructor(private readonly db: Database.Database) {
    db.function("lng_span", { deterministic: true }, lngSpan);
    db.function("reach_km", { deterministic: true }, reachKm);
    db.exec(`
      CREATE VIRTUAL TABLE temp.city_points USING rtree(gid, min_lat, max_lat, min_lng, max_lng);
      INSERT INTO temp.city_points SELECT gid, lat, lat, lng, lng FROM raw_cities;
      CREATE VIRTUAL TABLE temp.city_reaches USING rtree(gid, min_lat, max_lat, min_lng, max_lng);
      INSERT INTO temp.city_reaches SELECT gid, lat - km / ${KM_PER_DEGREE}, lat + km / ${KM_PER_DEGREE},
          lng - lng_span(lat, km), lng + lng_span(lat, km)
        FROM (SELECT gid, lat, lng, min(${REACH_KM}, reach_km(population)) AS km
              FROM raw_cities WHERE section = 0 AND population > 0);`);
    this.points = db.prepare(
      `SELECT ${CITY_COLUMNS}, c.names FROM temp.city_points b JOIN raw_cities c ON c.gid = b.gid WHERE ${BOX}`,
    );
    this.reaches = db.prepare(
      `SELECT ${CITY_COLUMNS} FROM temp.city_reaches b JOIN raw_cities c ON c.gid = b.gid WHERE ${BOX}`,
    );
  }

  /** Every place within REACH_KM of the point, with its distance. */
  near(lat: number, lng: number): Candidate[] {
    const rows = this.points.all(...boxAround(lat, lng, REACH_KM)) as Row<Candidate>[];
    return rows
      .map((c) => withSection<Candidate>({ ...c, km: haversineKm(lat, lng, c.lat, c.lng) }))
      .filter((c) => c.km <= REACH_KM);
  }

  /**
   * Rule 2 for points within `km` of a centre: the places whose reach may cover one of them are
   * looked up once (a generated city's venues lie around it), the rest is place-rule.ts.
   */
  around(lat: number, lng: number, km: number): (lat: number, lng: number) => CityRow | undefined {
    const covering = (this.reaches.all(...boxAround(lat, lng, km)) as Row<CityRow>[]).map(withSection<CityRow>);
    // Every place within REACH_KM of any of the points, read when a point is covered by none.
    let nearby: CityRow[] | undefined;
    const nearest = (pLat: number, pLng: number) => {
      nearby ??= (this.points.all(...boxAround(lat, lng, REACH_KM + km)) as Row<CityRow>[]).map(withSection<CityRow>);
      return nearestPlace(nearby, pLat, pLng);
    };
    return (pLat, pLng) => largestCovering(covering, pLat, pLng) ?? nearest(pLat, pLng);
  }

  close(): void {
    this.db.exec("DROP TABLE temp.city_points; DROP TABLE temp.city_reaches;");
  }
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
function placeAt(places: PlaceIndex, lat: number, lng: number, hints: readonly string[]): [CityRow, string] | null {
  const byPosition = () => places.around(lat, lng, 0)(lat, lng);
  const candidates = hints.length > 0 ? places.near(lat, lng) : [];
  for (const hint of hints) {
    const named = candidates.filter((c) => hasName(c.names, hint)).sort((a, b) => a.km - b.km)[0];
    if (named === undefined) continue;
    if (peopled(named)) return [named, "hint"];
    const city = byPosition();
    return city === undefined ? [named, "hint"] : [city, "position"];
  }
  const city = byPosition();
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
  const places = new PlaceIndex(db);
  db.exec("CREATE INDEX raw_cities_by_name ON raw_cities (name_norm)");
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
            ? placeAt(places, v.lat, v.lng, hints)
            : placeByName(named, hints, v.country_hint);
        if (found !== null) {
          update.run(found[0].gid, found[1], v.rowid);
          placed++;
        }
      }
    })();
    progress.tick((done += rows.length));
  }
  places.close();
  db.exec("DROP INDEX raw_cities_by_name");
  return placed;
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
