/**
 * What the import's numbers that change only near a change hold (src/data-contract/blocks.ts),
 * checked against the venues themselves on the fixture import (134 cities, 2,000 venues); and
 * that numbering the words by a hash left the phases that read them in word order whole.
 */
import type Database from "better-sqlite3";
import { expect } from "vitest";
import { CITY_BLOCK, SCOPE_SEPARATOR, VENUE_SLOTS } from "../../src/data-contract/blocks.ts";

const noCity = (cities: number) => (cities + 1) * VENUE_SLOTS;

/** Venues numbered within their city (src/data-contract/blocks.ts): the city's pos × VENUE_SLOTS, then 0, 1, … */
export function expectNumberedInCities(db: Database.Database, positions: number[]): void {
  const cityPos = db.prepare("SELECT city_pos FROM venues ORDER BY pos").pluck().all() as (number | null)[];
  const seen = new Map<number, number>();
  const numbered = cityPos.map((c) => {
    const first = c === null ? noCity(134) : c * VENUE_SLOTS;
    const k = seen.get(first) ?? 0;
    seen.set(first, k + 1);
    return first + k;
  });
  expect(positions).toEqual(numbered);
  // The venues of a city are one pos range.
  const ranges = db
    .prepare(
      `SELECT c.venue_first AS first, c.venue_count AS n, min(v.pos) AS lo, max(v.pos) AS hi, count(v.pos) AS k
       FROM cities c JOIN venues v ON v.city_pos = c.pos GROUP BY c.pos`,
    )
    .all() as { first: number; n: number; lo: number; hi: number; k: number }[];
  for (const r of ranges) expect(r).toEqual({ first: r.lo, n: r.k, lo: r.lo, hi: r.lo + r.k - 1, k: r.k });
}

/** Each block's count of its scope's venues before it, brute force over the venues. */
export function expectBlocks(db: Database.Database): void {
  const blocks = db.prepare("SELECT scope, before, block, first FROM venue_blocks").all() as {
    scope: string;
    before: number;
    block: number;
    first: number | null;
  }[];
  const before = db.prepare(
    `SELECT count(*) FROM venues
     WHERE (:scope = '' OR country_code = :scope OR country_code || '${SCOPE_SEPARATOR}' || admin1_code = :scope)
       AND (city_pos < :block * ${CITY_BLOCK} OR (:block = -1 AND city_pos IS NOT NULL))`,
  );
  for (const b of blocks) expect(before.pluck().get(b), `${b.scope} ${b.block}`).toBe(b.before);
  expect(blocks.filter((b) => b.scope === "DE").length).toBeGreaterThan(1);
  const withoutCity = db.prepare("SELECT count(*) FROM venues WHERE city_pos IS NULL").pluck().get() as number;
  expect(withoutCity).toBeGreaterThan(0);
  expect(blocks.filter((b) => b.block === -1)).toEqual([
    { scope: "", before: 2000 - withoutCity, block: -1, first: noCity(134) },
  ]);
}

/**
 * Every prefix whose words are in at least 128 venues (CELL_TERM_MIN; the words of 3 letters or
 * more suffice here) and that at least 32 venues match (CELL_COUNT_MIN) is a term of the world cell
 * of cell_counts: the cell counts read the vocabulary in word order, which the words' ids are not.
 */
export function expectEveryBroadPrefixCounted(db: Database.Database): void {
  const sums = new Map<string, number>();
  for (const [word, venues] of db.prepare("SELECT word, venues FROM words").raw().iterate() as Iterable<
    [string, number]
  >) {
    for (let i = 1; i <= word.length; i++) sums.set(word.slice(0, i), (sums.get(word.slice(0, i)) ?? 0) + venues);
  }
  const matches = db.prepare("SELECT count(*) FROM venues_fts WHERE venues_fts MATCH ?").pluck();
  const broad = [...sums].filter(([p, n]) => n >= 128 && (matches.get(`"${p}"*`) as number) >= 32).map(([p]) => p);
  expect(broad.length).toBeGreaterThan(10);
  const terms = new Set(
    db.prepare("SELECT term FROM cell_counts WHERE kind = 'venue' AND level = 0").pluck().all() as string[],
  );
  expect(broad.filter((p) => !terms.has(p))).toEqual([]);
}
