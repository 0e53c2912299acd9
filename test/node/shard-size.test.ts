/**
 * A size per venue database (scripts/import/shards/size.ts, docs/deploy.md#a-size-per-database):
 * `--shard-size` read as D1 counts bytes, each database's estimate checked against a sum by brute
 * force over the places, and the plan chosen the fewest databases whose estimates fit — the plan
 * served kept while it fits, a region that cannot be split refused in one line.
 */
import { describe, expect, it } from "vitest";
import { shardCell } from "../../src/data-contract/shards.ts";
import { random } from "../../scripts/tools/random.ts";
import { planShards, shardOf, type PlaceCount } from "../../scripts/import/shards/plan.ts";
import {
  BYTES_PER_RAW_BYTE,
  bytePlan,
  estimatedSizes,
  parseShardSize,
  sizedLine,
  sizedPlan,
  type PlaceBytes,
} from "../../scripts/import/shards/size.ts";

/** Venue places and city places drawn at random: a few big countries of many states and cells, many small ones. */
function drawn(seed: string, n: number): { venues: PlaceCount[]; cities: PlaceBytes[] } {
  const next = random(seed);
  const venues: PlaceCount[] = [];
  const cities: PlaceBytes[] = [];
  for (let i = 0; i < n; i++) {
    const big = next() < 0.5;
    const country = big ? `B${Math.floor(next() * 3)}` : `S${Math.floor(next() * 40)}`;
    const state = String(Math.floor(next() * (big ? 12 : 3)));
    const cell = shardCell(next() * 170 - 85, next() * 360 - 180);
    const count = 1 + Math.floor(next() * 500);
    venues.push({ country, state, cell, venues: count, bytes: count * (80 + Math.floor(next() * 80)) });
    cities.push({ country, state, cell, bytes: Math.floor(next() * 200_000) });
  }
  // Places in a country without venues: held by no venue database.
  cities.push({ country: "ZZ", state: "", cell: 1, bytes: 1e9 });
  return { venues, cities };
}

/** Each database's raw bytes by brute force: every place in the one database shardOf names. */
function rawOf(plan: ReturnType<typeof planShards>, places: readonly { bytes?: number }[]): number[] {
  const raw = plan.map(() => 0);
  for (const p of places as (PlaceBytes & { venues?: number })[]) {
    const shard = shardOf(plan, p);
    if (shard >= 0) raw[shard] = (raw[shard] ?? 0) + p.bytes;
  }
  return raw;
}

describe("--shard-size", () => {
  it("reads MB and GB as D1 counts them, MiB and GiB too, within a database's size", () => {
    expect(parseShardSize("4GB", false)).toBe(4e9);
    expect(parseShardSize("500MB", false)).toBe(500e6);
    expect(parseShardSize("1.5 gb", false)).toBe(1.5e9);
    expect(parseShardSize("2GiB", false)).toBe(2 ** 31);
    expect(parseShardSize("10GB", false)).toBe(10e9);
    expect(parseShardSize("500MB", true)).toBe(500e6);
    for (const wrong of ["11GB", "4", "0.5MB", "many", "4 TB", "-1GB", ""])
      expect(() => parseShardSize(wrong, false), wrong).toThrow(/--shard-size wants a size from 1MB to 10GB/);
    expect(() => parseShardSize("600MB", true)).toThrow("500MB (Workers Free's size of a database)");
  });
});

