/**
 * `npm run bench`: the default data and 1,000,000 venues imported, the bundle measured, then
 * throughput, latency per query class and typo recall against the baselines (scripts/bench.ts).
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { defaultSources } from "../import/sources/resolve.ts";
import { d1Database, localD1File } from "../import/wrangler.ts";
import { bundleSize } from "../tools/bundle.ts";
import { startDevServer, stopDevServers } from "../tools/dev-server.ts";
import {
  everyClassPath,
  LATENCY_SECONDS,
  log,
  machine,
  measureClasses,
  PROBE,
  report,
  RESULTS,
  startEmptyWorker,
  startMissWorker,
  THROUGHPUT,
  THROUGHPUT_ROUNDS,
  timedImport,
  TMP,
} from "./common.ts";
import { measureAliases } from "./aliases.ts";
import { dearestTable, measureDearest, vocabularyOf } from "./dearest.ts";
import { load, median, sequential, type LoadFigures } from "./measure.ts";
import { QUERY_CLASSES } from "./query-classes.ts";
import { measureRecall, sampleCities, sampleVenues } from "./recall.ts";
import { benchText } from "./render.ts";
import type { BenchResults } from "./results.ts";
import { tableSizes } from "./sizes.ts";
import { benchTargets } from "./targets.ts";
import { guardImport, phaseTargets, storedPhases } from "./phase-guard.ts";

/** Names drawn for the recall of the typo fallback, per resource. */
const RECALL_SAMPLES = 200;
/** Valid requests drawn per endpoint for the dearest ones (dearest.ts). */
const DEAREST_PER_ENDPOINT = 500;
/** Venues searched by another of their names. */
const ALIAS_SAMPLES = 200;
const JSON_ACCEPT = { Accept: "application/json" };

type Rounds = Record<"baseline" | "sameBody" | "hits" | "floor" | "misses", LoadFigures>;

async function imports() {
  log("importing the default data (250,000 venues) into a scratch file");
  const defaultDb = join(TMP, "default.sqlite");
  rmSync(defaultDb, { force: true });
  const defaultImport = await timedImport(250_000, ["--database", defaultDb]);
  log(`  ${defaultImport.seconds} s, ${defaultImport.peakMiB} MiB`);
  log("importing 1,000,000 venues into the benchmark's local D1 (bench/tmp/state, new)");
  const state = join(TMP, "state");
  rmSync(state, { recursive: true, force: true });
  const millionImport = await timedImport(1_000_000, ["--persist-to", state]);
  log(`  ${millionImport.seconds} s, ${millionImport.peakMiB} MiB`);
  const guard = await guardImport();
  log(`  ${guard.figures.seconds} s, ${guard.figures.peakMiB} MiB`);
  return { state, imports: [defaultImport, millionImport, guard.figures], guard: guard.run };
}

