/**
 * The places near many points, from memory, in one sorted pass (docs/import.md#which-city-a-venue-is-in):
 * the build file's cities are read band by band (latitude bands of BAND_DEG, south to north), each
 * once, into a grid of small tiles — every city under the tile of its point, every peopled place
 * under each tile its reach touches — and points are placed band by band. Only the bands within
 * `marginKm` of the band being placed are held, so memory follows the densest few bands, not the
 * number of cities, and placing a point reads one tile for rule 2 (place-rule.ts) and a few for
 * the nearest place: its cost does not grow with the cities around it.
 *
 * Real venues (place-venues.ts) and generated ones (venue-rows.ts) are placed through it.
 */
import type Database from "better-sqlite3";
import { haversineKm, KM_PER_DEGREE, rad } from "../../../src/data-contract/distance.ts";
import { largestCovering, nearestPlace, peopled, REACH_KM, reachKm, type Place } from "./place-rule.ts";

/** A city of the build file as the rules read it (and the generator names its venues' URLs with). */
export interface CityRow extends Place {
  gid: number;
  name: string;
  country_code: string;
  admin1_code: string | null;
  /** Its names as name tokens (rule 1), when the sweep reads them; else "". */
  names: string;
}

/** A place near a point, with its distance. */
export type Candidate = CityRow & { km: number };

/** Height of a band, degrees of latitude (about 28 km). */
const BAND_DEG = 0.25;
/** Side of a tile, degrees (about 5.6 km of latitude). */
const TILE_DEG = 0.05;
const TILE_COLUMNS = Math.round(360 / TILE_DEG);
/** Boxes searched for the nearest place, km: the nearest within one of them is the nearest of all. */
const NEAREST_STEPS_KM = [2, 8, REACH_KM];

export const bandOf = (lat: number): number => Math.floor((lat + 90) / BAND_DEG);
export const bandSouth = (band: number): number => band * BAND_DEG - 90;
const tileRow = (lat: number) => Math.floor((lat + 90) / TILE_DEG);
const tileColumn = (lng: number) => ((Math.floor((lng + 180) / TILE_DEG) % TILE_COLUMNS) + TILE_COLUMNS) % TILE_COLUMNS;

/** Degrees of longitude that hold every point within `km` of a point at `lat` (a box's half-width). */
export function lngSpan(lat: number, km: number): number {
  const poleward = Math.min(90, Math.abs(lat) + km / KM_PER_DEGREE);
  return Math.min(180, km / (KM_PER_DEGREE * Math.max(Math.cos(rad(poleward)), 0.01)));
}

/** Items in tiles, by tile row then column; rows south of a line are dropped as the sweep moves north. */
class Tiles<T> {
  private readonly rows = new Map<number, Map<number, T[]>>();
  private southmostRow = -Infinity;

  /** Adds `item` to every tile of the box within `km` of a point (rows already dropped excepted). */
  addAround(lat: number, lng: number, km: number, item: T): void {
    this.eachTile(lat, lng, km, (row, column) => {
      if (row < this.southmostRow) return;
      let columns = this.rows.get(row);
      if (columns === undefined) this.rows.set(row, (columns = new Map()));
      const tile = columns.get(column);
      if (tile === undefined) columns.set(column, [item]);
      else tile.push(item);
    });
  }

  /** The items of the tile of a point. */
  at(lat: number, lng: number): readonly T[] {
    return this.rows.get(tileRow(lat))?.get(tileColumn(lng)) ?? [];
  }

  /** The items of every tile of the box within `km` of a point. */
  around(lat: number, lng: number, km: number): T[] {
    const found: T[] = [];
    this.eachTile(lat, lng, km, (row, column) => {
      const tile = this.rows.get(row)?.get(column);
      if (tile !== undefined) for (const item of tile) found.push(item);
    });
    return found;
  }

  dropSouthOf(lat: number): void {
    this.southmostRow = tileRow(lat);
    for (const row of this.rows.keys()) if (row < this.southmostRow) this.rows.delete(row);
  }

  private eachTile(lat: number, lng: number, km: number, visit: (row: number, column: number) => void): void {
    const degrees = km / KM_PER_DEGREE;
    const span = lngSpan(lat, km);
    const first = span >= 180 ? 0 : tileColumn(lng - span);
    const columns = span >= 180 ? TILE_COLUMNS : ((tileColumn(lng + span) - first + TILE_COLUMNS) % TILE_COLUMNS) + 1;
    for (let row = tileRow(lat - degrees); row <= tileRow(lat + degrees); row++) {
      for (let i = 0; i < columns; i++) visit(row, (first + i) % TILE_COLUMNS);
    }
  }
}

