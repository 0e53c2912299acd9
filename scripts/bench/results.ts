/** The figures a benchmark run produces (bench/results.json, bench/scale.json). */
import type { PhaseFigures } from "../import/progress.ts";
import type { LoadFigures } from "./measure.ts";
import type { AliasFigures } from "./aliases.ts";
import type { RecallFigures } from "./recall.ts";
import type { TableSize } from "./sizes.ts";

export interface ImportFigures {
  venues: number;
  cities: number;
  seconds: number;
  peakMiB: number;
  /** The SQLite file, MiB. */
  sizeMiB: number;
  phases: PhaseFigures[];
}

export interface ClassFigures extends LoadFigures {
  id: string;
  label: string;
  url: string;
  status: number;
  rowsRead: number;
  rawSqlMs: number;
  strictPair?: string;
  plainPair?: string;
  /** For a class with typos (a place in the text): its strict (plain) class's latency, measured in turn with it. */
  strictLatency?: { p50: number; p99: number };
  /** D1 round trips of one request (Server-Timing). */
  roundTrips?: number;
}

export interface BenchResults {
  date: string;
  machine: string;
  imports: ImportFigures[];
  sizes: { total: number; tables: TableSize[] };
  bundle: { kib: number; gzipKib: number };
  baseline: LoadFigures;
  baselineLatency: LoadFigures;
  baselineSameBody: LoadFigures;
  d1Floor: LoadFigures;
  /** 32 connections of a worker that only runs SELECT 1 on D1, and of cache misses of every class. */
  d1FloorThroughput: LoadFigures;
  missThroughput: LoadFigures;
  hitBytes: number;
  hits: LoadFigures;
  hitsLatency: LoadFigures;
  classes: ClassFigures[];
  recall: RecallFigures[];
  /** Venues found by another of their names, against their shown name (aliases.ts). */
  aliases?: AliasFigures;
  seconds: number;
}

export interface ScaleResults {
  date: string;
  machine: string;
  imports: ImportFigures[];
  sizes: { total: number; tables: TableSize[] };
  classes: ClassFigures[];
  /** Plan lines that scan a whole table, per class (none expected). */
  scans: { id: string; lines: string[] }[];
  /** 32 connections of a worker that only runs SELECT 1 on D1, and of cache misses of every class. */
  d1FloorThroughput: LoadFigures;
  missThroughput: LoadFigures;
  seconds: number;
}
