/**
 * A venue name search outside an area routed to one venue database (src/query/routed-names.ts,
 * docs/deploy.md#past-one-database): its trips run there, its decisions (a typo's corrections, the
 * place readings) split with a main database without venues (test/support/merged-pages.ts) —
 * answered, page for page, as the main database alone answers them.
 */
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { comparePages, pageOf, shardedBruteForce, type Used } from "../support/merged-pages.ts";
import { askedShards, manifestOf, regionFilter, venuesOf } from "../support/shard-requests.ts";

let sharded: Awaited<ReturnType<typeof shardedBruteForce>>;

beforeAll(async () => {
  sharded = await shardedBruteForce("routed-names");
}, 300_000);
afterAll(() => sharded.close());

describe("a venue name search routed to one venue database: its names", () => {
  it("answers names in one venue database's regions, strict, with typos and ending with its places, merged over that one alone, as one database does", async () => {
    const manifest = manifestOf(sharded.main);
    const used: Used = { merged: 0, fuzzy: 0 };
    let placed = 0;
    for (const db of sharded.shards) {
      const own = venuesOf(db).filter((v) => v.country !== null);
      for (const v of own.filter((_, i) => i % Math.ceil(own.length / 16) === 0)) {
        const region = regionFilter(v, manifest);
        const first = v.name.split(" ")[0] ?? "a";
        const typo = first.length >= 5 ? `${first.slice(0, 2)}${first.slice(3)}` : `${first}x`;
        // Pool words that name places too (paris, berlin, new york): a strict answer beside the place.
        for (const text of [
          v.name,
          first,
          typo,
          `${first} ${v.cityName}`,
          `${first} paris`,
          `${first} berlin`,
          `${first} new york`,
        ]) {
          await comparePages(sharded, `name=${encodeURIComponent(text)}&${region}`, used, 3, [db]);
        }
        const answer = await pageOf(
          sharded,
          `name=${encodeURIComponent(`${first} ${v.cityName}`)}&${region}`,
          true,
          used,
          { from: [db] },
        );
        if (!("error" in answer) && answer.match === "place") placed++;
      }
    }
    expect(used.merged).toBeGreaterThan(100);
    expect(used.fuzzy).toBeGreaterThan(5);
    expect(placed).toBeGreaterThan(5);
  }, 300_000);

  it("answers a name whose last word names a place of its region too as one database does", async () => {
    // `club berlin` in Germany: its strict answer's tier against the place's.
    const manifest = manifestOf(sharded.main);
    const used: Used = { merged: 0 };
    let strictBeside = 0;
    for (const db of sharded.shards)
      for (const v of venuesOf(db).filter((x) => x.country !== null)) {
        const words = v.name.split(" ");
        const at = words.findIndex((w, i) => i > 0 && ["paris", "berlin", "york"].includes(w));
        if (at < 0) continue;
        const query = `name=${encodeURIComponent(words.slice(0, at + 1).join(" "))}&${regionFilter(v, manifest)}`;
        await comparePages(sharded, query, used, 1, [db]);
        const answer = await pageOf(sharded, query, false, used);
        if (!("error" in answer) && answer.match === "exact" && answer.total > 0) strictBeside++;
      }
    expect(strictBeside).toBeGreaterThan(5);
  }, 300_000);
});