/** A row of raw_cities as SQLite gives it: `section` a number. */
type Row = Omit<CityRow, "section"> & { section: number };

/**
 * The sweep: `advanceTo(band)` for each band in turn, south to north, then `placeOf`/`near` for
 * points within the bands it holds. Creates an index of raw_cities by latitude; close() drops it.
 */
export class PlaceSweep {
  private readonly cities = new Tiles<CityRow>();
  private readonly reaches = new Tiles<CityRow>();
  private readonly held = new Map<number, CityRow[]>();
  private readonly band: Database.Statement;
  /** Bands held on each side of the band being placed. */
  private readonly reachBands: number;
  private loadedTo = -Infinity;
  private current = -Infinity;

  constructor(
    private readonly db: Database.Database,
    options: { marginKm: number; names: boolean },
  ) {
    this.reachBands = Math.ceil(options.marginKm / (BAND_DEG * KM_PER_DEGREE));
    // An index that holds every column read: a band is then one range of it, read in order, where
    // looking each city up in the table (in geonameid order) took twice as long at 5M cities.
    const columns = `gid, name, country_code, admin1_code, lng, population, section${options.names ? ", names" : ""}`;
    db.exec(`CREATE INDEX raw_cities_by_lat ON raw_cities (lat, ${columns})`);
    this.band = db.prepare(
      `SELECT lat, ${columns}${options.names ? "" : ", '' AS names"} FROM raw_cities WHERE lat >= ? AND lat < ? ORDER BY gid`,
    );
  }

  /** The bands that hold a city, south to north (as a range: some may be empty). */
  cityBands(): { first: number; last: number } | undefined {
    const r = this.db.prepare("SELECT min(lat) AS south, max(lat) AS north FROM raw_cities").get() as {
      south: number | null;
      north: number | null;
    };
    return r.south === null || r.north === null ? undefined : { first: bandOf(r.south), last: bandOf(r.north) };
  }

  /** Holds the bands within reach of `band` (bands must come south to north); returns its cities in gid order. */
  advanceTo(band: number): readonly CityRow[] {
    if (band < this.current) throw new Error(`the sweep moves north: band ${band} after ${this.current}`);
    this.current = band;
    for (const b of this.held.keys()) if (b < band - this.reachBands) this.held.delete(b);
    this.cities.dropSouthOf(bandSouth(band - this.reachBands));
    this.reaches.dropSouthOf(bandSouth(band - this.reachBands));
    for (let b = Math.max(this.loadedTo + 1, band - this.reachBands); b <= band + this.reachBands; b++) this.load(b);
    this.loadedTo = Math.max(this.loadedTo, band + this.reachBands);
    return this.held.get(band) ?? [];
  }

  private load(band: number): void {
    const rows = (this.band.all(bandSouth(band), bandSouth(band + 1)) as Row[]).map((r): CityRow => ({
      ...r,
      section: r.section !== 0,
    }));
    for (const city of rows) {
      this.cities.addAround(city.lat, city.lng, 0, city);
      if (peopled(city)) this.reaches.addAround(city.lat, city.lng, Math.min(REACH_KM, reachKm(city.population)), city);
    }
    if (rows.length > 0) this.held.set(band, rows);
  }

  /** Rule 2 for a point: the largest peopled place whose reach covers it, else the nearest place. */
  placeOf(lat: number, lng: number): CityRow | undefined {
    return largestCovering(this.reaches.at(lat, lng), lat, lng) ?? this.nearest(lat, lng);
  }

  private nearest(lat: number, lng: number): CityRow | undefined {
    for (const km of NEAREST_STEPS_KM) {
      const found = nearestPlace(this.cities.around(lat, lng, km), lat, lng);
      if (found !== undefined && haversineKm(lat, lng, found.lat, found.lng) <= km) return found;
    }
    return undefined;
  }

  /** Every place within REACH_KM of a point (rule 1's candidates), with its distance. */
  near(lat: number, lng: number): Candidate[] {
    return this.cities
      .around(lat, lng, REACH_KM)
      .map((c) => ({ ...c, km: haversineKm(lat, lng, c.lat, c.lng) }))
      .filter((c) => c.km <= REACH_KM);
  }

  close(): void {
    this.held.clear();
    this.db.exec("DROP INDEX raw_cities_by_lat");
  }
}
