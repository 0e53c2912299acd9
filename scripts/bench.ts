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
 * 6. prints the tables and the targets, writes them into README.md and bench/results.json.
 *
 * `npm run bench -- --scale` instead imports 3,000,000 venues, then 10,000,000 venues on the
 * synthetic 5,000,000-city file (npm run data:scale), and measures every class on that database
 * against the 1M figures of bench/results.json (bench/scale.json, README "At scale").
 *
 * Every server it starts is stopped at the end, also on failure or Ctrl-C.
 */
import "./node-version.ts";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { interleaved, load, median, rowsRead, sequential, type LoadFigures } from "./bench/measure.ts";
import { classScans, rawSqlMs } from "./bench/raw-sql.ts";
import { measureRecall, sampleCities, sampleVenues } from "./bench/recall.ts";
import { writeReadmeSection } from "./bench/readme.ts";
import { benchText, scaleText } from "./bench/render.ts";
import type { BenchResults, ClassFigures, ImportFigures, ScaleResults } from "./bench/results.ts";
import { tableSizes } from "./bench/sizes.ts";
import { benchTargets, scaleTargets } from "./bench/targets.ts";
import { bundleSize } from "./tools/bundle.ts";
import { logger, startDevServer, stopDevServers } from "./tools/dev-server.ts";
import { bin, ROOT, run } from "./tools/project.ts";
import { QUERY_CLASSES, type QueryClass } from "./bench/query-classes.ts";
import { defaultSources, type ImportSummary } from "./import/run.ts";
import { d1Database, localD1File } from "./import/wrangler.ts";

const TMP = join(ROOT, "bench", "tmp");
const RESULTS = join(ROOT, "bench", "results.json");
const SCALE_RESULTS = join(ROOT, "bench", "scale.json");

/** Saturating load, for requests per second. */
const THROUGHPUT = { connections: 32, duration: 5 };
const THROUGHPUT_ROUNDS = 3;
/** One request at a time, for latency without queueing (2 cores serve the load generator too). */
const LATENCY_SECONDS = 5;
/** Names drawn for the recall of the typo fallback, per resource. */
const RECALL_SAMPLES = 200;
const SCALE_CITIES = 5_000_000;

const log = logger("bench");

/** scripts/import.ts into a target, without pauses (nothing serves it meanwhile): its figures. */
async function timedImport(venues: number, target: string[], extra: string[] = []): Promise<ImportFigures> {
  const output = await run(bin("tsx"), [
    "scripts/import.ts",
    ...target,
    "--venue-count",
    String(venues),
    "--force",
    "--fast",
    "--json",
    "-q",
    ...extra,
  ]);
  const json = output.split("\n").find((l) => l.startsWith("{"));
  if (json === undefined) throw new Error(`unexpected import output:\n${output}`);
  const s = JSON.parse(json) as ImportSummary & { peakMiB: number };
  const path = target[0] === "--database" ? (target[1] ?? "") : localD1File(d1Database().id, target[1]);
  return {
    venues: s.counts.venues,
    cities: s.counts.cities,
    seconds: s.seconds,
    peakMiB: s.peakMiB,
    sizeMiB: tableSizes(path).total,
    phases: s.phases,
  };
}

/** A search of ours that answers once the worker serves its data. */
const PROBE = "/1.0/search/cities?name=paris";

/** The empty worker (bench/empty-worker.ts): the baselines. Its base URL. */
async function startEmptyWorker(): Promise<string> {
  const args = ["--config", "bench/empty-wrangler.toml", "--persist-to", join(TMP, "empty-state")];
  return (await startDevServer({ port: 8791, args })).base;
}

/** Our worker on a local D1 state, without its edge cache: every request a miss. Its base URL. */
async function startMissWorker(port: number, state: string): Promise<string> {
  const args = ["--persist-to", state, "--var", "EDGE_CACHE:off", "--var", "RATE_LIMIT:off"];
  return (await startDevServer({ port, args, probe: PROBE })).base;
}

function acceptFor(c: QueryClass): Record<string, string> {
  return { Accept: c.format === "json" ? "application/json" : "application/xml" };
}

const classUrl = (c: QueryClass) => `/1.0/search/${c.resource}?${c.query}`;

