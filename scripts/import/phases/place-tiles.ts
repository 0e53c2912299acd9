/**
 * The sweep's grid (place-sweep.ts): small tiles of latitude and longitude, each holding places by
 * number. A row of tiles is one sorted array of numbers (column × ITEMS + place), not an array per
 * tile: at 5M cities the sweep holds hundreds of thousands of places in tens of thousands of tiles,
 * and an array per tile cost more than the places themselves.
 */
import { KM_PER_DEGREE, rad } from "../../../src/data-contract/distance.ts";

/** Side of a tile, degrees (about 5.6 km of latitude). */
const TILE_DEG = 0.05;
const TILE_COLUMNS = Math.round(360 / TILE_DEG);
/** Place numbers are below this (a key holds a column and a place number: below 2^53). */
const ITEMS = 2 ** 30;

const tileRow = (lat: number) => Math.floor((lat + 90) / TILE_DEG);
const tileColumn = (lng: number) => ((Math.floor((lng + 180) / TILE_DEG) % TILE_COLUMNS) + TILE_COLUMNS) % TILE_COLUMNS;

/** Degrees of longitude that hold every point within `km` of a point at `lat` (a box's half-width). */
export function lngSpan(lat: number, km: number): number {
  const poleward = Math.min(90, Math.abs(lat) + km / KM_PER_DEGREE);
  return Math.min(180, km / (KM_PER_DEGREE * Math.max(Math.cos(rad(poleward)), 0.01)));
}

/** The columns of the box within `km` of a point, as one or two (across the antimeridian) ranges. */
function columnRanges(lat: number, lng: number, km: number): [number, number][] {
  const span = lngSpan(lat, km);
  if (span >= 180) return [[0, TILE_COLUMNS - 1]];
  const first = tileColumn(lng - span);
  const last = tileColumn(lng + span);
  return first <= last
    ? [[first, last]]
    : [
        [first, TILE_COLUMNS - 1],
        [0, last],
      ];
}

/** One row of tiles: keys appended as places come, sorted when next read. */
class TileRow {
  private keys = new Float64Array(64);
  private count = 0;
  private sorted = true;

  add(column: number, item: number): void {
    if (this.count === this.keys.length) {
      const grown = new Float64Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    this.keys[this.count++] = column * ITEMS + item;
    this.sorted = false;
  }

  /** Appends to `out` the places of columns `from` to `to`. */
  collect(from: number, to: number, out: number[]): void {
    if (!this.sorted) {
      this.keys.subarray(0, this.count).sort();
      this.sorted = true;
    }
    const end = (to + 1) * ITEMS;
    for (let i = this.firstAtOrAfter(from * ITEMS); i < this.count; i++) {
      const key = this.keys[i] ?? end;
      if (key >= end) break;
      out.push(key % ITEMS);
    }
  }

  private firstAtOrAfter(key: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] ?? Infinity) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Places by tile, rows of tiles south of a line dropped as the sweep moves north. */
export class Tiles {
  private readonly rows = new Map<number, TileRow>();
  private southmostRow = -Infinity;

  /** Adds place `item` to every tile of the box within `km` of a point (rows already dropped excepted). */
  addAround(lat: number, lng: number, km: number, item: number): void {
    const ranges = columnRanges(lat, lng, km);
    const degrees = km / KM_PER_DEGREE;
    for (let r = Math.max(tileRow(lat - degrees), this.southmostRow); r <= tileRow(lat + degrees); r++) {
      let row = this.rows.get(r);
      if (row === undefined) this.rows.set(r, (row = new TileRow()));
      for (const [from, to] of ranges) for (let column = from; column <= to; column++) row.add(column, item);
    }
  }

  /** The places of the tile of a point, into `out` (emptied first). */
  at(lat: number, lng: number, out: number[]): number[] {
    out.length = 0;
    const column = tileColumn(lng);
    this.rows.get(tileRow(lat))?.collect(column, column, out);
    return out;
  }

  /** The places of every tile of the box within `km` of a point, into `out` (emptied first). */
  around(lat: number, lng: number, km: number, out: number[]): number[] {
    out.length = 0;
    const ranges = columnRanges(lat, lng, km);
    const degrees = km / KM_PER_DEGREE;
    for (let r = tileRow(lat - degrees); r <= tileRow(lat + degrees); r++) {
      const row = this.rows.get(r);
      if (row !== undefined) for (const [from, to] of ranges) row.collect(from, to, out);
    }
    return out;
  }

  dropSouthOf(lat: number): void {
    this.southmostRow = tileRow(lat);
    for (const r of this.rows.keys()) if (r < this.southmostRow) this.rows.delete(r);
  }
}
