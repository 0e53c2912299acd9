/** What both benchmark runs share: their settings, imports, servers and the per-class measurement. */
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import type Database from "better-sqlite3";
import type { ImportSummary } from "../import/run.ts";
import { d1Database, localD1File } from "../import/wrangler.ts";
import { logger, startDevServer } from "../tools/dev-server.ts";
import { bin, IMPORT_COMMAND, ROOT, run } from "../tools/project.ts";
import { interleaved, load, median, rowsRead, roundTrips, sequential, type LoadFigures } from "./measure.ts";
import { classPath, QUERY_CLASSES, type QueryClass } from "./query-classes.ts";
import { rawSqlMs } from "./raw-sql.ts";
import { writeDocSection } from "./docs-section.ts";
import type { ClassFigures, ImportFigures } from "./results.ts";
import { tableSizes } from "./sizes.ts";

export const TMP = join(ROOT, "bench", "tmp");
export const RESULTS = join(ROOT, "bench", "results.json");
export const SCALE_RESULTS = join(ROOT, "bench", "scale.json");

/** Saturating load, for requests per second. */
export const THROUGHPUT = { connections: 32, duration: 5 };
export const THROUGHPUT_ROUNDS = 3;
/** One request at a time, for latency without queueing (2 cores serve the load generator too). */
export const LATENCY_SECONDS = 5;

export const log = logger("bench");

/** scripts/import.ts into a target, without pauses (nothing serves it meanwhile): its figures. */
export async function timedImport(venues: number, target: string[], extra: string[] = []): Promise<ImportFigures> {
  const output = await run(bin("tsx"), [
    ...IMPORT_COMMAND,
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
export const PROBE = "/1.0/search/cities?name=paris";

/** The empty worker (bench/empty-worker.ts): the baselines. Its base URL. */
export async function startEmptyWorker(): Promise<string> {
  const args = ["--config", "bench/empty-wrangler.toml", "--persist-to", join(TMP, "empty-state")];
  return (await startDevServer({ port: 8791, args })).base;
}

/** Our worker on a local D1 state, without its edge cache: every request a miss. Its base URL. */
export async function startMissWorker(port: number, state: string): Promise<string> {
  const args = ["--persist-to", state, "--var", "EDGE_CACHE:off", "--var", "RATE_LIMIT:off"];
  return (await startDevServer({ port, args, probe: PROBE })).base;
}

function acceptFor(c: QueryClass): Record<string, string> {
  return { Accept: c.format === "json" ? "application/json" : "application/xml" };
}

/** Each class as a miss, one request at a time, with rows_read and the raw SQL time. */
export async function measureClasses(
  base: string,
  db: Database.Database,
  classes: readonly QueryClass[],
): Promise<ClassFigures[]> {
  const out: ClassFigures[] = [];
  for (const c of classes) {
    const path = classPath(c);
    log(`misses: ${c.label} (${path}, ${c.format})`);
    const probe = await fetch(`${base}${path}`, { headers: acceptFor(c) });
    await probe.arrayBuffer();
    await sequential(`${base}${path}`, acceptFor(c), 1); // warm-up
    // A class with typos (a place in the text) is measured in turn with its strict (plain) class,
    // which it is compared with.
    const pair = [...classes, ...QUERY_CLASSES].find((s) => s.id === (c.strictPair ?? c.plainPair));
    const [figures, strict] = await interleaved(
      [`${base}${path}`, ...(pair === undefined ? [] : [`${base}${classPath(pair)}`])],
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
      roundTrips: roundTrips(probe),
      rawSqlMs: await rawSqlMs(db, c),
      ...(c.strictPair === undefined ? {} : { strictPair: c.strictPair }),
      ...(c.plainPair === undefined ? {} : { plainPair: c.plainPair }),
      ...(strict === undefined ? {} : { strictLatency: { p50: strict.p50, p99: strict.p99 } }),
      ...figures,
    });
  }
  return out;
}

export function machine(): string {
  const cores = cpus();
  return `${cores.length} cores (${cores[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

export async function report(text: string, targets: readonly [string, boolean][], section: string): Promise<void> {
  console.log(`\n${text}\n`);
  for (const [target, met] of targets) console.log(`${met ? "met   " : "MISSED"}  ${target}`);
  if (await writeDocSection(section, text)) log(`wrote the tables into docs/benchmarks.md (${section})`);
}

export const everyClassPath = (): (() => string) => {
  let n = 0;
  return () => classPath(QUERY_CLASSES[n++ % QUERY_CLASSES.length] as QueryClass);
};

/** Interleaved rounds at 32 connections of the SELECT 1 worker and of misses of every class in turn: the medians. */
export async function missesAgainstFloor(
  empty: string,
  misses: string,
): Promise<{ floor: LoadFigures; misses: LoadFigures }> {
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