/** Each class as a miss, one request at a time, with rows_read and the raw SQL time. */
async function measureClasses(
  base: string,
  db: Database.Database,
  classes: readonly QueryClass[],
): Promise<ClassFigures[]> {
  const out: ClassFigures[] = [];
  for (const c of classes) {
    const path = classUrl(c);
    log(`misses: ${c.label} (${path}, ${c.format})`);
    const probe = await fetch(`${base}${path}`, { headers: acceptFor(c) });
    await probe.arrayBuffer();
    await sequential(`${base}${path}`, acceptFor(c), 1); // warm-up
    // A class with typos is measured in turn with its strict class, which it is compared with.
    const pair = classes.find((s) => s.id === c.strictPair);
    const [figures, strict] = await interleaved(
      [`${base}${path}`, ...(pair === undefined ? [] : [`${base}${classUrl(pair)}`])],
      acceptFor(c),
      pair === undefined ? LATENCY_SECONDS : 2 * LATENCY_SECONDS,
    );
    if (figures === undefined) throw new Error(`no figures for ${c.id}`);
    out.push({
      id: c.id,
      label: c.label,
      url: `${path}${c.format === "xml" ? " (XML)" : ""}`,
      status: probe.status,
      rowsRead: rowsRead(probe),
      rawSqlMs: await rawSqlMs(db, c),
      ...(c.strictPair === undefined ? {} : { strictPair: c.strictPair }),
      ...(strict === undefined ? {} : { strictLatency: { p50: strict.p50, p99: strict.p99 } }),
      ...figures,
    });
  }
  return out;
}

function machine(): string {
  const cores = cpus();
  return `${cores.length} cores (${cores[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

async function report(text: string, targets: readonly [string, boolean][], section: string): Promise<void> {
  console.log(`\n${text}\n`);
  for (const [target, met] of targets) console.log(`${met ? "met   " : "MISSED"}  ${target}`);
  if (await writeReadmeSection(section, text)) log(`wrote the tables into README.md (${section})`);
}

async function bench(): Promise<void> {
  const started = Date.now();
  const state = join(TMP, "state");
  const defaultDb = join(TMP, "default.sqlite");

  log("importing the default data (250,000 venues) into a scratch file");
  rmSync(defaultDb, { force: true });
  const defaultImport = await timedImport(250_000, ["--database", defaultDb]);
  log(`  ${defaultImport.seconds} s, ${defaultImport.peakMiB} MiB`);
  log("importing 1,000,000 venues into the benchmark's local D1 (bench/tmp/state, new)");
  rmSync(state, { recursive: true, force: true });
  const millionImport = await timedImport(1_000_000, ["--persist-to", state]);
  log(`  ${millionImport.seconds} s, ${millionImport.peakMiB} MiB`);
  const dbPath = localD1File(d1Database().id, state);

  log("measuring the bundle");
  const bundle = await bundleSize();

  log("starting the servers");
  const empty = await startEmptyWorker();
  const hits = (
    await startDevServer({ port: 8792, args: ["--persist-to", state, "--var", "RATE_LIMIT:off"], probe: PROBE })
  ).base;
  const misses = await startMissWorker(8793, state);

  try {
    const json = { Accept: "application/json" };
    let hitBytes = 0;
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${hits}${PROBE}`, { headers: json });
      hitBytes = (await res.arrayBuffer()).byteLength;
      if (res.headers.get("X-Cache") === "HIT") break;
    }
    const sameBody = `/?bytes=${hitBytes}`;
    const everyClass = everyClassPath();
    for (const [base, path] of [
      [empty, "/"],
      [empty, sameBody],
      [hits, PROBE],
      [empty, "/?d1=1"],
    ] as const) {
      await load(base, () => path, json, { connections: 8, duration: 2 }); // warm-up
    }
    // Interleaved rounds, medians: all see the same machine weather.
    const rounds: Record<"baseline" | "sameBody" | "hits" | "floor" | "misses", LoadFigures>[] = [];
    for (let round = 1; round <= THROUGHPUT_ROUNDS; round++) {
      log(`throughput round ${round} of ${THROUGHPUT_ROUNDS}: empty worker, same-size answer, hits, SELECT 1, misses`);
      rounds.push({
        baseline: await load(empty, () => "/", {}, THROUGHPUT),
        sameBody: await load(empty, () => sameBody, {}, THROUGHPUT),
        hits: await load(hits, () => PROBE, json, THROUGHPUT),
        floor: await load(empty, () => "/?d1=1", {}, THROUGHPUT),
        misses: await load(misses, everyClass, json, THROUGHPUT),
      });
    }
    const pick = (k: keyof (typeof rounds)[number]) => median(rounds.map((r) => r[k]));

    log("latency: empty worker, SELECT 1 on D1, cache hits");
    const baselineLatency = await sequential(`${empty}/`, {}, LATENCY_SECONDS);
    await sequential(`${empty}/?d1=1`, {}, 1);
    const d1Floor = await sequential(`${empty}/?d1=1`, {}, LATENCY_SECONDS);
    const hitsLatency = await sequential(`${hits}${PROBE}`, json, LATENCY_SECONDS);

    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    const classes = await measureClasses(misses, db, QUERY_CLASSES);

    log("typo recall: names from GeoNames and from the venues, with typos");
    const seed = "bench recall";
    const cities = await sampleCities(defaultSources().cities, RECALL_SAMPLES, seed);
    const recall = [
      ...(await measureRecall(misses, "cities", cities, seed)),
      ...(await measureRecall(misses, "venues", sampleVenues(db, RECALL_SAMPLES, seed), seed)),
    ];
    db.close();

    const results: BenchResults = {
      date: new Date().toISOString().slice(0, 10),
      machine: machine(),
      imports: [defaultImport, millionImport],
      sizes: tableSizes(dbPath),
      bundle,
      baseline: pick("baseline"),
      baselineLatency,
      baselineSameBody: pick("sameBody"),
      d1Floor,
      d1FloorThroughput: pick("floor"),
      missThroughput: pick("misses"),
      hitBytes,
      hits: pick("hits"),
      hitsLatency,
      classes,
      recall,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    const targets = benchTargets(results);
    await report(benchText(results, targets), targets, "bench");
    console.log(`\n(the run took ${results.seconds} s)`);
  } finally {
    stopDevServers();
  }
}

