/**
 * A venue name search outside an area merged from several venue databases
 * (src/query/merged-names.ts, docs/deploy.md#past-one-database): venues with other names on the
 * fixture's cities (the brute force's data: test/support/brute-force-data.ts) imported with
 * `--shards 3` into files; every page of many names, strict and with typos and places read, with
 * and without a kind or a country, answered by the worker's own modules once from the main
 * database (which holds every venue) and once with its first round trip merged from the three venue
 * databases — the same pages, in which the brute force finds records found by another name and
 * promoted (far larger than the first found by an own name, whichever database holds that one).
 */
import type Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSearchParams } from "../../src/params/search.ts";
import { runSearch } from "../../src/query/search.ts";
import { firstTrip } from "../../src/query/trips.ts";
import { mergesOver } from "../../src/query/merged-names.ts";
import type { Runner } from "../../src/query/resource.ts";
import { slicedPage } from "../../src/query/merged-slices.ts";
import { rowsOf } from "../../src/query/merged-rows.ts";
import { rankedOnce } from "../../src/match/own-names.ts";
import { ITEMS_PER_PAGE } from "../../src/params/paging.ts";
import { VENUES } from "../../src/query/venues.ts";
import { localRunner } from "../../scripts/sql/explain.ts";
import { textsOf } from "../support/brute-force-data.ts";
import {
  comparePages as compareSharded,
  pageOf as pageOfSharded,
  shardedBruteForce,
  type Used,
} from "../support/merged-pages.ts";
import { searchOrder } from "../support/order-brute-force.ts";
import type { Candidate } from "../support/suggest-brute-force.ts";

let sharded: Awaited<ReturnType<typeof shardedBruteForce>>;
let main: Database.Database;
let hollow: Database.Database;
let venues: Candidate[] = [];
let cities: Candidate[] = [];

beforeAll(async () => {
  sharded = await shardedBruteForce("merged-names");
  ({ main, hollow, venues, cities } = sharded);
}, 300_000);
afterAll(() => sharded.close());

const pageOf = (query: string, merged: boolean, used: Used, withMain?: Database.Database) =>
  pageOfSharded(sharded, query, merged, used, withMain === undefined ? {} : { withMain });
const comparePages = (query: string, used: Used, most?: number) => compareSharded(sharded, query, used, most);

