/**
 * SQLite's sorter can hand its runs to a helper thread (PRAGMA threads; none by default), which
 * sorts and merges them on another core while the statement reads on. Each thread holds a run of
 * its own, up to the connection's cache, so the cache is halved meanwhile: the sort then takes the
 * memory it took alone. Only around single large sorts (the vocabulary's GROUP BY, an index at
 * publish): a statement that numbers rows in several orders runs several sorters at once, each
 * with its helper (ordering 2M cities so: peak 416 → 462 MiB, 2026-11-27).
 */
import { availableParallelism } from "node:os";
import type Database from "better-sqlite3";

export function withSortHelper<T>(db: Database.Database, work: () => T): T {
  const cache = db.pragma("cache_size", { simple: true }) as number;
  db.pragma(`threads = ${Math.min(1, availableParallelism() - 1)}`);
  db.pragma(`cache_size = ${Math.trunc(cache / 2)}`);
  try {
    return work();
  } finally {
    db.pragma("threads = 0");
    db.pragma(`cache_size = ${cache}`);
  }
}
