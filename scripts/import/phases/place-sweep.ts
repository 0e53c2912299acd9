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
import { haversineKm, KM_PER_DEGREE } from "../../../src/data-contract/distance.ts";
import {
  isPeopled,
  largestCovering,
  nearestPlace,
  REACH_KM,
  reachKm,
  type Place,
  type PlaceReader,
} from "./place-rule.ts";
import { Tiles } from "./place-tiles.ts";

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
/** Boxes searched for the nearest place, km: the nearest within one of them is the nearest of all. */
const NEAREST_STEPS_KM = [2, 8, REACH_KM];
/** Bands a reach spans beyond its own (a place's number stays readable while a tile may hold it). */
const REACH_BANDS = Math.ceil(REACH_KM / (BAND_DEG * KM_PER_DEGREE));
/** A place's number: its band × BAND_PLACES + its index in the band (below 2^30, as place-tiles.ts needs). */
const BAND_PLACES = 2 ** 20;

export const bandOf = (lat: number): number => Math.floor((lat + 90) / BAND_DEG);
export const bandSouth = (band: number): number => band * BAND_DEG - 90;

/**
 * A band's cities as columns, in geonameid order: typed arrays for what the rule weighs, strings
 * for what a placed venue is given (country and state codes shared). About 40 bytes a city and its
 * name, where an object for each city took about 700 with its tiles at 5M cities.
 */
interface BandColumns {
  gid: Float64Array;
  lat: Float64Array;
  lng: Float64Array;
  population: Float64Array;
  section: Uint8Array;
  name: string[];
  countryCode: string[];
  admin1Code: (string | null)[];
  names: string[] | null;
}

type RawRow = [number, number, string, string, string | null, number, number, number, string];

/**
 * The sweep: `advanceTo(band)` for each band in turn, south to north, then `placeOf`/`near` for
 * points within the bands it holds. Creates an index of raw_cities by latitude; close() drops it.
 */
export class PlaceSweep implements PlaceReader<number> {
  private readonly cities = new Tiles();
  private readonly reaches = new Tiles();
  private readonly bands: (BandColumns | undefined)[] = [];
  private readonly codes = new Map<string, string>();
  private readonly found: number[] = [];
  private readonly band: Database.Statement;
  private readonly bandSize: Database.Statement;
  /** Bands held on each side of the band being placed. */
  private readonly reachBands: number;
  private loadedTo = -Infinity;
  private current = -Infinity;

