/**
 * Venue databases (docs/deploy.md#past-one-database): the fixture imported into the local D1 once
 * as one database and once with `--shards 3`.
 *
 * - The import: every venue in exactly one venue database, as its manifest says; a search whose
 *   filters lie in one venue database answered there as the one database answers it (a typo's
 *   corrections from the main database's vocabulary: src/d1/main-only.ts); the routing
 *   (src/d1/shards.ts) asks every database that answers.
 * - The worker, as a user would try it: both imports served by `wrangler dev`, the same drawn
 *   requests sent to both (every venue search parameter, deep pages, suggestions, lookups, JSON and
 *   XML), the answers byte for byte the same; Server-Timing says which databases answered
 *   (test/support/merged-said.ts).
 * - Last, the same import again with `--main-venues none`: every drawn request but those that still
 *   read the main database's venues answered as one database does, what asks several merged.
 */
import Database from "better-sqlite3";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runImport, type ImportSummary } from "../../scripts/import/run.ts";
import { FAST } from "../../scripts/import/publish/steps.ts";
import { readDir, runShardedImport, type ShardedSummary } from "../../scripts/import/shards/import.ts";
import { d1Database, localD1File, shardDatabases } from "../../scripts/import/wrangler.ts";
import { startDevServer, type DevServer } from "../../scripts/tools/dev-server.ts";
import { ROOT } from "../../scripts/tools/project.ts";
import { FIXTURES, quiet } from "../support/import-fixtures.ts";
import { compareServers, type Said } from "../support/compare-servers.ts";
import { expectMainForSeveral, expectMerged } from "../support/merged-said.ts";
import { MAIN_HOLDS_NO_VENUE } from "../../src/data-contract/shards.ts";
import * as states from "../support/shard-states.ts";
import {
  broadRequests,
  drawnPaths,
  foreignPaths,
  holderOf,
  manifestOf,
  namesakePaths,
  partition,
  placesOf,
  placeWords,
  readsMainVenues,
  askedShards,
  regionFilter,
  requestsNear,
  venuesOf,
  venueWords,
} from "../support/shard-requests.ts";
import { splitCountry, windowedPaths } from "../support/windowed-paths.ts";
import { areaOf } from "../../src/params/search-params.ts";
import { explainSearch, searchRequest } from "../../scripts/sql/explain.ts";

const SHARDS = 3;
const ONE = mkdtempSync(join(tmpdir(), "vcs-one-"));
const SHARDED = mkdtempSync(join(tmpdir(), "vcs-sharded-"));
const CONFIG = join(ROOT, `wrangler.shards-test-${process.pid}.toml`);
const DATA = { ...FIXTURES, venueCount: 2000, prefixCountMin: 20, pacing: FAST };
const SERVE = ["--var", "EDGE_CACHE:off", "--var", "RATE_LIMIT:off"];
const PROBE = "/1.0/search/cities?name=paris";

let one: DevServer | undefined;
let sharded: DevServer | undefined;
let paths: string[] = [];

let mainDb: Database.Database;
let shardDbs: Database.Database[];
let imported: ShardedSummary;
const SHARDED_TARGET = { kind: "local", persistTo: SHARDED } as const;
const SHARDED_ARGS = ["--config", CONFIG, "--persist-to", SHARDED, ...SERVE];

beforeAll(async () => {
  await runImport({ ...DATA, target: { kind: "local", persistTo: ONE } }, quiet);
  imported = await runShardedImport({ ...DATA, target: SHARDED_TARGET }, SHARDS, true, CONFIG);
  mainDb = new Database(localD1File(d1Database().id, SHARDED), { readonly: true });
  shardDbs = shardDatabases(SHARDS).map((d) => new Database(localD1File(d.id, SHARDED), { readonly: true }));
  paths = [...drawnPaths(mainDb), ...foreignPaths(mainDb, shardDbs).flat(), ...namesakePaths(mainDb, shardDbs)];
  [one, sharded] = await Promise.all([
    startDevServer({ port: 8793, args: ["--persist-to", ONE, ...SERVE], probe: PROBE }),
    startDevServer({ port: 8794, args: SHARDED_ARGS, probe: PROBE }),
  ]);
}, 600_000);

afterAll(() => {
  mainDb.close();
  for (const db of shardDbs) db.close();
  one?.stop();
  sharded?.stop();
  for (const dir of [ONE, SHARDED]) rmSync(dir, { recursive: true, force: true });
  rmSync(CONFIG, { force: true });
});
/** Each request to both servers: what the sharded one said, with its path (test/support/compare-servers.ts). */
const compareAll = (requests: [string, string][]) => compareServers(one, sharded, requests);