describe("a venue name search merged from the venue databases", () => {
  it("holds the venues apart: each venue database some of them, the main database read by the merges none", async () => {
    const counts = sharded.shards.map((db) => Number(db.prepare("SELECT count(*) FROM venues").pluck().get()));
    expect(counts.every((n) => n > 50)).toBe(true);
    expect(counts.reduce((a, b) => a + b)).toBe(Number(main.prepare("SELECT count(*) FROM venues").pluck().get()));
    expect(hollow.prepare("SELECT count(*) FROM venues").pluck().get()).toBe(0);
    const alone = await runSearch(VENUES, localRunner(hollow), parseSearchParams("venues", "name=club"), "en");
    expect(alone.items).toEqual([]);
  });

  it("answers every page of names, strict and forgiving, alone and with a kind or a country, as one database does", async () => {
    // Starts and words of names, and whole other names (which find far larger records by another name).
    const others = venues.slice(0, 80).flatMap((v) => v.names.slice(1, 2).map((forms) => forms[0] ?? ""));
    const texts = [...new Set([...textsOf(venues, 160, 13), ...others])].filter((t) => t !== "");
    const used = { merged: 0 };
    let promoted = 0;
    for (const [i, text] of texts.entries()) {
      const name = `name=${encodeURIComponent(text)}`;
      const queries = [`${name}&typos=0&places=0`, name];
      if (i % 3 === 0) queries.push(`${name}&kind=club`, `${name}&country=US`);
      for (const query of queries) await comparePages(query, used);
      if (searchOrder(venues, "venues", { text }).some((r) => r.promoted)) promoted++;
    }
    // The far larger records found by another name are promoted by the first found by an own name of every database.
    expect(promoted).toBeGreaterThan(8);
    expect(used.merged).toBeGreaterThan(400);
  }, 300_000);

  it("answers names with a typo as one database does, the typo fallback's page merged too", async () => {
    const used: Used = { merged: 0, fuzzy: 0 };
    // Whole names and words of the venues with one letter changed (the fallback reads its corrections).
    const texts = textsOf(venues, 120, 21).filter((t) => t.length >= 5);
    for (const [i, text] of texts.entries()) {
      const at = 1 + (i % (text.length - 2));
      const typo = `${text.slice(0, at)}${text[at] === "x" ? "z" : "x"}${text.slice(at + 1)}`;
      const name = `name=${encodeURIComponent(typo)}`;
      await comparePages(name, used, 3);
      if (i % 4 === 0) await comparePages(`${name}&kind=club`, used, 2);
      if (i % 4 === 1) await comparePages(`${name}&country=US`, used, 2);
    }
    expect(used.fuzzy).toBeGreaterThan(30);
  }, 300_000);

  it("answers names with a typo that end with a region's or a country's name as one database does", async () => {
    // Typos are forgiven in the place the text names, and elsewhere only where a correction is some
    // record's whole name (forgiving.ts: inNamedPlace), which the venue databases decide together.
    const forms = new Set(main.prepare("SELECT form FROM place_names").pluck().all() as string[]);
    const named = venues
      .flatMap((v) => v.names.map((forms) => forms[0] ?? ""))
      .filter((name) => {
        const last = name.split(" ").at(-1)?.toLowerCase() ?? "";
        return name.split(" ").length > 1 && forms.has(last) && name.length > 6;
      });
    expect(named.length).toBeGreaterThan(5);
    const used: Used = { merged: 0, fuzzy: 0 };
    for (const name of named.slice(0, 40)) {
      const typo = `${name.slice(0, 1)}x${name.slice(2)}`;
      await comparePages(`name=${encodeURIComponent(typo)}`, used, 2);
    }
    expect(used.fuzzy).toBeGreaterThan(5);
  }, 300_000);
});

describe("the searches that follow a name's strict answer, and deep pages, merged", () => {
  it("answers a name that ends with a place there, as one database does, from the venue databases", async () => {
    const used: Used = { merged: 0 };
    const byId = new Map(cities.map((c) => [c.id, c]));
    let placed = 0;
    for (const v of venues.filter((x) => x.cityId !== null).slice(0, 90)) {
      const city = byId.get(v.cityId ?? "")?.names[0]?.[0];
      const word = v.names[0]?.[0]?.split(" ")[0];
      if (city === undefined || word === undefined) continue;
      const query = `name=${encodeURIComponent(`${word} ${city}`)}`;
      await comparePages(query, used, 2);
      // The city typed with two letters swapped: a typo in the place, against the whole text forgiven.
      const swapped = city.length > 4 ? `${city.slice(0, 2)}${city[3]}${city[2]}${city.slice(4)}` : city;
      await comparePages(`name=${encodeURIComponent(`${word} ${swapped}`)}`, used, 2);
      await comparePages(
        `name=${encodeURIComponent(`${v.names[0]?.[0]?.split(" ").at(-1) ?? word} ${swapped}`)}`,
        used,
        1,
      );
      const answer = await pageOf(query, true, used);
      if (!("error" in answer) && answer.match === "place") placed++;
    }
    expect(placed).toBeGreaterThan(20);
  }, 300_000);

  it("answers every page of a broad word alone from its anchors in the main database and each venue database's segments", async () => {
    const used = { merged: 0 };
    const broad = main
      .prepare("SELECT DISTINCT prefix FROM name_tiers WHERE kind = 'venue' ORDER BY prefix")
      .pluck()
      .all() as string[];
    expect(broad.length).toBeGreaterThan(10);
    for (const word of broad.filter((_, i) => i % 3 === 0))
      await comparePages(`name=${encodeURIComponent(word)}&typos=0`, used, 40);
    for (const word of ["s", "the", "b"]) await comparePages(`name=${word}`, used, 40);
    expect(used.merged).toBeGreaterThan(100);
  }, 300_000);
});

