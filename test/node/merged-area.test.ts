/**
 * A venue search without a name in an area merged from several venue databases
 * (src/query/merged-area.ts, docs/deploy.md#past-one-database): the brute force's data imported
 * with `--shards 3` into files (test/support/merged-pages.ts); every page of boxes and circles of
 * every size round its venues — the world's, one across the antimeridian, with a kind, with a
 * country — answered by the worker's own modules once from the main database (which holds every
 * venue) and once merged from the three venue databases, each reading the area within its bounds:
 * the first pages, and pages 2, 3 and 5 (src/query/merged-area.ts: each database's positions up to
 * the page's end, or the cover's first candidates over them all, merged-window.ts; the brute
 * force's venues are few, test/node/shards.test.ts sends areas that hold more).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localRunner } from "../../scripts/sql/explain.ts";
import { boxesOf } from "../../src/data-contract/shards.ts";
import { areaOf } from "../../src/params/search-params.ts";
import { parseSearchParams } from "../../src/params/search.ts";
import { mergedAreaVenues } from "../../src/query/merged-area.ts";
import type { Runner } from "../../src/query/resource.ts";
import { runSearch } from "../../src/query/search.ts";
import { VENUES } from "../../src/query/venues.ts";
import { ITEMS_PER_PAGE } from "../../src/params/paging.ts";
import { areasRound, shardedBruteForce } from "../support/merged-pages.ts";
import { manifestOf } from "../support/shard-requests.ts";

let sharded: Awaited<ReturnType<typeof shardedBruteForce>>;
let runners: Runner[] = [];

beforeAll(async () => {
  sharded = await shardedBruteForce("merged-area");
  const manifest = manifestOf(sharded.main);
  runners = sharded.shards.map((db, i) => ({
    ...localRunner(db),
    within: manifest.find((s) => s.shard === i + 1)?.regions.flatMap(boxesOf) ?? [],
  }));
}, 300_000);
afterAll(() => sharded.close());

/** Areas round the venues' points: boxes and circles of every size, the world's, one across the antimeridian. */
const areas = () =>
  areasRound(
    sharded.venues,
    ["bbox=-180,-90,180,90", "bbox=170,-60,-170,60", "bbox=0,-90,9.548,90", "lat=48.85&long=2.35&radius=500"],
    52,
    "merged areas",
  );

/** Deeper pages compared, and merged (where the covers hold few enough venues). */
const deep = { merged: 0, pages: 0 };

/**
 * The pages of `query` from one database and merged: the first always merged, a deeper one where
 * the covers hold few enough venues; whether several venue databases hold the first page's venues.
 */
async function comparePages(query: string): Promise<boolean> {
  const params = parseSearchParams("venues", query);
  const area = areaOf(params);
  if (area === undefined) throw new Error(`no area in ${query}`);
  const one = await runSearch(VENUES, localRunner(sharded.main), params, "en");
  expect(await mergedAreaVenues(runners, params, area, "en"), query).toEqual(one);
  for (const page of [2, 3, 5].filter((n) => (n - 1) * ITEMS_PER_PAGE.venues < one.total + 30)) {
    const deeper = parseSearchParams("venues", `${query}&p=${page}`);
    const merged = await mergedAreaVenues(runners, deeper, area, "en");
    deep.pages++;
    if (merged === null) continue;
    expect(merged, `${query}&p=${page}`).toEqual(await runSearch(VENUES, localRunner(sharded.main), deeper, "en"));
    deep.merged++;
  }
  const holders = one.items.map((v) =>
    sharded.shards.findIndex((db) => db.prepare("SELECT 1 FROM venues WHERE id = ?").get(v.id)),
  );
  return new Set(holders).size > 1;
}

describe("a venue search without a name in an area, merged from the venue databases", () => {
  it("answers boxes and circles, alone, with a kind and with a country, as one database does", async () => {
    let [several, compared] = [0, 0];
    for (const [i, area] of areas().entries()) {
      const queries = [area, ...(i % 3 === 0 ? [`${area}&kind=club`, `${area}&country=US`] : [])];
      for (const query of queries) {
        if (await comparePages(query)) several++;
        compared++;
      }
    }
    // Pages whose venues several venue databases hold; every deeper page merged.
    expect(compared).toBeGreaterThan(80);
    expect(several).toBeGreaterThan(30);
    expect(deep.merged).toBeGreaterThan(50);
    expect(deep.merged).toBe(deep.pages);
  }, 300_000);
});
