/**
 * Counting a term's records per cell of the grid (src/data-contract/grid.ts) in one pass over the records
 * in the order of their finest cell: each term's records then fill one cell after another at every
 * level, so a cell is complete when the next record of its term lies elsewhere. Memory grows with
 * the terms, not with the records: per term and level, the open cell's count and box.
 */
import { COUNT_LEVELS, FINEST_LEVEL, KID_STEP } from "../../../src/data-contract/grid.ts";
import { boxReachKm } from "../../../src/data-contract/distance.ts";

/** A row of cell_counts (migrations/0008, 0009), the term as its number. */
export interface CellRow {
  term: number;
  level: number;
  cell: number;
  n: number;
  rest: number;
  /** Its kids that are not stored but hold records: a JSON object of k to count (kid 16 × cell + k); null when none. */
  kidRest: string | null;
  south: number;
  north: number;
  west: number;
  east: number;
  reach: number;
}

interface Box {
  south: number;
  north: number;
  west: number;
  east: number;
}

/** The largest minimum: a kid that is not stored holds fewer records, which the counter keeps in 16 bits. */
export const MAX_CELL_COUNT_MIN = 65_535;

const LEVELS = COUNT_LEVELS.length;
const KIDS = 4 ** KID_STEP;
/** A finest cell's number at each count level is its number divided by this. */
const DIVISOR = COUNT_LEVELS.map((level) => 4 ** (FINEST_LEVEL - level));
/** The bits below a level's cell in a finest cell's number (the world's, 32, is never shifted by). */
const SHIFT = COUNT_LEVELS.map((level) => 2 * (FINEST_LEVEL - level));

/** How many count levels two finest cells share a cell at (the world at least; all when they are one). */
function sharedLevels(a: number, b: number): number {
  const differ = (a ^ b) >>> 0;
  let shared = 1;
  while (shared < LEVELS && differ >>> (SHIFT[shared] ?? 0) === 0) shared++;
  return shared;
}

export class CellCounter {
  private readonly cell: Float64Array;
  private readonly n: Int32Array;
  private readonly storedN: Int32Array;
  /** Per open cell, its 16 kids' counts when they are not stored (each under `min`). */
  private readonly kidRest: Uint16Array;
  /** Per open cell, a bit per kid in kidRest: only those are read and cleared. */
  private readonly kidRestBits: Uint16Array;
  private readonly box: Float64Array;
  private readonly here = new Float64Array(LEVELS);
  private hereFinest = -1;
  /** Per term, the record held aside (pend): its finest cell (-1: none), the levels it shares, its point. */
  private readonly pendingFinest: Float64Array;
  private readonly pendingDepth: Uint8Array;
  private readonly pendingLat: Float64Array;
  private readonly pendingLng: Float64Array;

  constructor(
    terms: number,
    private readonly min: number,
    private readonly emit: (row: CellRow) => void,
  ) {
    if (min > MAX_CELL_COUNT_MIN) throw new Error(`a cell count minimum of at most ${MAX_CELL_COUNT_MIN} expected`);
    this.cell = new Float64Array(terms * LEVELS).fill(-1);
    this.n = new Int32Array(terms * LEVELS);
    this.storedN = new Int32Array(terms * LEVELS);
    this.kidRest = new Uint16Array(terms * LEVELS * KIDS);
    this.kidRestBits = new Uint16Array(terms * LEVELS);
    this.box = new Float64Array(terms * LEVELS * 4);
    for (let i = 0; i < terms * LEVELS; i++) this.resetBox(i);
    this.pendingFinest = new Float64Array(terms).fill(-1);
    this.pendingDepth = new Uint8Array(terms);
    this.pendingLat = new Float64Array(terms);
    this.pendingLng = new Float64Array(terms);
  }

  /** A record of `term` at a point in finest cell `finest`; records come in order of their finest cell. */
  add(term: number, finest: number, lat: number, lng: number): void {
    const pending = this.pendingFinest[term] ?? -1;
    if (pending !== -1) {
      const shared = sharedLevels(pending, finest);
      const depth = this.pendingDepth[term] ?? 0;
      if (shared <= depth) {
        this.fold(term);
        for (let level = depth - 1; level >= shared; level--) this.close(term * LEVELS, level);
        this.pend(term, shared, finest, lat, lng);
        return;
      }
      this.open(term);
    }
    const here = this.cellsOf(finest);
    const base = term * LEVELS;
    const leaf = base + LEVELS - 1;
    if (this.cell[leaf] !== here[LEVELS - 1]) {
      let same = 0;
      while (same < LEVELS && this.cell[base + same] === here[same]) same++;
      for (let level = LEVELS - 1; level >= same; level--) this.close(base, level);
      if (same > 0 && this.min > 1) return this.pend(term, same, finest, lat, lng);
      for (let level = same; level < LEVELS; level++) this.cell[base + level] = here[level] ?? 0;
    }
    this.n[leaf] = (this.n[leaf] ?? 0) + 1;
    this.grow(leaf, lat, lat, lng, lng);
  }

  /**
   * A record alone in its cells from level `depth` down (its term's others share only the cells
   * above): held aside rather than opened, since most such cells close with it alone, under the
   * minimum (3.6 closes a record at 1M venues on 2M cities, 2026-11-27). The next record of the
   * term either folds it into the cell above (fold) or shares a cell with it and opens it (open).
   */
  private pend(term: number, depth: number, finest: number, lat: number, lng: number): void {
    this.pendingFinest[term] = finest;
    this.pendingDepth[term] = depth;
    this.pendingLat[term] = lat;
    this.pendingLng[term] = lng;
  }