/** The size of a cached answer, read once the cache holds it (the empty worker answers as many bytes). */
async function hitSize(hits: string): Promise<number> {
  let bytes = 0;
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${hits}${PROBE}`, { headers: JSON_ACCEPT });
    bytes = (await res.arrayBuffer()).byteLength;
    if (res.headers.get("X-Cache") === "HIT") break;
  }
  return bytes;
}

/** Interleaved rounds, medians: all see the same machine weather. */
async function throughput(empty: string, hits: string, misses: string, hitBytes: number): Promise<Rounds> {
  const sameBody = `/?bytes=${hitBytes}`;
  const warmUps = [
    [empty, "/"],
    [empty, sameBody],
    [hits, PROBE],
    [empty, "/?d1=1"],
  ] as const;
  for (const [base, path] of warmUps) await load(base, () => path, JSON_ACCEPT, { connections: 8, duration: 2 });
  const rounds: Rounds[] = [];
  for (let round = 1; round <= THROUGHPUT_ROUNDS; round++) {
    log(`throughput round ${round} of ${THROUGHPUT_ROUNDS}: empty worker, same-size answer, hits, SELECT 1, misses`);
    rounds.push({
      baseline: await load(empty, () => "/", {}, THROUGHPUT),
      sameBody: await load(empty, () => sameBody, {}, THROUGHPUT),
      hits: await load(hits, () => PROBE, JSON_ACCEPT, THROUGHPUT),
      floor: await load(empty, () => "/?d1=1", {}, THROUGHPUT),
      misses: await load(misses, everyClassPath(), JSON_ACCEPT, THROUGHPUT),
    });
  }
  const pick = (k: keyof Rounds) => median(rounds.map((r) => r[k]));
  return {
    baseline: pick("baseline"),
    sameBody: pick("sameBody"),
    hits: pick("hits"),
    floor: pick("floor"),
    misses: pick("misses"),
  };
}

async function latencies(empty: string, hits: string) {
  log("latency: empty worker, SELECT 1 on D1, cache hits");
  const baselineLatency = await sequential(`${empty}/`, {}, LATENCY_SECONDS);
  await sequential(`${empty}/?d1=1`, {}, 1);
  const d1Floor = await sequential(`${empty}/?d1=1`, {}, LATENCY_SECONDS);
  const hitsLatency = await sequential(`${hits}${PROBE}`, JSON_ACCEPT, LATENCY_SECONDS);
  return { baselineLatency, d1Floor, hitsLatency };
}

async function recallOf(misses: string, db: Database.Database) {
  log("typo recall: names from GeoNames and from the venues, with typos");
  const seed = "bench recall";
  const cities = await sampleCities(defaultSources().cities, RECALL_SAMPLES, seed);
  return [
    ...(await measureRecall(misses, "cities", cities, seed)),
    ...(await measureRecall(misses, "venues", sampleVenues(db, RECALL_SAMPLES, seed), seed)),
  ];
}

export async function benchDefault(): Promise<void> {
  const started = Date.now();
  const { state, imports: importFigures, guard } = await imports();
  const dbPath = localD1File(d1Database().id, state);
  log("measuring the bundle");
  const bundle = await bundleSize();
  log("starting the servers");
  const empty = await startEmptyWorker();
  const serverArgs = ["--persist-to", state, "--var", "RATE_LIMIT:off"];
  const hits = (await startDevServer({ port: 8792, args: serverArgs, probe: PROBE })).base;
  const misses = await startMissWorker(8793, state);
  try {
    const hitBytes = await hitSize(hits);
    const rounds = await throughput(empty, hits, misses, hitBytes);
    const latency = await latencies(empty, hits);
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    const classes = await measureClasses(misses, db, QUERY_CLASSES);
    log("the dearest valid requests at 1,000,000 venues");
    const dearest = await measureDearest(misses, vocabularyOf(dbPath), DEAREST_PER_ENDPOINT);
    const recall = await recallOf(misses, db);
    log("venues found by another of their names, against their shown name");
    const aliases = await measureAliases(misses, db, ALIAS_SAMPLES);
    db.close();
    const results: BenchResults = {
      date: new Date().toISOString().slice(0, 10),
      machine: machine(),
      imports: importFigures,
      sizes: tableSizes(dbPath),
      bundle,
      baseline: rounds.baseline,
      baselineSameBody: rounds.sameBody,
      d1FloorThroughput: rounds.floor,
      missThroughput: rounds.misses,
      hits: rounds.hits,
      hitBytes,
      ...latency,
      classes,
      recall,
      aliases,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    const targets = [
      ...benchTargets(results),
      ...phaseTargets("the guard's phases (1M venues on 2M synthetic cities)", guard, storedPhases()?.guard),
    ];
    await report(benchText(results, targets), targets, "bench");
    await report(
      dearestTable(`Measured ${results.date} with \`npm run bench\`, 1,000,000 venues`, dearest),
      [],
      "dearest",
    );
    console.log(`\n(the run took ${results.seconds} s)`);
  } finally {
    stopDevServers();
  }
}
