/**
 * npm run bench — the benchmark. In one run, so that ratios hold on a noisy machine:
 *
 * 1. imports the default data (250,000 venues) into a scratch file and 1,000,000 venues into a
 *    local D1 state of its own (bench/tmp/state): time, peak memory, size, phase by phase;
 * 2. measures the production bundle;
 * 3. starts `wrangler dev` servers on 127.0.0.1: an empty worker (the baselines), ours with the
 *    edge cache, ours with EDGE_CACHE=off (every request a miss);
 * 4. throughput at 32 connections: the empty worker, cache hits, a worker that only runs SELECT 1
 *    on D1, and misses of every class in turn; latency one request at a time: each query class
 *    (scripts/bench/query-classes.ts) as a miss, with D1's rows_read, and the same statements
 *    straight on the SQLite file;
 * 5. typo recall on names drawn from GeoNames and from the venues;
 * 6. prints the tables and the targets, writes them into docs/benchmarks.md and bench/results.json.
 *
 * `npm run bench -- --venue-files` instead imports a 1,000,000-venue GeoJSON sequence and a 1 GB
 * Overpass answer, both synthetic (docs/benchmarks.md "Real-venue files", README "Real venues").
 *
 * `npm run bench -- --places` instead measures search that understands what people type on the
 * default data: a place in the text, names written the other way, typo recall, and what a place
 * reading costs (docs/benchmarks.md "A place in the text").
 *
 * `npm run bench -- --suggest` instead measures suggestions as you type on the default data and on
 * 1,000,000 venues: letters to the first place against an oracle, the cost of a miss against the
 * plain name search, a hit, the size of an answer (docs/benchmarks.md "Suggestions").
 *
 * `npm run bench -- --guard` instead runs only the guard of the import's phases: 1,000,000 venues on a
 * synthetic 2,000,000-city file, each phase against the stored figures of the last full run
 * (bench/phases.json); exits 1 when a phase is more than 1.5 × slower (scripts/bench/phase-guard.ts).
 *
 * `npm run bench -- --scale` instead imports 3,000,000 venues, then 10,000,000 venues on the
 * synthetic 5,000,000-city file (npm run data:scale), and measures every class on that database
 * against the 1M figures of bench/results.json (bench/scale.json, docs/benchmarks.md "At scale").
 *
 * `npm run bench -- --remote` instead runs the remote import (`npm run db:import -- --remote`) through
 * the real wrangler on a local D1 standing in for the remote database, at 250,000 and 1,000,000
 * venues (`--venues N`: that size alone): time and peak memory, the rows D1 counted as written, the
 * bytes sent and the database's size against what the import said before its first file, and the
 * same import again, unchanged, which sends nothing (docs/benchmarks.md "Remote import"); then the
 * refresh of --refresh.
 *
 * `npm run bench -- --refresh` instead measures what a refresh changes: the default venues as a
 * venue file, then with 300 venues in Berlin added, compared table by table (docs/deploy.md "A
 * refresh that writes what changed"), then sent through the stand-in as a full remote import and a
 * refresh, sent again unchanged, and the first sent back from a machine without the mirror
 * (docs/benchmarks.md "A refresh, sent"); `--venues N`, N generated venues instead, the table
 * printed only.
 *
 * `npm run bench -- --refreshes` instead measures ten refreshes in a row: every query class's miss
 * on the refreshed database against a fresh import of the same data (docs/benchmarks.md "Ten
 * refreshes in a row").
 *
 * `npm run bench -- --classes` instead measures the query classes alone as misses (rows read, p50, raw
 * SQL) on 1,000,000 venues (`--venues N`), into bench/classes.json; `--compare FILE` beside an earlier run.
 *
 * `npm run bench -- --first` instead measures whether the first result is the one a person means: the
 * whole names of the 1,000 largest cities and one-letter typos, on the default data or the server at
 * `--url` (docs/benchmarks.md "The first result").
 *
 * `npm run bench -- --floor` instead measures each query class's misses against a bare worker that
 * replays the class's own statements in one D1 batch (docs/benchmarks.md "The floor").
 *
 * `npm run bench -- --traces` instead measures what `wrangler dev`'s local traces cost a miss, and
 * the disk they take (docs/benchmarks.md "Wrangler dev's local traces").
 *
 * `npm run bench -- --own-code` instead times the worker's own search code per class of the floor,
 * D1's rows replayed (docs/benchmarks.md "The floor").
 *
 * `npm run bench -- --long-words` instead measures words longer than FTS5's prefix index against
 * their first 6 letters at 1,000,000 venues (docs/benchmarks.md "Long words").
 *
 * `npm run bench -- --profile CLASS` instead profiles the worker's CPU under load of one query class.
 *
 * `npm run bench -- --shards` instead plans the venues over several D1 databases by region at the default
 * data, 1M venues, and 10M and 30M extrapolated (docs/deploy.md "Past one database"); `--shards-serve`
 * measures the misses of the default data in 3 venue databases (`--count N`: N) against one database;
 * `--swap-window` the searches refused while they are imported again under a main database without venues.
 *
 * `npm run bench -- --dearest` instead sends the widest valid requests of every class and thousands
 * drawn over every parameter, at the default data and at 1,000,000 venues: per endpoint the request
 * that read the most rows and the one that took the most D1 time (docs/benchmarks.md "What one
 * request may cost"); with `--count N`, at the default data in N venue databases (rows read summed
 * over the databases a request asks, docs/deploy.md); `--dearest-mix` runs the load test's
 * dearest-requests mix alone, three times.
 *
 * Every server it starts is stopped at the end, also on failure or Ctrl-C.
 */
