/**
 * SQLite's sorter can hand its runs to a helper thread (PRAGMA threads; none by default), which
 * sorts and merges them on another core while the statement reads on. Each thread holds a run of
 * its own, up to the connection's cache, so the cache is halved meanwhile: the sort then takes the
 * memory it took alone (at the full cache, ordering 2M cities with its four windows took
 * 416 → 462 MiB; at half, the same peak, 2026-11-27). Around the statements that are mostly a sort
 * (the vocabulary's GROUP BY, ordering the cities, an index at publish), not those that join by
 * lookups, which a smaller cache slows.
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
