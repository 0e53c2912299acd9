/**
 * The brute force's data (test/support/brute-force-data.ts) imported with `--shards 3` into files,
 * with a copy of its main database without venues (scripts/tools/hollow-main.ts), and a venue search's pages
 * answered by the worker's own modules once from the main database alone and once with its trips
 * merged from venue databases (src/query/merged-names.ts) — the tests of merged and routed names.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect } from "vitest";
import { runShardedImport } from "../../scripts/import/shards/import.ts";
import { localRunner } from "../../scripts/sql/explain.ts";
import { shardFile } from "../../src/data-contract/shards.ts";
import { ITEMS_PER_PAGE } from "../../src/params/paging.ts";
import { parseSearchParams } from "../../src/params/search.ts";
import { mergesOver } from "../../src/query/merged-names.ts";
import type { Page, VenueRecord } from "../../src/query/records.ts";
import { runSearch } from "../../src/query/search.ts";
import type { Merges } from "../../src/query/trips.ts";
import { VENUES } from "../../src/query/venues.ts";
import { bruteForceData } from "./brute-force-data.ts";
import { hollowMain } from "../../scripts/tools/hollow-main.ts";
import { dir } from "./import-fixtures.ts";
import type { Candidate } from "./suggest-brute-force.ts";
import { random } from "../../scripts/tools/random.ts";

const SHARDS = 3;

export type Answer = Page<VenueRecord> | { error: string };

/** How many trips were merged: first trips, and the typo fallback's. */
export interface Used {
  merged: number;
  fuzzy?: number;
}

/** The brute force's data in a main database, the same without venues (`hollow`), and 3 venue databases. */
export async function shardedBruteForce(name: string) {
  const path = join(dir, `${name}.sqlite`);
  const data = bruteForceData(path);
  await runShardedImport(data.options, SHARDS, true);
  const main = new Database(path, { readonly: true });
  const hollow = hollowMain(path, join(dir, `${name}.hollow.sqlite`));
  const shards = Array.from({ length: SHARDS }, (_, i) => new Database(shardFile(path, i + 1), { readonly: true }));
  const close = () => {
    for (const db of [main, hollow, ...shards]) db.close();
  };
  return { main, hollow, shards, cities: data.cities, venues: data.venues, close };
}

type Sharded = Awaited<ReturnType<typeof shardedBruteForce>>;

/** Merges over `from` (and `every` venue database, for a place in an area) counting, in `used`, the trips merged. */
function countedMerges(
  withMain: Database.Database,
  from: readonly Database.Database[],
  used: Used,
  every: readonly Database.Database[],
): Merges {
  const runners = (dbs: readonly Database.Database[]) => dbs.map((db) => localRunner(db));
  const over = mergesOver(localRunner(withMain), runners(from), "en", runners(every));
  return {
    first: async (first, p) => {
      const rows = await over.first(first, p);
      if (rows !== null) used.merged++;
      return rows;
    },
    search: async (trip, asked, p) => {
      const rows = await over.search(trip, asked, p);
      if (rows !== null) used.fuzzy = (used.fuzzy ?? 0) + 1;
      return rows;
    },
  };
}

/**
 * The page of `query`: from the main database alone, or its trips merged from the venue databases
 * `from` (every one, unless told) with `withMain` as their main database (without venues, unless
 * told); merged from one alone, the trips not merged run in that one (as a search routed to it),
 * a place in an area read over every one.
 */
export async function pageOf(
  s: Sharded,
  query: string,
  merged: boolean,
  used: Used,
  { withMain = s.hollow, from = s.shards }: { withMain?: Database.Database; from?: readonly Database.Database[] } = {},
): Promise<Answer> {
  const params = parseSearchParams("venues", query);
  const [alone] = from;
  const runner = localRunner(merged ? (from.length === 1 && alone !== undefined ? alone : withMain) : s.main);
  const merges = merged ? countedMerges(withMain, from, used, s.shards) : undefined;
  return runSearch(VENUES, runner, params, "en", merges).catch((error: unknown) => ({ error: String(error) }));
}

/** Every page of `query` both ways (merged from `from`), until the one database's pages end (at most `most`). */
export async function comparePages(s: Sharded, query: string, used: Used, most = 8, from = s.shards) {
  for (let page = 1; page <= most; page++) {
    const [one, merged] = [
      await pageOf(s, `${query}&p=${page}`, false, used),
      await pageOf(s, `${query}&p=${page}`, true, used, { from }),
    ];
    expect(merged, `${query}&p=${page}`).toEqual(one);
    if ("error" in one || one.items.length === 0 || page * ITEMS_PER_PAGE.venues >= one.total) return;
  }
}

/**
 * Areas round `venues`' points: `fixed` first, then boxes and circles of every size, in turn, to
 * `count` in all (boxes across the antimeridian among them).
 */
export function areasRound(
  venues: readonly Candidate[],
  fixed: readonly string[],
  count: number,
  seed: string,
): string[] {
  const next = random(seed);
  const placed = venues.filter((v) => v.lat !== null && v.lng !== null);
  const out = [...fixed];
  while (out.length < count) {
    const v = placed[Math.floor(next() * placed.length)];
    const [lat, lng] = [v?.lat ?? 0, v?.lng ?? 0];
    const [h, w] = [next() ** 2 * 40 + 0.01, next() ** 2 * 80 + 0.01];
    const wrap = (d: number) => ((d + 540) % 360) - 180;
    const box = [wrap(lng - w), Math.max(-90, lat - h), wrap(lng + w), Math.min(90, lat + h)].map((d) => d.toFixed(3));
    out.push(
      out.length % 2 === 0
        ? `bbox=${box.join(",")}`
        : `lat=${lat.toFixed(4)}&long=${lng.toFixed(4)}&radius=${(500 - next() ** 2 * 499).toFixed(1)}`,
    );
  }
  return out;
}
