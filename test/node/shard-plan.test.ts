/**
 * The shard plan (scripts/import/shards/plan.ts): every place in exactly one database, whole
 * countries where they fit, big ones split by state and cell, no database over its share and the
 * largest region together; checked against a count of the places by brute force. A plan kept from
 * one import to the next: its regions where they are while the data grows evenly.
 */
import { describe, expect, it } from "vitest";
import {
  coveringBox,
  regionBoxes,
  shardCell,
  type ShardBox,
  type ShardManifest,
} from "../../src/data-contract/shards.ts";
import { shardsFor } from "../../src/d1/shards.ts";
import { random } from "../../scripts/tools/random.ts";
import { planShards, regionsOf, shardOf, type PlaceCount } from "../../scripts/import/shards/plan.ts";

const place = (country: string, state: string, lat: number, lng: number, venues: number): PlaceCount => ({
  country,
  state,
  cell: shardCell(lat, lng),
  venues,
});

/** Places drawn at random: a few big countries of many states and cells, many small ones. */
function drawn(seed: string, n: number): PlaceCount[] {
  const next = random(seed);
  return Array.from({ length: n }, () => {
    const big = next() < 0.5;
    const country = big ? `B${Math.floor(next() * 3)}` : `S${Math.floor(next() * 40)}`;
    const state = next() < 0.05 ? "" : String(Math.floor(next() * (big ? 12 : 3)));
    return place(country, state, next() * 170 - 85, next() * 360 - 180, 1 + Math.floor(next() * 500));
  });
}

/** Each database's venues counted by brute force: every place in the one database shardOf names. */
function counted(places: readonly PlaceCount[], plan: ReturnType<typeof planShards>): number[] {
  const counts = plan.map(() => 0);
  for (const p of places) {
    const s = shardOf(plan, p);
    expect(s, `${p.country}/${p.state}/${p.cell}`).toBeGreaterThanOrEqual(0);
    counts[s] = (counts[s] ?? 0) + p.venues;
  }
  return counts;
}

describe("the shard plan", () => {
  it("puts every place in exactly one database, each holding what the plan says", () => {
    for (const [seed, shards] of [
      ["a", 2],
      ["b", 3],
      ["c", 4],
      ["d", 8],
      ["e", 16],
    ] as const) {
      const places = drawn(seed, 3000);
      const plan = planShards(places, shards);
      expect(plan).toHaveLength(shards);
      expect(counted(places, plan)).toEqual(plan.map((s) => s.venues));
      // No place matches two regions: the regions are disjoint.
      for (const p of places) {
        const holding = plan.flatMap((s) => s.regions).filter((r) => shardOf([{ regions: [r], venues: 0 }], p) === 0);
        expect(holding, `${p.country}/${p.state}`).toHaveLength(1);
      }
    }
  });

  it("holds no database over its share and the largest region together", () => {
    const places = drawn("share", 5000);
    const all = places.reduce((n, p) => n + p.venues, 0);
    for (const shards of [2, 3, 5, 8]) {
      const largest = Math.max(...regionsOf(places, all / shards).map((u) => u.venues));
      for (const s of planShards(places, shards)) expect(s.venues).toBeLessThanOrEqual(all / shards + largest);
    }
  });

  it("keeps a country whole where it fits, and splits a big one by state, then a big state by cell", () => {
    const places = [
      place("DE", "16", 52.5, 13.4, 100),
      place("DE", "02", 48.1, 11.6, 100),
      place("US", "CA", 34.05, -118.24, 500),
      place("US", "CA", 37.77, -122.42, 500),
      place("US", "NY", 40.71, -74.0, 300),
      place("AD", "", 42.5, 1.52, 10),
    ];
    const regions = regionsOf(places, 1510 / 2).map((u) => u.region);
    expect(regions).toContainEqual({ country: "DE" });
    expect(regions).toContainEqual({ country: "AD" });
    expect(regions).toContainEqual({ country: "US", state: "NY" });
    expect(regions.some((r) => r.country === "US" && r.state === undefined)).toBe(false);
    // California (1,000) is over the share (755): split by cell, its two cities apart.
    const california = regions.filter((r) => r.state === "CA");
    expect(california).toHaveLength(2);
    expect(california.every((r) => r.cell !== undefined)).toBe(true);
    const plan = planShards(places, 2);
    expect(shardOf(plan, places[2] as PlaceCount)).not.toBe(shardOf(plan, places[3] as PlaceCount));
  });

  it("is one database holding every whole country with one shard, and the same plan every time", () => {
    const places = drawn("one", 500);
    const [only] = planShards(places, 1);
    expect(only?.regions.every((r) => r.state === undefined)).toBe(true);
    expect(only?.venues).toBe(places.reduce((n, p) => n + p.venues, 0));
    expect(planShards(places, 4)).toEqual(planShards([...places].reverse(), 4));
    expect(() => planShards(places, 0)).toThrow(RangeError);
  });
});

