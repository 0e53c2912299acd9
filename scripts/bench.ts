/**
 * npm run bench — the benchmark (issue: performance at scale). In one run, so that ratios hold
 * on a noisy machine:
 *
 * 1. imports the default data (250,000 venues) into a scratch SQLite file and 1,000,000 venues
 *    into a local D1 state of its own (bench/tmp/state), timing both and their peak memory;
 * 2. measures the worker bundle (wrangler deploy --dry-run, gzip);
 * 3. starts three `wrangler dev` servers on 127.0.0.1: an empty worker (the baseline), ours with
 *    the edge cache, and ours with EDGE_CACHE=off (every request a miss);
 * 4. drives them with autocannon: throughput of the baseline and of cache hits (32 connections),
 *    then latency one request at a time: the baseline, hits, and each query class of
 *    scripts/lib/query-classes.ts as misses, reading D1's rows_read from Server-Timing;
 * 5. runs the same SQL directly on the same SQLite file with better-sqlite3;
 * 6. prints one table, writes it into README.md and the raw figures to bench/results.json.
 *
 * Every server it starts is stopped at the end, also on failure or Ctrl-C.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { parseSearchParams } from "../src/params.ts";
import { CITIES } from "../src/queries/cities.ts";
import { firstTrip } from "../src/queries/search.ts";
import { VENUES } from "../src/queries/venues.ts";
import { startDevServer, stopDevServers } from "./lib/dev-server.ts";
import { QUERY_CLASSES, type QueryClass } from "./lib/query-classes.ts";
import { ROOT } from "./lib/project.ts";
import { d1Database, localD1File } from "./lib/wrangler.ts";

const TMP = join(ROOT, "bench", "tmp");
const STATE = join(TMP, "state");
const DEFAULT_DB = join(TMP, "default.sqlite");
const RESULTS = join(ROOT, "bench", "results.json");
const README = join(ROOT, "README.md");
const BIN = (name: string) => join(ROOT, "node_modules", ".bin", name);

/** Saturating load, for requests per second. */
const THROUGHPUT = { connections: 32, duration: 5 };
const THROUGHPUT_ROUNDS = 3;
/** One request at a time, for latency without queueing (2 cores serve the load generator too). */
const LATENCY = { duration: 5 };

interface ImportFigures {
  venues: number;
  seconds: number;
  peakMiB: number;
}

interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
}

interface ClassFigures extends LoadFigures {
  id: string;
  label: string;
  url: string;
  status: number;
  rowsRead: number;
  rawSqlMs: number;
}

process.on("SIGINT", () => {
  stopDevServers();
  process.exit(130);
});

function log(text: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
}

/** Runs a command to completion and returns its stdout; fails with its output otherwise. */
function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) =>
      code === 0 ? resolve(out + err) : reject(new Error(`${command} ${args.join(" ")} exited ${code}:\n${err}${out}`)),
    );
  });
}

async function timedImport(venues: number, target: string[]): Promise<ImportFigures> {
  const output = await run(BIN("tsx"), [
    "scripts/import.ts",
    ...target,
    "--venue-count",
    String(venues),
    "--force",
    "-q",
  ]);
  const m = /took ([\d.]+) s, peak memory (\d+) MiB/.exec(output);
  if (!m) throw new Error(`unexpected import output:\n${output}`);
  return { venues, seconds: Number(m[1]), peakMiB: Number(m[2]) };
}

async function bundleSize(): Promise<{ kib: number; gzipKib: number }> {
  const outdir = join(TMP, "dist");
  rmSync(outdir, { recursive: true, force: true });
  await run(BIN("wrangler"), ["deploy", "--dry-run", "--outdir", outdir]);
  const code = readFileSync(join(outdir, "index.js"));
  return { kib: code.length / 1024, gzipKib: gzipSync(code, { level: 9 }).length / 1024 };
}