describe("a deep page merged in slices (src/query/merged-slices.ts)", () => {
  it("reads a page's tiers in slices over the venue databases: each tier's first matches as one database reads them", async () => {
    // Any page (deeper than page 6 of three databases only in the worker, src/query/merged-names.ts):
    // each database a share of each tier, then on to the page's end's match over them all.
    const runners = sharded.shards.map((db) => localRunner(db));
    const texts = ["the", "club", "c", "s", "b s", "a s", "e", ...textsOf(venues, 24, 7)];
    let filled = 0;
    let read = 0;
    for (const text of texts) {
      for (const page of [1, 2, 3, 5, 8]) {
        const query = `name=${encodeURIComponent(text)}&typos=0&p=${page}`;
        const merge = firstTrip(VENUES, parseSearchParams("venues", query), "en")?.search.merge;
        if (merge === undefined) throw new Error(`no merge for ${query}`);
        const offset = (page - 1) * ITEMS_PER_PAGE.venues;
        const [best] = await rowsOf(localRunner(main), "best", [merge.best]);
        const sized = (best ?? []).map((r) => ({ pos: Number(r.pos), k: Number(r.k), size: r.size as number | null }));
        const one = rankedOnce(sized)
          .slice(offset, offset + ITEMS_PER_PAGE.venues)
          .map((r) => r.pos);
        const sliced = await slicedPage(runners, merge, offset);
        expect(sliced?.page, query).toEqual(one);
        if (one.length > 0) filled++;
        read += sliced?.lists.flat().length ?? 0;
      }
    }
    expect(filled).toBeGreaterThan(50);
    expect(read).toBeGreaterThan(0);
  }, 300_000);

  it("answers a name's pages past the matches the databases may read whole together, in slices", async () => {
    // 600: 200 each of three, to page 6; deeper, the tiers in slices (src/query/merged-slices.ts).
    const query = "name=b%20s";
    const one = await pageOf(`${query}&p=1`, false, { merged: 0 });
    if ("error" in one) throw new Error(one.error);
    expect(one.total).toBeGreaterThan(30);
    const deep = { merged: 0 };
    for (const page of [7, 9, 34]) {
      const merged = await pageOf(`${query}&p=${page}`, true, deep);
      expect(merged).toEqual(await pageOf(`${query}&p=${page}`, false, deep));
      expect(merged).toMatchObject({ total: one.total, items: [] });
    }
    // A word alone that is not broad (no stored anchors: a venue's number), as deep.
    const number = venues.map((v) => v.names[0]?.[0]?.split(" ").at(-1) ?? "").find((w) => /^\d{3}$/.test(w));
    for (const page of [7, 20]) {
      const path = `name=${number ?? "100"}&p=${page}`;
      expect(await pageOf(path, true, deep)).toEqual(await pageOf(path, false, deep));
    }
    expect(deep.merged).toBe(5);
    // Past its total (not a lower bound) a deep page asks the venue databases for no slices: a broad
    // word past its last anchor read every match to its page's end (npm run bench -- --dearest --count 4).
    const asked: string[] = [];
    const watched = sharded.shards.map((db): Runner => {
      const runner = localRunner(db);
      return { run: (what, statements, names) => (asked.push(what), runner.run(what, statements, names)) };
    });
    const slicesAsked = async (path: string) => {
      asked.length = 0;
      const merges = mergesOver(localRunner(hollow), watched, "en");
      await runSearch(VENUES, localRunner(hollow), parseSearchParams("venues", path), "en", merges);
      return asked.filter((what) => what.includes("slices")).length;
    };
    expect(await slicesAsked(`${query}&p=34`)).toBe(0);
  }, 300_000);
});