describe("the plan a size chooses", () => {
  it("estimates each database from the raw bytes of the places it holds", () => {
    const { venues, cities } = drawn("estimate", 2000);
    for (const count of [1, 2, 5, 9]) {
      const plan = planShards(venues, count);
      const raw = rawOf(plan, [...venues, ...cities]);
      const estimates = estimatedSizes(plan, venues, cities);
      expect(estimates).toHaveLength(count);
      // What each grows by is its raw bytes times what a raw byte becomes; the place without venues counts nowhere.
      for (const [i, e] of estimates.entries())
        expect(e - (estimates[0] ?? 0)).toBeCloseTo(BYTES_PER_RAW_BYTE * ((raw[i] ?? 0) - (raw[0] ?? 0)), -1);
      expect(Math.max(...estimates)).toBeLessThan(BYTES_PER_RAW_BYTE * 1e9);
    }
  });

  it("chooses the fewest databases whose estimates fit the size", () => {
    const { venues, cities } = drawn("fewest", 3000);
    const one = estimatedSizes(planShards(venues, 1), venues, cities)[0] ?? 0;
    for (const share of [1.2, 0.6, 0.3, 0.15]) {
      const size = Math.round(one * share);
      const { plan, estimates } = sizedPlan(venues, cities, size);
      expect(Math.max(...estimates), `size ${size}`).toBeLessThanOrEqual(0.95 * size);
      expect(estimates).toEqual(estimatedSizes(plan, venues, cities));
      // Each database's venues as the places it holds count them, though the plan dealt out bytes.
      const counted = plan.map(() => 0);
      for (const p of venues) counted[shardOf(plan, p)] = (counted[shardOf(plan, p)] ?? 0) + p.venues;
      expect(plan.map((s) => s.venues)).toEqual(counted);
      const fewer = plan.length - 1;
      if (fewer > 0) expect(Math.max(...bytePlan(venues, cities, fewer).estimates)).toBeGreaterThan(0.95 * size);
    }
  });

  it("keeps the plan served while it fits, and plans afresh once it does not", () => {
    const { venues, cities } = drawn("kept", 2000);
    const served = planShards(venues, 5);
    const kept = served.map((s) => s.regions);
    const roomy = Math.max(...estimatedSizes(planShards(venues, 3), venues, cities)) / 0.95 + 1;
    expect(Math.max(...estimatedSizes(served, venues, cities))).toBeLessThan(0.95 * roomy);
    expect(sizedPlan(venues, cities, roomy, kept).plan.map((s) => s.regions)).toEqual(kept);
    const fresh = sizedPlan(venues, cities, roomy);
    expect(fresh.plan.length).toBeLessThan(5);
    const tight = Math.round(Math.min(...estimatedSizes(served, venues, cities)) * 0.9);
    expect(sizedPlan(venues, cities, tight, kept).plan.length).toBeGreaterThan(5);
  });
});

describe("a size's plan kept, refused and said", () => {
  it("keeps its regions where a venue database plans itself from the manifest, as plans by venues would not", () => {
    // One country of many places and few venues, twenty of many venues and few places: bytes and venues deal out apart.
    const venues: PlaceCount[] = [
      { country: "AA", state: "", cell: 1, venues: 10, bytes: 1000 },
      ...Array.from({ length: 20 }, (_, i) => ({
        country: `C${i}`,
        state: "",
        cell: 2 + i,
        venues: 500,
        bytes: 50_000,
      })),
    ];
    const cities: PlaceBytes[] = [{ country: "AA", state: "", cell: 1, bytes: 1_000_000 }];
    const size = Math.round((bytePlan(venues, cities, 1).estimates[0] ?? 0) * 0.75);
    const { plan } = sizedPlan(venues, cities, size);
    expect(plan.map((s) => s.venues)).toEqual([10, 10_000]);
    const kept = plan.map((s) => s.regions);
    expect(sizedPlan(venues, cities, size, kept).plan.map((s) => s.regions)).toEqual(kept);
    // Planned by venues, the same manifest's regions are dealt out afresh: a venue database's build
    // that planned so would find other venues than its manifest names.
    expect(planShards(venues, kept.length, kept).map((s) => s.regions)).not.toEqual(kept);
  });

  it("refuses, in one line, a size that one region alone is over", () => {
    const huge: PlaceCount[] = [{ country: "XX", state: "", cell: 0, venues: 10, bytes: 3e9 }];
    expect(() => sizedPlan(huge, [], 1e9)).toThrow(
      /^--shard-size 1.00 GB: even 64 venue databases leave one at about 11.10 GB .*a larger size, or --shards N$/,
    );
  });

  it("says what it chose, and which database came out over the size", () => {
    expect(sizedLine({ size: 4e9, estimates: [3.2e9, 3.9e9], after: [3.1e9, 3.8e9] })).toBe(
      "--shard-size 4.00 GB chose 2 venue databases: estimated 3.20 GB, 3.90 GB; after the import 3.10 GB, 3.80 GB (each within it)",
    );
    expect(sizedLine({ size: 100e6, estimates: [90e6, 80e6], after: [null, 84e6] })).toContain(
      "after the import current (nothing sent), 84 MB (each within it)",
    );
    expect(sizedLine({ size: 100e6, estimates: [90e6, 95e6], after: [92e6, 104e6] })).toContain(
      "(venue database 2 over it, as the estimate missed: a smaller --shard-size, or --shards 3)",
    );
  });
});
