/**
 * A venue name search in an area merged from several venue databases
 * (src/query/merged-area-names.ts, docs/deploy.md#past-one-database): the brute force's data
 * imported with `--shards 3` into files (test/support/merged-pages.ts); names — words, starts,
 * whole other names that promote a far larger record, typos, a name ending with a place — in boxes
 * and circles of every size round its venues, alone and with a kind or a country, answered by the
 * worker's own modules once from the main database (which holds every venue) and once merged from
 * the three venue databases with a main database without venues: every page the same.
 */
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localRunner } from "../../scripts/sql/explain.ts";
import { PLACED_CANDIDATES } from "../../src/match/capped.ts";
import { parseSearchParams } from "../../src/params/search.ts";
import { mergesOver } from "../../src/query/merged-names.ts";
import type { Runner } from "../../src/query/resource.ts";
import { firstTrip } from "../../src/query/trips.ts";
import { VENUES } from "../../src/query/venues.ts";
import { textsOf } from "../support/brute-force-data.ts";
import { areasRound, comparePages, pageOf, shardedBruteForce, type Used } from "../support/merged-pages.ts";
import { searchOrder } from "../support/order-brute-force.ts";
import type { Candidate } from "../support/suggest-brute-force.ts";

let sharded: Awaited<ReturnType<typeof shardedBruteForce>>;
let venues: Candidate[] = [];

beforeAll(async () => {
  sharded = await shardedBruteForce("merged-area-names");
  ({ venues } = sharded);
}, 300_000);
afterAll(() => sharded.close());

/** Boxes and circles round the venues' points, of every size: the world's, one across the antimeridian. */
const areas = (count: number, seed: string) =>
  areasRound(venues, ["bbox=-180,-90,180,90", "bbox=170,-60,-170,60", "lat=48.85&long=2.35&radius=500"], count, seed);

/** Whether several venue databases hold the first page's venues of `query` (one database's answer). */
async function several(query: string): Promise<boolean> {
  const one = await pageOf(sharded, query, false, { merged: 0 });
  if ("error" in one) throw new Error(one.error);
  const holders = one.items.map((v) =>
    sharded.shards.findIndex((db) => db.prepare("SELECT 1 FROM venues WHERE id = ?").get(v.id)),
  );
  return new Set(holders).size > 1;
}

describe("a venue name search in an area, merged from the venue databases", () => {
  it("answers every page of names in boxes and circles, alone, with a kind and with a country, as one database does", async () => {
    const texts = textsOf(venues, 60, 31);
    const others = venues.slice(0, 40).flatMap((v) => v.names.slice(1, 2).map((forms) => forms[0] ?? ""));
    const list = [...new Set([...texts, ...others])].filter((t) => t !== "");
    const used: Used = { merged: 0 };
    let apart = 0;
    for (const [i, area] of areas(list.length, "merged area names").entries()) {
      const text = list[i] ?? "a";
      const name = `name=${encodeURIComponent(text)}&${area}`;
      const queries = [
        name,
        `${name}&typos=0&places=0`,
        ...(i % 3 === 0 ? [`${name}&kind=club`, `${name}&country=US`] : []),
      ];
      for (const query of queries) await comparePages(sharded, query, used, 4);
      if (await several(name)) apart++;
    }
    expect(apart).toBeGreaterThan(15);
    expect(used.merged).toBeGreaterThan(250);
  }, 300_000);

  it("promotes a far larger record found by another name by the first found by an own name of them all", async () => {
    // Whole other names, in the world's box and in a circle of 500 km round the venue that has one.
    const used: Used = { merged: 0 };
    let promoted = 0;
    for (const v of venues.filter((x) => x.names.length > 1 && x.lat !== null).slice(0, 40)) {
      const text = v.names[1]?.[0] ?? "";
      const name = `name=${encodeURIComponent(text)}`;
      for (const area of ["bbox=-180,-90,180,90", `lat=${v.lat ?? 0}&long=${v.lng ?? 0}&radius=500`])
        await comparePages(sharded, `${name}&${area}`, used, 3);
      if (searchOrder(venues, "venues", { text }).some((r) => r.promoted)) promoted++;
    }
    expect(promoted).toBeGreaterThan(3);
    expect(used.merged).toBeGreaterThan(60);
  }, 300_000);

  it("answers names with a typo, and names that end with a place, in areas as one database does", async () => {
    const used: Used = { merged: 0, fuzzy: 0 };
    const spots = areas(80, "merged area typos");
    for (const [i, text] of textsOf(venues, 80, 37).entries()) {
      const area = spots[i] ?? "";
      if (text.length >= 5) {
        const at = 1 + (i % (text.length - 2));
        const typo = `${text.slice(0, at)}${text[at] === "x" ? "z" : "x"}${text.slice(at + 1)}`;
        await comparePages(sharded, `name=${encodeURIComponent(typo)}&${area}`, used, 2);
      }
      const v = venues[(i * 37) % venues.length];
      const city = sharded.cities.find((c) => c.id === v?.cityId)?.names[0]?.[0];
      const word = v?.names[0]?.[0]?.split(" ")[0];
      if (city !== undefined && word !== undefined)
        await comparePages(sharded, `name=${encodeURIComponent(`${word} ${city}`)}&${area}`, used, 2);
    }
    expect(used.fuzzy).toBeGreaterThan(20);
  }, 300_000);
});

describe("a venue name search in an area over a cover of many candidates", () => {
  it("is left to the main database where the covers hold more than one database reads whole", async () => {
    // Each venue database's cover holds `n` candidates of the name (each count read up to its limit).
    const counting = (db: Database.Database, n: number): Runner => {
      const real = localRunner(db);
      return {
        run: async (what, statements, names) => {
          const rows = await real.run(what, statements, names);
          if (!what.endsWith("the area's candidates")) return rows;
          return [{ rows: [{ n: Math.min(n, Number(statements[0]?.binds.at(-1))) }] }, ...rows.slice(1)];
        },
      };
    };
    const p = parseSearchParams("venues", "name=the&bbox=-180,-90,180,90");
    const first = firstTrip(VENUES, p, "en");
    if (first === null) throw new Error("no first trip");
    const every = sharded.shards.map((db) => localRunner(db));
    const merged = async (counts: number[]) => {
      const shards = sharded.shards.map((db, i) => counting(db, counts[i] ?? 0));
      return (await mergesOver(localRunner(sharded.hollow), shards, "en", every).first(first, p)) !== null;
    };
    const share = PLACED_CANDIDATES / sharded.shards.length;
    expect(share).toBe(500);
    expect(await merged([500, 500, 500])).toBe(true);
    expect(await merged([501, 500, 500])).toBe(false);
    // Past its share: counted again, up to what the others leave it.
    expect(await merged([1000, 200, 300])).toBe(true);
    expect(await merged([1001, 200, 300])).toBe(false);
    expect(await merged([700, 700, 0])).toBe(true);
    expect(await merged([700, 801, 0])).toBe(false);
  });
});