describe("the worker over venue databases", () => {
  it("answers 2,000 drawn requests byte for byte as one database does, most of the regional ones in one venue database", async () => {
    const requests = paths.flatMap((p): [string, string][] => [
      [p, "application/json"],
      [p, "application/xml"],
    ]);
    expect(requests.length).toBeGreaterThanOrEqual(2000);
    const said = await compareAll(requests);
    // Routed to one venue database, or the main database's: it holds every venue (merged-said.ts).
    expect(said.filter((s) => /\d/.test(s.databases)).length).toBeGreaterThan(requests.length / 5);
    expectMainForSeveral(said);
  }, 600_000);

  it("answers from the main database while a venue database holds another import", async () => {
    const said = await compareAll(paths.slice(0, 120).map((p) => [p, "application/json"]));
    // "main+2": the routing read the main database; "2": it had read it before.
    const shard = Number(/(\d+)$/.exec(said.find((s) => /\d/.test(s.databases))?.databases ?? "")?.[1]);
    const routed = said.filter((s) => s.databases.replace(/^main\+/, "") === String(shard));
    expect(routed.length).toBeGreaterThan(10);
    const database = localD1File(shardDatabases(SHARDS)[shard - 1]?.id ?? "", SHARDED);
    const again = await states.whileAnotherImport(database, () =>
      compareAll(routed.map((s): [string, string] => [s.path, "application/json"])),
    );
    expect(again.map((s) => s.databases)).toEqual(routed.map(() => "main"));
  }, 300_000);
});

describe("venue databases by region", () => {
  it("builds each venue database from the main database's reading of the sources and its plan, then drops that copy", () => {
    const phases = (summary: ImportSummary) => summary.phases.map((p) => p.name);
    const reading = (name: string) => name.startsWith("reading ") || name.startsWith("generating venues");
    expect(phases(imported.main).filter(reading)).toContain("reading cities.txt");
    for (const { summary } of imported.shards) {
      expect(phases(summary).filter(reading)).toEqual([]);
      expect(phases(summary)).toContainEqual(
        expect.stringMatching(/^the sources as the main database's build read them/),
      );
      expect(summary.counts.shardPlan.digests).toEqual(imported.main.counts.shardPlan.digests);
    }
    expect(existsSync(readDir(SHARDED_TARGET))).toBe(false);
  });

  it("holds every venue and place in at most one venue database, the one whose regions hold it", () => {
    const manifest = manifestOf(mainDb);
    expect(manifest.map((s) => s.shard)).toEqual([1, 2, 3]);
    const all = venuesOf(mainDb);
    const held = shardDbs.map(venuesOf);
    const ids = (venues: { id: string }[]) => venues.map((v) => v.id).sort();
    expect(ids(held.flat())).toEqual(ids(all));
    held.forEach((venues, i) => {
      const shard = manifest[i];
      expect(venues.length).toBe(shard?.venues);
      expect(venues.length).toBeGreaterThan(0);
      const countries = new Set(shard?.regions.map((r) => r.country));
      expect(venues.filter((v) => !countries.has(v.country ?? ""))).toEqual([]);
    });
    // The places of its own regions alone, at the main database's pos, and their words (each place held once).
    const places = placesOf(mainDb);
    shardDbs.forEach((db, i) => expect(placesOf(db)).toEqual(places.filter((p) => holderOf(manifest, p) === i)));
    expect(shardDbs.map(placeWords).reduce((a, b) => a + b)).toBe(placeWords(mainDb));
    states.expectNoCitySearch(shardDbs, mainDb);
  });

  it("answers a search whose filters lie in one venue database there as the one database does", async () => {
    let compared = 0;
    const manifest = manifestOf(mainDb);
    for (const [i, db] of shardDbs.entries()) {
      const venues = venuesOf(db);
      // A few venues of each database, spread over its order.
      for (const v of Array.from({ length: 10 }, (_, k) => venues[Math.floor((k / 10) * venues.length)])) {
        if (v?.country === null || v === undefined) continue;
        for (const path of requestsNear(v, regionFilter(v, manifest))) {
          const one = await explainSearch(mainDb, searchRequest(path));
          const sharded = await explainSearch(db, searchRequest(path), "en", mainDb);
          expect(sharded.page, `${path} in venue database ${i + 1}`).toEqual(one.page);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(300);
  });
});

describe("a venue database's vocabulary (src/d1/main-only.ts)", () => {
  it("holds its own venues' words, and a typo in it is forgiven with the corrections of every venue", async () => {
    const one = new Database(localD1File(d1Database().id, ONE), { readonly: true });
    let compared = 0;
    try {
      const every = new Set(venueWords(one));
      for (const [i, requests] of foreignPaths(mainDb, shardDbs).entries()) {
        const db = shardDbs[i] ?? mainDb;
        const own = venueWords(db);
        expect(own.filter((w) => !every.has(w))).toEqual([]);
        expect(every.size - own.length, `venue database ${i + 1}`).toBeGreaterThan(100);
        for (const path of requests) {
          const sharded = await explainSearch(db, searchRequest(path), "en", mainDb);
          expect(sharded.page, `${path} in venue database ${i + 1}`).toEqual(
            (await explainSearch(one, searchRequest(path))).page,
          );
          compared++;
        }
      }
    } finally {
      one.close();
    }
    expect(compared).toBe(225);
  });
});

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
      const shards = askedShards(mainDb, path, manifest);
      for (const [i, db] of shardDbs.entries()) {
        const answer = await explainSearch(db, searchRequest(path), "en", mainDb);
        if (answer.page.total > 0) expect(shards, `${path}: venue database ${i + 1} answers`).toContain(i + 1);
      }
    }
    for (const [path, shard] of routed) {
      const shards = askedShards(mainDb, path, manifest);
      const others = areaOf(searchRequest(path).params) === undefined ? shards : shards.filter((s) => s !== shard);
      expect(others, path).toEqual(others === shards ? [shard] : []);
    }
    expect(broad.filter((path) => askedShards(mainDb, path, manifest).length < SHARDS).length).toBeGreaterThan(5);
  });
});