describe("a venue name search routed to one venue database: in an area", () => {
  it("answers names in a box or a circle that one venue database holds as one database does, a place read over every venue", async () => {
    const manifest = manifestOf(sharded.main);
    const used: Used = { merged: 0, fuzzy: 0 };
    let placed = 0;
    for (const [n, db] of sharded.shards.entries()) {
      const own = venuesOf(db).filter((v) => v.country !== null);
      for (const v of own.filter((_, i) => i % Math.ceil(own.length / 24) === 0)) {
        const first = v.name.split(" ")[0] ?? "a";
        const typo = first.length >= 5 ? `${first.slice(0, 2)}${first.slice(3)}` : `${first}x`;
        const box = [v.lng - 0.05, v.lat - 0.05, v.lng + 0.05, v.lat + 0.05].map((x) => x.toFixed(3)).join(",");
        const areas = [`bbox=${box}`, `lat=${v.lat.toFixed(4)}&long=${v.lng.toFixed(4)}&radius=5`];
        for (const area of areas)
          for (const text of [first, typo, `${first} ${v.cityName}`, `${first} paris`, `${first} berlin`]) {
            const query = `name=${encodeURIComponent(text)}&${area}`;
            // As the worker routes it: to this venue database alone.
            if (askedShards(sharded.main, `/1.0/search/venues?${query}`, manifest).join() !== String(n + 1)) continue;
            await comparePages(sharded, query, used, 2, [db]);
            const answer = await pageOf(sharded, query, false, used);
            if (!("error" in answer) && answer.match === "place") placed++;
          }
      }
    }
    expect(used.merged).toBeGreaterThan(200);
    expect(used.fuzzy).toBeGreaterThan(5);
    expect(placed).toBeGreaterThan(10);
  }, 300_000);
});

describe("a venue name search routed to one venue database: foreign words and deep pages", () => {
  it("answers typos beside a word only another venue database's venues hold as one database does", async () => {
    // Whether a typed word starts some venue's word is read in the one venue database (one database
    // reads it over every venue): a venue's number held elsewhere, typed beside words with typos.
    const manifest = manifestOf(sharded.main);
    const used: Used = { merged: 0, fuzzy: 0 };
    for (const [i, db] of sharded.shards.entries()) {
      const numbers = sharded.shards
        .filter((_, j) => j !== i)
        .flatMap((other) => venuesOf(other).map((v) => v.name.split(" ").at(-1) ?? ""))
        .filter((w) => /^\d+$/.test(w));
      const own = venuesOf(db).filter((v) => v.country !== null);
      for (const [k, v] of own.filter((_, at) => at % 12 === 0).entries()) {
        const [first = "club", second = "hall"] = v.name.split(" ");
        const typo = (w: string) => `${w.slice(0, 1)}x${w.slice(2)}`;
        const number = numbers[k % numbers.length] ?? "1";
        const region = regionFilter(v, manifest);
        for (const text of [`${typo(first)} ${number}`, `${typo(first)} ${typo(second)} ${number}`, `${number}x`])
          await comparePages(sharded, `name=${encodeURIComponent(text)}&${region}`, used, 1, [db]);
      }
    }
    expect(used.merged).toBeGreaterThan(100);
    expect(used.fuzzy).toBeGreaterThan(20);
  }, 300_000);

  it("answers a region's pages from its one venue database, past the matches several read together", async () => {
    // The region with the most venues, and the letter most of their names start with.
    const manifest = manifestOf(sharded.main);
    const regions = new Map<string, { db: Database.Database; letters: string[] }>();
    for (const db of sharded.shards)
      for (const v of venuesOf(db).filter((x) => x.country !== null)) {
        const region = regionFilter(v, manifest);
        regions.set(region, {
          db,
          letters: [...(regions.get(region)?.letters ?? []), v.name.slice(0, 1).toLowerCase()],
        });
      }
    const [region, most] = [...regions].sort((a, b) => b[1].letters.length - a[1].letters.length)[0] ?? [];
    if (region === undefined || most === undefined) throw new Error("no region");
    const count = (l: string) => most.letters.filter((x) => x === l).length;
    const letter = [...new Set(most.letters)].sort((a, b) => count(b) - count(a))[0] ?? "a";
    const used: Used = { merged: 0 };
    const query = `name=${letter}&typos=0&${region}`;
    await comparePages(sharded, query, used, 40, [most.db]);
    expect(used.merged).toBeGreaterThan(0);
    // Past the 600 matches several venue databases read together (page 21 on): merged from the one alone.
    for (const page of [21, 33]) {
      const deep: Used = { merged: 0 };
      const merged = await pageOf(sharded, `${query}&p=${String(page)}`, true, deep, { from: [most.db] });
      expect(merged).toEqual(await pageOf(sharded, `${query}&p=${String(page)}`, false, deep));
      expect(merged).toMatchObject({ items: [] });
      expect(deep.merged).toBe(1);
    }
  }, 300_000);
});