  constructor(
    private readonly db: Database.Database,
    private readonly options: { marginKm: number; names: boolean },
  ) {
    this.reachBands = Math.ceil(options.marginKm / (BAND_DEG * KM_PER_DEGREE));
    // An index that holds every column read: a band is then one range of it, read in order, where
    // looking each city up in the table (in geonameid order) took twice as long at 5M cities.
    const columns = `gid, name, country_code, admin1_code, lng, population, section${options.names ? ", names" : ""}`;
    db.exec(`CREATE INDEX raw_cities_by_lat ON raw_cities (lat, ${columns})`);
    this.band = db
      .prepare(
        `SELECT lat, ${columns}${options.names ? "" : ", ''"} FROM raw_cities WHERE lat >= ? AND lat < ? ORDER BY gid`,
      )
      .raw(true);
    this.bandSize = db.prepare("SELECT count(*) FROM raw_cities WHERE lat >= ? AND lat < ?").pluck();
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
  advanceTo(band: number): CityRow[] {
    if (band < this.current) throw new Error(`the sweep moves north: band ${band} after ${this.current}`);
    this.current = band;
    this.bands.forEach((_, b) => {
      if (b < band - this.reachBands - REACH_BANDS) this.bands[b] = undefined;
    });
    this.cities.dropSouthOf(bandSouth(band - this.reachBands));
    this.reaches.dropSouthOf(bandSouth(band - this.reachBands));
    for (let b = Math.max(this.loadedTo + 1, band - this.reachBands); b <= band + this.reachBands; b++) this.load(b);
    this.loadedTo = Math.max(this.loadedTo, band + this.reachBands);
    const rows: CityRow[] = [];
    for (let i = 0; i < (this.bands[band]?.gid.length ?? 0); i++) rows.push(this.row(band * BAND_PLACES + i));
    return rows;
  }

  private load(band: number): void {
    const size = this.bandSize.get(bandSouth(band), bandSouth(band + 1)) as number;
    if (size === 0) return;
    if (size >= BAND_PLACES) throw new Error(`more than ${BAND_PLACES} cities within ${BAND_DEG}° of latitude`);
    const columns = emptyColumns(size, this.options.names);
    this.bands[band] = columns;
    let i = 0;
    for (const r of this.band.iterate(bandSouth(band), bandSouth(band + 1)) as Iterable<RawRow>) {
      const [lat, gid, name, countryCode, admin1Code, lng, population, section, names] = r;
      columns.gid[i] = gid;
      columns.lat[i] = lat;
      columns.lng[i] = lng;
      columns.population[i] = population;
      columns.section[i] = section;
      columns.name[i] = name;
      columns.countryCode[i] = this.shared(countryCode);
      columns.admin1Code[i] = admin1Code === null ? null : this.shared(admin1Code);
      if (columns.names !== null) columns.names[i] = names;
      const place = band * BAND_PLACES + i++;
      this.cities.addAround(lat, lng, 0, place);
      if (isPeopled(place, this)) this.reaches.addAround(lat, lng, Math.min(REACH_KM, reachKm(population)), place);
    }
  }

  /** One string for each country or state code, however many cities have it. */
  private shared(code: string): string {
    const known = this.codes.get(code);
    if (known !== undefined) return known;
    this.codes.set(code, code);
    return code;
  }

  private columnsOf(place: number): BandColumns {
    const columns = this.bands[Math.floor(place / BAND_PLACES)];
    if (columns === undefined) throw new Error(`place ${place} of a band no longer held`);
    return columns;
  }

  lat = (place: number): number => this.columnsOf(place).lat[place % BAND_PLACES] ?? NaN;
  lng = (place: number): number => this.columnsOf(place).lng[place % BAND_PLACES] ?? NaN;
  population = (place: number): number => this.columnsOf(place).population[place % BAND_PLACES] ?? 0;
  section = (place: number): boolean => this.columnsOf(place).section[place % BAND_PLACES] === 1;

  private row(place: number): CityRow {
    const c = this.columnsOf(place);
    const i = place % BAND_PLACES;
    return {
      gid: c.gid[i] ?? 0,
      name: c.name[i] ?? "",
      country_code: c.countryCode[i] ?? "",
      admin1_code: c.admin1Code[i] ?? null,
      lat: c.lat[i] ?? NaN,
      lng: c.lng[i] ?? NaN,
      population: c.population[i] ?? 0,
      section: c.section[i] === 1,
      names: c.names?.[i] ?? "",
    };
  }

  /** Rule 2 for a point: the largest peopled place whose reach covers it, else the nearest place. */
  placeOf(lat: number, lng: number): CityRow | undefined {
    const place = largestCovering(this.reaches.at(lat, lng, this.found), this, lat, lng) ?? this.nearest(lat, lng);
    return place === undefined ? undefined : this.row(place);
  }

  private nearest(lat: number, lng: number): number | undefined {
    for (const km of NEAREST_STEPS_KM) {
      const found = nearestPlace(this.cities.around(lat, lng, km, this.found), this, lat, lng);
      if (found !== undefined && haversineKm(lat, lng, this.lat(found), this.lng(found)) <= km) return found;
    }
    return undefined;
  }

  /** Every place within REACH_KM of a point (rule 1's candidates), with its distance. */
  near(lat: number, lng: number): Candidate[] {
    const candidates: Candidate[] = [];
    for (const place of this.cities.around(lat, lng, REACH_KM, this.found)) {
      const km = haversineKm(lat, lng, this.lat(place), this.lng(place));
      if (km <= REACH_KM) candidates.push({ ...this.row(place), km });
    }
    return candidates;
  }

  close(): void {
    this.bands.length = 0;
    this.db.exec("DROP INDEX raw_cities_by_lat");
  }
}

function emptyColumns(size: number, names: boolean): BandColumns {
  return {
    gid: new Float64Array(size),
    lat: new Float64Array(size),
    lng: new Float64Array(size),
    population: new Float64Array(size),
    section: new Uint8Array(size),
    name: new Array<string>(size),
    countryCode: new Array<string>(size),
    admin1Code: new Array<string | null>(size),
    names: names ? new Array<string>(size) : null,
  };
}