describe("a main database without venues (the last: the same import again with --main-venues none)", () => {
  it("is the main database alone imported again, its venues taken out, the venue databases current", async () => {
    const manifest = manifestOf(mainDb);
    const venues = shardDbs.map(states.venueCount);
    // Its server stopped first, and a fresh one started after: nothing read before is kept.
    sharded?.stop();
    const hollow = { ...DATA, target: SHARDED_TARGET, mainVenues: MAIN_HOLDS_NO_VENUE } as const;
    const again = await runShardedImport(hollow, SHARDS, true, CONFIG);
    sharded = await startDevServer({ port: 8792, args: SHARDED_ARGS, probe: PROBE });
    const skipped = [again.main, ...again.shards.map((s) => s.summary)].map((s) => s.skippedAsCurrent);
    expect(skipped).toEqual([false, ...Array<boolean>(SHARDS).fill(true)]);
    expect(again.main.dataVersion).not.toBe(imported.main.dataVersion);
    expect(manifestOf(mainDb)).toEqual(manifest);
    states.expectNoVenues(mainDb);
    expect(shardDbs.map(states.venueCount)).toEqual(venues);
  }, 300_000);
});

describe("over a main database without venues", () => {
  it("answers every other request of the 2,000 drawn as one database does, from the venue databases", async () => {
    const manifest = manifestOf(mainDb);
    // Every drawn request of this data: no area over several venue databases holds more than 1,500 of what it asks.
    const [main, others] = partition(paths, (p) => readsMainVenues(mainDb, shardDbs, p, manifest));
    expect(main).toEqual([]);
    const said = await compareAll(others.map((p): [string, string] => [p, "application/json"]));
    expect(said.length).toBeGreaterThanOrEqual(2000);
    // Areas whose covers hold more than one database reads: their first candidates over every venue database.
    const split = splitCountry(manifest) ?? "US";
    const kind = String(
      shardDbs[0]?.prepare("SELECT kind FROM venues GROUP BY kind ORDER BY count(*) DESC").pluck().get(),
    );
    const windowed = await compareAll(
      windowedPaths(split, kind).flatMap((p): [string, string][] => [
        [p, "application/json"],
        [p, "application/xml"],
      ]),
    );
    const merged = windowed.filter((s) => /\d\+\d/.test(s.databases) && s.status === 200);
    expect(merged.length).toBeGreaterThan(20);
    // The world's box holds every venue, more than one database reads: deep pages from their window.
    expect(merged.filter((s) => /bbox=-180,-90,180,90&p=(20|33)$/.test(s.path)).length).toBe(4);
    // Searches with a name routed to one venue database, merged names, suggestions with typos among them.
    const routed = (s: Said & { path: string }) => s.path.includes("venues?name=") && /^(main\+)?\d$/.test(s.databases);
    expect(said.filter(routed).length).toBeGreaterThan(100);
    expect(said.filter((s) => s.path.startsWith("/1.0/suggest/venues")).length).toBeGreaterThan(200);
    expectMerged(said);
  }, 600_000);

  it("refuses while a venue database it asks holds another import; answers once every database swapped in together", async () => {
    const worldPage = "/1.0/search/venues?bbox=-180,-90,180,90&p=2";
    const holder = shardDbs.findIndex((db) => states.venueCount(db) > 0) + 1;
    const city = `/1.0/search/venues?cityId=${states.aCityOf(shardDbs[holder - 1])}`;
    const ask = (path: string) => fetch(`${sharded?.base ?? ""}${path}`, { headers: { Accept: "application/json" } });
    await states.whileAnotherImport(localD1File(shardDatabases(SHARDS)[holder - 1]?.id ?? "", SHARDED), async () => {
      for (const path of [worldPage, `${city}&p=2`]) {
        const res = await ask(path);
        expect(res.status, path).toBe(503);
        expect(res.headers.get("Retry-After"), path).toBe("1");
        expect(((await res.json()) as { message: string }).message, path).toMatch(/being imported/);
      }
    });
    expect((await ask(worldPage)).status).toBe(200);
    const before = await (await ask(city)).text();
    // Within the seconds the isolate keeps the main database's version, and the plan and places read at it.
    const after = await states.whileSwappedTogether(SHARDED, holder, () => ask(city));
    expect([after.status, await after.text()]).toEqual([200, before]);
  }, 120_000);
});
