/**
 * The import into a main database and venue databases by region (scripts/import/shards/,
 * docs/deploy.md#past-one-database), on the fixture: every venue in exactly one venue database, as
 * its manifest says, and a search whose filters lie in one venue database answered there as the one
 * database answers it — the worker's own statements run on both files.
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shardFile, type ShardManifest } from "../../src/data-contract/shards.ts";
import { filterPlace, shardsFor } from "../../src/d1/shards.ts";
import { areaOf } from "../../src/params/search-params.ts";
import { shardPlacesSql } from "../../src/query/shard-places.ts";
import { anonymous, numbered } from "../../src/sql/sql.ts";
import { runShardedImport } from "../../scripts/import/shards/import.ts";
import { explainSearch, searchRequest } from "../../scripts/sql/explain.ts";
import { dir, FIXTURES } from "../support/import-fixtures.ts";
import { broadRequests, manifestOf, regionFilter, requestsNear, venuesOf } from "../support/shard-requests.ts";

const SHARDS = 3;
const main = join(dir, "sharded.sqlite");
const files = Array.from({ length: SHARDS }, (_, i) => shardFile(main, i + 1));
let mainDb: Database.Database;
let shardDbs: Database.Database[];

beforeAll(async () => {
  const options = { ...FIXTURES, venueCount: 2000, prefixCountMin: 20, target: { kind: "file", path: main } as const };
  await runShardedImport(options, SHARDS, true);
  mainDb = new Database(main, { readonly: true });
  shardDbs = files.map((f) => new Database(f, { readonly: true }));
}, 300_000);

afterAll(() => {
  mainDb.close();
  for (const db of shardDbs) db.close();
});

describe("venue databases by region", () => {
  it("holds every venue in exactly one venue database, the one whose regions hold its place", () => {
    const manifest = manifestOf(mainDb);
    expect(manifest.map((s) => s.shard)).toEqual([1, 2, 3]);
    const all = venuesOf(mainDb);
    const held = shardDbs.map(venuesOf);
    expect(
      held
        .flat()
        .map((v) => v.id)
        .sort(),
    ).toEqual(all.map((v) => v.id).sort());
    held.forEach((venues, i) => {
      const shard = manifest[i];
      expect(venues.length).toBe(shard?.venues);
      expect(venues.length).toBeGreaterThan(0);
      const countries = new Set(shard?.regions.map((r) => r.country));
      expect(venues.filter((v) => !countries.has(v.country ?? ""))).toEqual([]);
    });
  });

  it("answers a search whose filters lie in one venue database there as the one database does", async () => {
    let compared = 0;
    const manifest = manifestOf(mainDb);
    for (const [i, db] of shardDbs.entries()) {
      const venues = venuesOf(db);
      // A few venues of each database, spread over its order.
      for (const v of [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].map(
        (at) => venues[Math.floor(at * venues.length)],
      )) {
        if (v?.country === null || v === undefined) continue;
        for (const path of requestsNear(v, regionFilter(v, manifest))) {
          const one = await explainSearch(mainDb, searchRequest(path));
          const sharded = await explainSearch(db, searchRequest(path));
          expect(sharded.page, `${path} in venue database ${i + 1}`).toEqual(one.page);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(300);
  });
});

/** The venue databases the routing asks for a search, its places read from the main database as the worker would. */
function askedShards(path: string, manifest: ShardManifest): number[] {
  const { params } = searchRequest(path);
  const statement = shardPlacesSql(params);
  if (statement === null) return shardsFor(manifest, null, areaOf(params));
  const { text, binds } = anonymous(numbered(statement));
  const places = (mainDb.prepare(text).all(...binds) as Record<string, unknown>[]).map(filterPlace);
  return shardsFor(manifest, places, areaOf(params));
}

describe("the venue databases a search asks (src/d1/shards.ts)", () => {
  it("asks only those that its filters and area touch, every one that holds an answer among them", async () => {
    const manifest = manifestOf(mainDb);
    const all = venuesOf(mainDb).filter((v) => v.country !== null);
    const routed: [string, number][] = [];
    const broad: string[] = [];
    for (const [at, v] of [0.05, 0.25, 0.45, 0.65, 0.85].map((f) => [f, all[Math.floor(f * all.length)]] as const)) {
      if (v === undefined) continue;
      const shard = shardDbs.findIndex((db) => venuesOf(db).some((x) => x.id === v.id)) + 1;
      for (const path of requestsNear(v, regionFilter(v, manifest))) routed.push([path, shard]);
      broad.push(...broadRequests(v, at));
    }
    for (const path of [...routed.map(([p]) => p), ...broad]) {
      const shards = askedShards(path, manifest);
      for (const [i, db] of shardDbs.entries()) {
        const answer = await explainSearch(db, searchRequest(path));
        if (answer.page.total > 0) expect(shards, `${path}: venue database ${i + 1} answers`).toContain(i + 1);
      }
    }
    for (const [path, shard] of routed) {
      const shards = askedShards(path, manifest);
      if (areaOf(searchRequest(path).params) === undefined) expect(shards, path).toEqual([shard]);
      else
        expect(
          shards.filter((s) => s !== shard),
          path,
        ).toEqual([]);
    }
    expect(broad.filter((path) => askedShards(path, manifest).length < SHARDS).length).toBeGreaterThan(5);
  });
});