async function load(url: string, headers: Record<string, string>, opts: { connections: number; duration: number }) {
  const result = await autocannon({
    url,
    headers,
    connections: opts.connections,
    duration: opts.duration,
    pipelining: 1,
  });
  const figures: LoadFigures = {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
  return figures;
}

/**
 * One request at a time for `duration` seconds, timed with performance.now(): latency with
 * sub-millisecond precision (autocannon rounds to whole milliseconds).
 */
async function sequential(
  url: string,
  headers: Record<string, string>,
  opts: { duration: number },
): Promise<LoadFigures> {
  const times: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const until = performance.now() + opts.duration * 1000;
  while (performance.now() < until) {
    const t = performance.now();
    try {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status >= 300) non2xx++;
    } catch {
      errors++;
    }
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Number((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(2));
  return {
    requestsPerSecond: times.length / opts.duration,
    p50: at(0.5),
    p99: at(0.99),
    requests: times.length,
    errors,
    non2xx,
  };
}

/** The run with the median requests per second. */
function median(runs: LoadFigures[]): LoadFigures {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (middle === undefined) throw new Error("no runs");
  return middle;
}

function acceptFor(c: QueryClass): Record<string, string> {
  return { Accept: c.format === "json" ? "application/json" : "application/xml" };
}

/** The same statements the worker runs, straight on the SQLite file: median ms per search. */
function rawSql(db: Database.Database, c: QueryClass): number {
  const params = parseSearchParams(c.resource, c.query);
  const first = c.resource === "venues" ? firstTrip(VENUES, params, "en") : firstTrip(CITIES, params, "en");
  if (first === null) return 0;
  const statements = first.statements.map((s) => ({ prepared: db.prepare(s.text), binds: s.binds }));
  const times: number[] = [];
  for (let i = 0; i < 60; i++) {
    const t = performance.now();
    for (const s of statements) s.prepared.all(...s.binds);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

function table(results: {
  date: string;
  machine: string;
  baseline: LoadFigures;
  baselineLatency: LoadFigures;
  baselineSameBody: LoadFigures;
  d1Floor: LoadFigures;
  hitBytes: number;
  hits: LoadFigures;
  hitsLatency: LoadFigures;
  classes: ClassFigures[];
  imports: { default: ImportFigures; million: ImportFigures };
  bundle: { kib: number; gzipKib: number };
}): string {
  const lines: string[] = [];
  const hitRatio = results.hits.requestsPerSecond / results.baseline.requestsPerSecond;
  const floor = results.d1Floor.p50;
  lines.push(
    `Measured ${results.date} on ${results.machine}, with \`npm run bench\` (1,000,000 venues, 199,568 cities).`,
  );
  lines.push("");
  lines.push(
    "| | req/s (32 connections, median of 3 × 5 s) | vs. empty worker | p50 ms (1 connection) | p99 ms (1 connection) |",
  );
  lines.push("|---|---:|---:|---:|---:|");
  lines.push(
    `| empty worker (baseline) | ${fmt(results.baseline.requestsPerSecond, 0)} | 1.00 | ${results.baselineLatency.p50} | ${results.baselineLatency.p99} |`,
  );
  const sameBody = results.baselineSameBody.requestsPerSecond;
  lines.push(
    `| empty worker answering ${results.hitBytes} bytes | ${fmt(sameBody, 0)} | ${fmt(sameBody / results.baseline.requestsPerSecond, 2)} | | |`,
  );
  lines.push(
    `| empty worker running \`SELECT 1\` on D1 (the floor of a miss) | | | ${results.d1Floor.p50} | ${results.d1Floor.p99} |`,
  );
  lines.push(
    `| cache hits (\`/1.0/search/cities?name=paris\`, ${results.hitBytes} bytes) | ${fmt(results.hits.requestsPerSecond, 0)} | ${fmt(hitRatio, 2)} (${fmt(results.hits.requestsPerSecond / sameBody, 2)} of the same-size answer) | ${results.hitsLatency.p50} | ${results.hitsLatency.p99} |`,
  );
  lines.push("");
  lines.push(
    "| Cache misses, one request at a time | p50 ms | p99 ms | rows_read | raw SQL ms | p50 ÷ raw SQL | (p50 − D1 floor p50) ÷ raw SQL |",
  );
  lines.push("|---|---:|---:|---:|---:|---:|---:|");
  for (const c of results.classes) {
    const ratio = (ms: number) => (c.rawSqlMs > 0 ? fmt(ms / c.rawSqlMs, 0) : "–");
    lines.push(
      `| ${c.label}: \`${c.url}\` | ${c.p50} | ${c.p99} | ${c.rowsRead} | ${fmt(c.rawSqlMs, 2)} | ${ratio(c.p50)} | ${ratio(Math.max(c.p50 - floor, 0))} |`,
    );
  }
  lines.push("");
  lines.push("| Import | time | peak RSS |");
  lines.push("|---|---:|---:|");
  for (const i of [results.imports.default, results.imports.million]) {
    lines.push(
      `| ${i.venues.toLocaleString("en-US")} venues + 199,568 cities | ${fmt(i.seconds)} s | ${i.peakMiB} MiB |`,
    );
  }
  lines.push("");
  lines.push(`Worker bundle: ${fmt(results.bundle.kib)} KiB, **${fmt(results.bundle.gzipKib)} KiB gzip**.`);
  return lines.join("\n");
}

async function main(): Promise<void> {
  const started = Date.now();
  mkdirSync(TMP, { recursive: true });

  log("importing the default data (250,000 venues) into a scratch file");
  rmSync(DEFAULT_DB, { force: true });
  const defaultImport = await timedImport(250_000, ["--database", DEFAULT_DB]);
  log(`  ${defaultImport.seconds} s, ${defaultImport.peakMiB} MiB`);
  log("importing 1,000,000 venues into the benchmark's local D1 (bench/tmp/state)");
  const millionImport = await timedImport(1_000_000, ["--persist-to", STATE]);
  log(`  ${millionImport.seconds} s, ${millionImport.peakMiB} MiB`);

  log("measuring the bundle");
  const bundle = await bundleSize();

  log("starting the servers");
  const emptyBase = (
    await startDevServer({
      port: 8791,
      args: ["--config", "bench/empty-wrangler.toml", "--persist-to", join(TMP, "empty-state")],
    })
  ).base;
  const probe = "/1.0/search/cities?name=paris";
  const noLimit = ["--var", "RATE_LIMIT:off"];
  const hitsBase = (await startDevServer({ port: 8792, args: ["--persist-to", STATE, ...noLimit], probe })).base;
  const missBase = (
    await startDevServer({ port: 8793, args: ["--persist-to", STATE, "--var", "EDGE_CACHE:off", ...noLimit], probe })
  ).base;

  try {
    const hitUrl = `${hitsBase}/1.0/search/cities?name=paris`;
    const json = { Accept: "application/json" };
    let hitBytes = 0;
    for (let i = 0; i < 50; i++) {
      const res = await fetch(hitUrl, { headers: json });
      hitBytes = (await res.arrayBuffer()).byteLength;
      if (res.headers.get("X-Cache") === "HIT") break;
    }
    const sameBodyUrl = `${emptyBase}/?bytes=${hitBytes}`;
    for (const [url, headers] of [
      [`${emptyBase}/`, {}],
      [sameBodyUrl, {}],
      [hitUrl, json],
    ] as const) {
      await load(url, headers, { connections: 8, duration: 2 }); // warm-up
    }
    // Interleaved rounds, medians: the three see the same machine weather.
    const rounds: { baseline: LoadFigures; sameBody: LoadFigures; hits: LoadFigures }[] = [];
    for (let round = 1; round <= THROUGHPUT_ROUNDS; round++) {
      log(
        `throughput round ${round} of ${THROUGHPUT_ROUNDS}: empty worker, empty worker with ${hitBytes} bytes, cache hits`,
      );
      rounds.push({
        baseline: await load(`${emptyBase}/`, {}, THROUGHPUT),
        sameBody: await load(sameBodyUrl, {}, THROUGHPUT),
        hits: await load(hitUrl, json, THROUGHPUT),
      });
    }
    const baseline = median(rounds.map((r) => r.baseline));
    const baselineSameBody = median(rounds.map((r) => r.sameBody));
    const hits = median(rounds.map((r) => r.hits));

    log("latency: empty worker, empty worker running SELECT 1 on D1, cache hits");
    const baselineLatency = await sequential(`${emptyBase}/`, {}, LATENCY);
    await sequential(`${emptyBase}/?d1=1`, {}, { duration: 1 });
    const d1Floor = await sequential(`${emptyBase}/?d1=1`, {}, LATENCY);
    const hitsLatency = await sequential(hitUrl, json, LATENCY);

    const db = new Database(localD1File(d1Database().id, STATE), { readonly: true, fileMustExist: true });
    const classes: ClassFigures[] = [];
    for (const c of QUERY_CLASSES) {
      const path = `/1.0/search/${c.resource}?${c.query}`;
      log(`misses: ${c.label} (${path}, ${c.format})`);
      const url = `${missBase}${path}`;
      const probeRes = await fetch(url, { headers: acceptFor(c) });
      await probeRes.arrayBuffer();
      const rowsRead = Number(/rows_read=(\d+)/.exec(probeRes.headers.get("Server-Timing") ?? "")?.[1] ?? NaN);
      await sequential(url, acceptFor(c), { duration: 1 }); // warm-up
      const figures = await sequential(url, acceptFor(c), LATENCY);
      classes.push({
        id: c.id,
        label: c.label,
        url: `${path}${c.format === "xml" ? " (XML)" : ""}`,
        status: probeRes.status,
        rowsRead,
        rawSqlMs: rawSql(db, c),
        ...figures,
      });
    }
    db.close();

    const cores = cpus();
    const results = {
      date: new Date().toISOString().slice(0, 10),
      machine: `${cores.length} cores (${cores[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
      settings: { throughput: { ...THROUGHPUT, rounds: THROUGHPUT_ROUNDS }, latency: LATENCY },
      baseline,
      baselineLatency,
      baselineSameBody,
      d1Floor,
      hitBytes,
      hits,
      hitsLatency,
      classes,
      imports: { default: defaultImport, million: millionImport },
      bundle,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    const text = table(results);
    console.log(`\n${text}\n`);
    for (const [target, ok] of targets(results)) console.log(`${ok ? "met   " : "MISSED"}  ${target}`);
    console.log(`\n(the run took ${results.seconds} s)`);

    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    const readme = readFileSync(README, "utf8");
    const start = "<!-- bench:start -->";
    const end = "<!-- bench:end -->";
    if (readme.includes(start) && readme.includes(end)) {
      writeFileSync(
        README,
        `${readme.slice(0, readme.indexOf(start) + start.length)}\n${text}\n${readme.slice(readme.indexOf(end))}`,
      );
      log("wrote the table into README.md and the figures into bench/results.json");
    }
  } finally {
    stopDevServers();
  }
}

function targets(r: {
  baseline: LoadFigures;
  baselineSameBody: LoadFigures;
  hits: LoadFigures;
  classes: ClassFigures[];
  imports: { default: ImportFigures };
  bundle: { gzipKib: number };
}): [string, boolean][] {
  const worstP99 = Math.max(...r.classes.map((c) => c.p99));
  const worstRatio = Math.max(...r.classes.map((c) => (c.rawSqlMs > 0 ? c.p50 / c.rawSqlMs : 0)));
  const failures = r.classes.filter((c) => c.errors > 0 || (c.non2xx > 0 && c.status === 200));
  return [
    [
      `cache-hit throughput ≥ 0.9 × empty worker (${(r.hits.requestsPerSecond / r.baseline.requestsPerSecond).toFixed(2)}; ` +
        `${(r.hits.requestsPerSecond / r.baselineSameBody.requestsPerSecond).toFixed(2)} of the empty worker answering as many bytes)`,
      r.hits.requestsPerSecond >= 0.9 * r.baseline.requestsPerSecond,
    ],
    [`cache-miss p99 ≤ 20 ms for every class (worst ${worstP99} ms)`, worstP99 <= 20],
    [`cache-miss p50 ≤ 3 × raw SQL for every class (worst ${worstRatio.toFixed(1)}×)`, worstRatio <= 3],
    [
      `default import ≤ 60 s (${r.imports.default.seconds} s) and peak RSS ≤ 1.5 GB (${r.imports.default.peakMiB} MiB)`,
      r.imports.default.seconds <= 60 && r.imports.default.peakMiB <= 1536,
    ],
    [`bundle ≤ 120 KiB gzip (${r.bundle.gzipKib.toFixed(1)} KiB)`, r.bundle.gzipKib <= 120],
    [`no errors under load (${failures.length} classes with errors)`, failures.length === 0],
  ];
}

main().catch((error: unknown) => {
  stopDevServers();
  console.error(error);
  process.exit(1);
});
