/**
 * `npm run bench -- --scale`: 3,000,000 venues, then 10,000,000 venues on the synthetic
 * 5,000,000-city file, every query class measured against the 1M figures (scripts/bench.ts).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { d1Database, localD1File } from "../import/wrangler.ts";
import { stopDevServers } from "../tools/dev-server.ts";
import { bin, run } from "../tools/project.ts";
import {
  log,
  machine,
  measureClasses,
  missesAgainstFloor,
  report,
  RESULTS,
  SCALE_RESULTS,
  startEmptyWorker,
  startMissWorker,
  timedImport,
  TMP,
} from "./common.ts";
import { QUERY_CLASSES } from "./query-classes.ts";
import { classScans } from "./raw-sql.ts";
import { scaleText } from "./render.ts";
import type { BenchResults, ScaleResults } from "./results.ts";
import { tableSizes } from "./sizes.ts";
import { scaleTargets } from "./targets.ts";
import { guardImport, phaseRun, phaseTargets, storedPhases, storePhases } from "./phase-guard.ts";

const SCALE_CITIES = 5_000_000;

export async function benchScale(): Promise<void> {
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
  const bigRun = phaseRun(bigImport);
  log(`  ${bigImport.seconds} s, ${bigImport.peakMiB} MiB, ${bigImport.sizeMiB.toFixed(0)} MiB`);
  const dbPath = localD1File(d1Database().id, state);
  const guard = await guardImport();
  log(`  ${guard.figures.seconds} s, ${guard.figures.peakMiB} MiB`);
  const before = storedPhases();
  storePhases(guard.run, bigRun);

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
    const targets = [
      ...scaleTargets(results, million),
      ...phaseTargets("the 10M import's phases against the last full run's", bigRun, before?.scale),
    ];
    await report(scaleText(results, million, targets), targets, "scale");
    console.log(`\n(the run took ${results.seconds} s)`);
  } finally {
    stopDevServers();
  }
}