import "./node-version.ts";
import { mkdirSync } from "node:fs";
import { parseArgs } from "node:util";
import { TMP } from "./bench/common.ts";
import { benchDefault } from "./bench/default-run.ts";
import { benchScale } from "./bench/scale-run.ts";
import { benchPlaces } from "./bench/places-run.ts";
import { benchVenueFiles } from "./bench/venue-files-run.ts";
import { benchGuard } from "./bench/guard-run.ts";
import { benchSuggest } from "./bench/suggest-run.ts";
import { benchRemote } from "./bench/remote-run.ts";
import { benchDearest, benchDearestSharded } from "./bench/dearest-run.ts";
import { benchDearestMix } from "./bench/dearest-mix-run.ts";
import { benchRefresh } from "./bench/refresh-run.ts";
import { benchRefreshes } from "./bench/refreshes-run.ts";
import { benchClasses } from "./bench/classes-run.ts";
import { benchFirst } from "./bench/first-run.ts";
import { benchFloor } from "./bench/floor-run.ts";
import { benchTraces } from "./bench/traces-run.ts";
import { benchOwnCode } from "./bench/own-code-run.ts";
import { benchProfile } from "./bench/profile-run.ts";
import { benchLongWords } from "./bench/long-words-run.ts";
import { benchShards } from "./bench/shards-run.ts";
import { benchShardsServe } from "./bench/shards-serve-run.ts";
import { benchSwapWindow } from "./bench/swap-window-run.ts";
import { stopDevServers } from "./tools/dev-server.ts";

const { values } = parseArgs({
  options: {
    scale: { type: "boolean" },
    "venue-files": { type: "boolean" },
    places: { type: "boolean" },
    guard: { type: "boolean" },
    suggest: { type: "boolean" },
    remote: { type: "boolean" },
    dearest: { type: "boolean" },
    "dearest-mix": { type: "boolean" },
    refresh: { type: "boolean" },
    refreshes: { type: "boolean" },
    classes: { type: "boolean" },
    first: { type: "boolean" },
    floor: { type: "boolean" },
    traces: { type: "boolean" },
    "own-code": { type: "boolean" },
    "long-words": { type: "boolean" },
    shards: { type: "boolean" },
    "shards-serve": { type: "boolean" },
    "swap-window": { type: "boolean" },
    count: { type: "string" },
    profile: { type: "string" },
    url: { type: "string" },
    label: { type: "string" },
    compare: { type: "string" },
    venues: { type: "string", multiple: true },
  },
});
/** Positive whole numbers given to `--option`, or exits saying which is not one. */
function counts(option: string, given: string[] | undefined): number[] | undefined {
  const bad = given?.find((v) => !/^[1-9][0-9]*$/.test(v));
  if (bad !== undefined) {
    console.error(`npm run bench: --${option} wants a positive whole number, not "${bad}"`);
    process.exit(1);
  }
  return given?.map(Number);
}
/** `--venues N` (repeatable) of the remote run: the sizes to measure; the classes' run, its size. */
const venueSizes = (given: string[] | undefined) => counts("venues", given);
mkdirSync(TMP, { recursive: true });
const RUNS = [
  [values.scale, benchScale],
  [values.guard, benchGuard],
  [values.suggest, benchSuggest],
  [values["venue-files"], benchVenueFiles],
  [values.places, benchPlaces],
  [values.remote, () => benchRemote(venueSizes(values.venues)).then(() => benchRefresh())],
  [
    values.dearest,
    () => {
      const shards = counts("count", values.count === undefined ? undefined : [values.count])?.[0];
      return shards === undefined ? benchDearest() : benchDearestSharded(shards);
    },
  ],
  [values["dearest-mix"], benchDearestMix],
  [values.refresh, () => benchRefresh(venueSizes(values.venues)?.[0])],
  [values.refreshes, benchRefreshes],
  [values.classes, () => benchClasses(venueSizes(values.venues)?.[0] ?? 1_000_000, values.compare)],
  [values.first, () => benchFirst(values.url, values.label)],
  [values.floor, benchFloor],
  [values.traces, benchTraces],
  [values["own-code"], benchOwnCode],
  [values["long-words"], () => benchLongWords(venueSizes(values.venues)?.[0] ?? 1_000_000)],
  [values.profile !== undefined, () => benchProfile(values.profile)],
  [values.shards, benchShards],
  [
    values["shards-serve"],
    () => benchShardsServe(counts("count", values.count === undefined ? undefined : [values.count])?.[0]),
  ],
  [values["swap-window"], benchSwapWindow],
] as const;
const bench = RUNS.find(([asked]) => asked === true)?.[1] ?? benchDefault;
bench().catch((error: unknown) => {
  stopDevServers();
  console.error(error);
  process.exit(1);
});