  /** The held record's cells closed as closing each would: its count, point and kid go to the cell above. */
  private fold(term: number): void {
    const depth = this.pendingDepth[term] ?? 0;
    const parent = term * LEVELS + depth - 1;
    const lat = this.pendingLat[term] ?? 0;
    const lng = this.pendingLng[term] ?? 0;
    this.n[parent] = (this.n[parent] ?? 0) + 1;
    this.grow(parent, lat, lat, lng, lng);
    const kid = Math.floor((this.pendingFinest[term] ?? 0) / (DIVISOR[depth] ?? 1)) % KIDS;
    this.kidRest[parent * KIDS + kid] = 1;
    this.kidRestBits[parent] = (this.kidRestBits[parent] ?? 0) | (1 << kid);
    this.pendingFinest[term] = -1;
  }

  /** The held record's cells opened, as add opens a record's. */
  private open(term: number): void {
    const base = term * LEVELS;
    const finest = this.pendingFinest[term] ?? 0;
    for (let level = this.pendingDepth[term] ?? 0; level < LEVELS; level++) {
      this.cell[base + level] = Math.floor(finest / (DIVISOR[level] ?? 1));
    }
    const leaf = base + LEVELS - 1;
    const lat = this.pendingLat[term] ?? 0;
    const lng = this.pendingLng[term] ?? 0;
    this.n[leaf] = 1;
    this.grow(leaf, lat, lat, lng, lng);
    this.pendingFinest[term] = -1;
  }

  /** The cells of finest cell `finest` at each count level: worked out once for a record's terms. */
  private cellsOf(finest: number): Float64Array {
    if (finest !== this.hereFinest) {
      this.hereFinest = finest;
      for (let level = 0; level < LEVELS; level++) this.here[level] = Math.floor(finest / (DIVISOR[level] ?? 1));
    }
    return this.here;
  }

  /** Closes every open cell (after the last record). */
  finish(terms: number): void {
    for (let term = 0; term < terms; term++) {
      if ((this.pendingFinest[term] ?? -1) !== -1) this.fold(term);
      for (let level = LEVELS - 1; level >= 0; level--) this.close(term * LEVELS, level);
    }
  }

  /** A complete cell: stored when it holds at least `min` records; its count and box go to its parent. */
  private close(base: number, level: number): void {
    const i = base + level;
    const n = this.n[i] ?? 0;
    if (n === 0) return;
    const stored = n >= this.min;
    if (stored) this.emit(this.row(base, level, n));
    if (level > 0) this.toParent(i, n, stored);
    this.n[i] = 0;
    if (this.storedN[i] !== 0) this.storedN[i] = 0;
    for (let bits = this.kidRestBits[i] ?? 0; bits !== 0; bits &= bits - 1) {
      this.kidRest[i * KIDS + 31 - Math.clz32(bits & -bits)] = 0;
    }
    this.kidRestBits[i] = 0;
    this.resetBox(i);
  }

  private row(base: number, level: number, n: number): CellRow {
    const i = base + level;
    const rest = n - (this.storedN[i] ?? 0);
    const box = this.boxOf(i);
    return {
      term: base / LEVELS,
      level: COUNT_LEVELS[level] ?? 0,
      cell: this.cell[i] ?? 0,
      n,
      rest,
      kidRest: rest > 0 ? this.kidCounts(i) : null,
      ...box,
      reach: boxReachKm(box),
    };
  }

  /** A closed cell's records into its parent's count and box, and whether it is stored into the parent's kids. */
  private toParent(i: number, n: number, stored: boolean): void {
    const parent = i - 1;
    const b = this.box;
    this.n[parent] = (this.n[parent] ?? 0) + n;
    this.grow(parent, b[i * 4] ?? 0, b[i * 4 + 1] ?? 0, b[i * 4 + 2] ?? 0, b[i * 4 + 3] ?? 0);
    if (stored) this.storedN[parent] = (this.storedN[parent] ?? 0) + n;
    else {
      const kid = (this.cell[i] ?? 0) % KIDS;
      this.kidRest[parent * KIDS + kid] = n;
      this.kidRestBits[parent] = (this.kidRestBits[parent] ?? 0) | (1 << kid);
    }
  }

  /** The unstored kids of open cell i that hold records, as a JSON object of k to count. */
  private kidCounts(i: number): string {
    const counts: Record<number, number> = {};
    for (let k = 0; k < KIDS; k++) {
      const n = this.kidRest[i * KIDS + k] ?? 0;
      if (n > 0) counts[k] = n;
    }
    return JSON.stringify(counts);
  }

  private boxOf(i: number): Box {
    const b = this.box;
    return { south: b[i * 4] ?? 0, north: b[i * 4 + 1] ?? 0, west: b[i * 4 + 2] ?? 0, east: b[i * 4 + 3] ?? 0 };
  }

  private grow(i: number, south: number, north: number, west: number, east: number): void {
    const b = this.box;
    const at = i * 4;
    if (south < (b[at] ?? 0)) b[at] = south;
    if (north > (b[at + 1] ?? 0)) b[at + 1] = north;
    if (west < (b[at + 2] ?? 0)) b[at + 2] = west;
    if (east > (b[at + 3] ?? 0)) b[at + 3] = east;
  }

  private resetBox(i: number): void {
    const b = this.box;
    b[i * 4] = Infinity;
    b[i * 4 + 1] = -Infinity;
    b[i * 4 + 2] = Infinity;
    b[i * 4 + 3] = -Infinity;
  }
}