describe("a plan kept from one import to the next", () => {
  it("keeps the regions of the plan served while they fit, and plans afresh when they do not", () => {
    const places = drawn("kept", 3000);
    const served = planShards(places, 8);
    const regions = (plan: ReturnType<typeof planShards>) => plan.map((s) => s.regions);
    const kept = regions(served);
    expect(planShards(places, 8, kept)).toEqual(served);
    // More venues in one place: every region where it was, that place's database holding them.
    const grown = places.map((p, i) => (i === 7 ? { ...p, venues: p.venues + 300 } : p));
    const afterGrowth = planShards(grown, 8, kept);
    expect(regions(afterGrowth)).toEqual(kept);
    expect(regions(planShards(grown, 8))).not.toEqual(kept);
    expect(counted(grown, afterGrowth)).toEqual(afterGrowth.map((s) => s.venues));
    // A new country: a region of its own, the others kept.
    const newCountry = [...places, place("NEW", "1", 10, 10, 50)];
    const withNew = planShards(newCountry, 8, kept);
    const before = new Set(kept.flat().map((r) => JSON.stringify(r)));
    expect(withNew.flatMap((s) => s.regions).filter((r) => !before.has(JSON.stringify(r)))).toEqual([
      { country: "NEW" },
    ]);
    expect(counted(newCountry, withNew)).toEqual(withNew.map((s) => s.venues));
    // A new state of a country held by state: planned afresh (a region of the whole country would overlap).
    const split = kept.flat().find((r) => r.state !== undefined);
    expect(split).toBeDefined();
    const newState = [...places, place(split?.country ?? "", "new state", 10, 10, 5)];
    expect(planShards(newState, 8, kept)).toEqual(planShards(newState, 8));
    // One place grown far past a fresh plan's largest database: planned afresh.
    const uneven = places.map((p, i) => (i === 7 ? { ...p, venues: p.venues + 2 * (served[0]?.venues ?? 0) } : p));
    expect(planShards(uneven, 8, kept)).toEqual(planShards(uneven, 8));
    // Another number of databases: planned afresh.
    expect(planShards(places, 3, kept)).toEqual(planShards(places, 3));
  });
});

/** An area: a box. */
const box = (south: number, west: number, north: number, east: number) => ({ south, west, north, east });

describe("a region's bounds", () => {
  it("cross the antimeridian where that is the shorter way round, and a search in an area asks the regions they meet", () => {
    // Russia's places: from Kaliningrad (20° E) eastward to Chukotka (170° W).
    const russia: ShardBox[] = [
      [54, 20, 55, 21],
      [55, 37, 56, 38],
      [59, 30, 60, 31],
      [43, 131, 44, 132],
      [64, 177, 65, 179.9],
      [64, -179.9, 66, -170],
    ];
    expect(coveringBox(russia)).toEqual([43, 20, 66, -170]);
    expect(
      coveringBox([
        [40, 10, 41, 20],
        [50, 30, 51, 40],
        [45, 15, 46, 35],
      ]),
    ).toEqual([40, 10, 51, 40]);
    expect(
      coveringBox([
        [0, -179, 1, -178],
        [0, 178, 1, 179],
      ]),
    ).toEqual([0, 178, 1, -178]);
    expect(coveringBox([])).toBeUndefined();
    const manifest: ShardManifest = [
      // Great Britain's one box as an import before the boxes per cell wrote it, which the worker still reads.
      { shard: 1, regions: [{ country: "GB", box: [49.9, -7.6, 60.1, 1.8] }], venues: 1, version: "v" },
      { shard: 2, regions: [{ country: "RU", boxes: [coveringBox(russia) as ShardBox] }], venues: 1, version: "v" },
    ];
    // A box round London asks Great Britain's alone; one round Moscow, and one across the antimeridian, Russia's.
    expect(shardsFor(manifest, null, box(51.4, -0.3, 51.6, 0.1))).toEqual([1]);
    expect(shardsFor(manifest, null, box(55.6, 37.4, 55.9, 37.8))).toEqual([2]);
    expect(shardsFor(manifest, null, box(64, 179, 65, -179))).toEqual([2]);
    expect(shardsFor(manifest, null, box(64, -175, 65, -172))).toEqual([2]);
  });

  it("a region's bounds, a box per cell of the grid where it has venues", () => {
    // China's places, from Kashgar and Lhasa to Shanghai and Sanya: one box round them took in Nagpur, India.
    const china: ShardBox[] = [
      [18.2, 109.5, 18.3, 109.6],
      [39.4, 75.9, 39.5, 76.0],
      [29.6, 91.1, 29.7, 91.2],
      [31.2, 121.4, 31.3, 121.5],
      [31.1, 121.3, 31.2, 121.35],
    ];
    const india: ShardBox[] = [[21.1, 79.0, 21.2, 79.1]];
    // Shanghai's two places share a cell of SHARD_BOX_LEVEL: one box round both.
    expect(regionBoxes(china)).toHaveLength(4);
    expect(regionBoxes(china)).toContainEqual([31.1, 121.3, 31.3, 121.5]);
    const manifest: ShardManifest = [
      { shard: 1, regions: [{ country: "CN", boxes: regionBoxes(china) }], venues: 4, version: "v" },
      { shard: 2, regions: [{ country: "IN", boxes: regionBoxes(india) }], venues: 1, version: "v" },
    ];
    const nagpur = box(20.9, 78.8, 21.4, 79.3);
    const oneBox: ShardManifest = [
      { shard: 1, regions: [{ country: "CN", boxes: [coveringBox(china) as ShardBox] }], venues: 4, version: "v" },
    ];
    expect(shardsFor(oneBox, null, nagpur)).toEqual([1]);
    // A box round Nagpur asks India's venue database alone; one round Shanghai, China's; one over both, both.
    expect(shardsFor(manifest, null, nagpur)).toEqual([2]);
    expect(shardsFor(manifest, null, box(31, 121, 31.5, 122))).toEqual([1]);
    expect(shardsFor(manifest, null, box(20, 70, 40, 100))).toEqual([1, 2]);
    expect(regionBoxes([])).toEqual([]);
  });
});
