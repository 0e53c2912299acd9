/**
 * Phase 4b, cell counts (docs/architecture.md#places-on-a-grid): for the records with a place (a
 * venue's own point, else its city's), for the name prefixes that may match at least
 * CELL_TERM_MIN records and for each kind of venue, how many records each cell of the grid holds
 * where they are at least CELL_COUNT_MIN (table cell_counts). (Every record is counted by the
 * ranks of the cells instead: order.ts.) The worker adds up the cells inside a
 * circle or a box instead of reading their records.
 *
 * One pass per kind of record, in the order of their finest cell (SQLite sorts on disk); memory
 * grows with the terms counted, not with the records.
 */
import type Database from "better-sqlite3";
import { cellOf, FINEST_LEVEL, kindTerm } from "../../../src/data-contract/grid.ts";
import { compareCodePoints } from "../../../src/data-contract/normalize.ts";
import { VENUE_KINDS } from "../../../src/data-contract/venue-kinds.ts";
import type { Progress } from "../progress.ts";
import { CellCounter, type CellRow } from "./cell-counter.ts";
import { PrefixTrie, RecordPrefixes } from "./prefix-trie.ts";
import { prefixCandidates } from "./prefix-totals.ts";

/** A cell's count is stored when it holds at least this many records of a term. */
export const CELL_COUNT_MIN = 32;
/** A name prefix is counted per cell when its words are in at least this many records. */
const CELL_TERM_MIN = 128;

type Kind = "venue" | "city";
interface PlaceRow {
  z: number;
  lat: number;
  lng: number;
  text: string;
  kind: string | null;
}

/** The SQL function of the build: a point's finest cell. */
export function gridFunctions(db: Database.Database): void {
  db.function("grid_cell", { deterministic: true }, (lat, lng) =>
    lat === null || lng === null ? null : cellOf(FINEST_LEVEL, Number(lat), Number(lng)),
  );
}

/**
 * The records of a kind with their place, in the order of their finest cell, in batches (the
 * counts are written meanwhile, which an open statement would not allow): sorted once into a
 * temp table whose rowid is that order.
 */
function* placesInOrder(db: Database.Database, kind: Kind): Generator<PlaceRow[]> {
  const source =
    kind === "city"
      ? "SELECT z, lat, lng, words AS text, NULL AS kind FROM raw_cities ORDER BY z"
      : `SELECT o.cell AS z, coalesce(o.lat, c.lat) AS lat, coalesce(o.lng, c.lng) AS lng, o.words AS text, o.kind
         FROM temp.ordered_venues o LEFT JOIN cities c ON c.pos = o.city_pos
         WHERE o.cell IS NOT NULL ORDER BY o.cell`;
  db.exec(`DROP TABLE IF EXISTS temp.places; CREATE TEMP TABLE places AS ${source}`);
  const batch = db.prepare(
    "SELECT rowid AS i, z, lat, lng, text, kind FROM temp.places WHERE rowid > ? ORDER BY rowid LIMIT 20000",
  );
  for (let rows = batch.all(0) as (PlaceRow & { i: number })[]; rows.length > 0;) {
    yield rows;
    rows = batch.all(rows[rows.length - 1]?.i ?? 0) as (PlaceRow & { i: number })[];
  }
  db.exec("DROP TABLE temp.places");
}

/**
 * The name prefixes worth counting: from the vocabulary (words of every length) in word order.
 * The words are in that order in the build's index build_words_by_word (vocabulary.ts), and the
 * short words are few: merged here, where a sort of their union cost seconds (2.8M words: 5 s; 2026-11-27).
 */
function countedPrefixes(db: Database.Database, kind: Kind): PrefixTrie {
  const column = kind === "venue" ? "venues" : "cities";
  const read = (table: string, order: string) =>
    db.prepare(`SELECT word, ${column} FROM ${table} WHERE ${column} > 0 ORDER BY ${order}`).raw();
  const long = read("words", "word").iterate() as IterableIterator<[string, number]>;
  const short = read("temp.short_words", "word").all() as [string, number][];
  return new PrefixTrie(prefixCandidates(mergeByWord(long, short), CELL_TERM_MIN));
}

/** Two lists of [word, n], each in word order (SQLite's binary order), as one. */
function* mergeByWord<T extends readonly [string, number]>(a: Iterable<T>, b: readonly T[]): Generator<T> {
  let k = 0;
  for (const x of a) {
    while (k < b.length && compareCodePoints((b[k] as T)[0], x[0]) < 0) yield b[k++] as T;
    yield x;
  }
  while (k < b.length) yield b[k++] as T;
}

/** The counts of one kind of record. */
function countKind(db: Database.Database, kind: Kind, min: number): number {
  const trie = countedPrefixes(db, kind);
  const kinds = kind === "venue" ? [...VENUE_KINDS] : [];
  // Term numbers: the prefixes, then the kinds.
  const terms = [...trie.prefixes, ...kinds.map(kindTerm)];
  const kindNumber = new Map<string, number>(kinds.map((k, i) => [k, trie.prefixes.length + i]));
  const insert = db.prepare(
    `INSERT INTO cell_counts (kind, term, level, cell, n, rest, kid_rest, south, north, west, east, reach)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  let rows = 0;
  const emit = (r: CellRow) => {
    insert.run(kind, terms[r.term], r.level, r.cell, r.n, r.rest, r.kidRest, r.south, r.north, r.west, r.east, r.reach);
    rows++;
  };
  const counter = new CellCounter(terms.length, min, emit);
  const present = new RecordPrefixes(trie);
  db.transaction(() => {
    for (const rows of placesInOrder(db, kind)) {
      for (const r of rows) {
        for (const p of present.of(r.text)) counter.add(p, r.z, r.lat, r.lng);
        const k = r.kind === null ? undefined : kindNumber.get(r.kind);
        if (k !== undefined) counter.add(k, r.z, r.lat, r.lng);
      }
    }
    counter.finish(terms.length);
  })();
  return rows;
}

/** The cell counts of the venues, and of the cities where the database answers city searches (`cities`: shards/served.ts); their rows. */
export function cellCounts(db: Database.Database, progress: Progress, min = CELL_COUNT_MIN, cities = true): number {
  progress.phase("cell counts of broad name prefixes and kinds");
  return countKind(db, "venue", min) + (cities ? countKind(db, "city", min) : 0);
}