const everyClassPath = (): (() => string) => {
  let n = 0;
  return () => classUrl(QUERY_CLASSES[n++ % QUERY_CLASSES.length] as QueryClass);
};

/** Interleaved rounds at 32 connections of the SELECT 1 worker and of misses of every class in turn: the medians. */
async function missesAgainstFloor(empty: string, misses: string): Promise<{ floor: LoadFigures; misses: LoadFigures }> {
  const json = { Accept: "application/json" };
  await load(empty, () => "/?d1=1", {}, { connections: 8, duration: 2 }); // warm-up
  await load(misses, everyClassPath(), json, { connections: 8, duration: 2 });
  const floors: LoadFigures[] = [];
  const missRounds: LoadFigures[] = [];
  for (let round = 1; round <= THROUGHPUT_ROUNDS; round++) {
    log(`throughput round ${round} of ${THROUGHPUT_ROUNDS}: SELECT 1, misses`);
    floors.push(await load(empty, () => "/?d1=1", {}, THROUGHPUT));
    missRounds.push(await load(misses, everyClassPath(), json, THROUGHPUT));
  }
  return { floor: median(floors), misses: median(missRounds) };
}

async function scale(): Promise<void> {
  const started = Date.now();
  const state = join(TMP, "scale-state");
  const citiesFile = join(TMP, `synthetic-cities-${SCALE_CITIES}.txt`);
  if (!existsSync(citiesFile)) {
    log(`writing the synthetic ${SCALE_CITIES.toLocaleString("en-US")}-city file (npm run data:scale)`);
    await run(bin("tsx"), ["scripts/data-scale.ts", "--cities", String(SCALE_CITIES), "--out", citiesFile]);
  }
  log("importing 3,000,000 venues (cities500) into a scratch file");
  const three = join(TMP, "three-million.sqlite");
  rmSync(three, { force: true });
  const threeImport = await timedImport(3_000_000, ["--database", three]);
  rmSync(three, { force: true });
  log(`  ${threeImport.seconds} s, ${threeImport.peakMiB} MiB, ${threeImport.sizeMiB.toFixed(0)} MiB`);
  log("importing 10,000,000 venues on the synthetic 5,000,000 cities (bench/tmp/scale-state, new)");
  rmSync(state, { recursive: true, force: true });
  const bigImport = await timedImport(10_000_000, ["--persist-to", state], ["--cities", citiesFile]);
  log(`  ${bigImport.seconds} s, ${bigImport.peakMiB} MiB, ${bigImport.sizeMiB.toFixed(0)} MiB`);
  const dbPath = localD1File(d1Database().id, state);

  const empty = await startEmptyWorker();
  const misses = await startMissWorker(8794, state);
  try {
    const { floor, misses: missThroughput } = await missesAgainstFloor(empty, misses);
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    const classes = await measureClasses(misses, db, QUERY_CLASSES);
    const scans: ScaleResults["scans"] = [];
    for (const c of QUERY_CLASSES) scans.push({ id: c.id, lines: await classScans(db, c) });
    db.close();
    const results: ScaleResults = {
      date: new Date().toISOString().slice(0, 10),
      machine: machine(),
      imports: [threeImport, bigImport],
      sizes: tableSizes(dbPath),
      classes,
      scans,
      d1FloorThroughput: floor,
      missThroughput,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    writeFileSync(SCALE_RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    const million = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, "utf8")) as BenchResults) : null;
    const targets = scaleTargets(results, million);
    await report(scaleText(results, million, targets), targets, "scale");
    console.log(`\n(the run took ${results.seconds} s)`);
  } finally {
    stopDevServers();
  }
}

const { values } = parseArgs({ options: { scale: { type: "boolean" } } });
mkdirSync(TMP, { recursive: true });
(values.scale ? scale() : bench()).catch((error: unknown) => {
  stopDevServers();
  console.error(error);
  process.exit(1);
});
