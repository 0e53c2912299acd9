/**
 * npm run test:load — the worker under a bounded mixed load, on the full default data, then while
 * the data is imported again.
 *
 * Makes sure the local D1 database holds the current data (as `npm start` does) and starts
 * `wrangler dev` on 127.0.0.1:8788 exactly as `npm start` does: no RATE_LIMIT var, so the default
 * applies (this machine's clients are not rate limited) — thousands of requests a minute from one
 * address must never see a 429.
 *
 * 1. Steady: 64 connections for 60 s of repeated popular queries (cache hits), fresh queries built
 *    from real city names and ids (misses), typos and points, both endpoints, JSON and XML, and a
 *    few bad requests. Every 2 s it reads the worker's own V8 heap after a garbage collection,
 *    through the inspector protocol, and the resident memory of the workerd processes.
 * 2. Re-import: 16 connections of searches that all have results while `scripts/import.ts` replaces
 *    the served data (another venue seed, so every table and the data version change). Every
 *    request must be answered: the import writes in short transactions and the worker retries the
 *    moments the database is locked. Then, with the server stopped, the default data is put back
 *    in long transactions (as `npm start` would), so the run leaves `npm start`'s data as it found it.
 *
 * Fails on any connection error or timeout, any 5xx, any 429, or a worker heap that keeps growing.
 * (The workerd processes of `wrangler dev` grow under load with an empty worker too — measured —
 * so their RSS is reported, not judged.) Prints the figures, writes them to bench/load.json and into
 * README.md. Stops the server it started, also on failure.
 */
import "./node-version.ts";
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import WebSocket from "ws";
import { writeReadmeSection } from "./bench/readme.ts";
import { logger, startDevServer, stopDevServers } from "./tools/dev-server.ts";
import { Progress } from "./import/progress.ts";
import { FAST, runImport, type ImportSummary } from "./import/run.ts";
import { bin, ROOT } from "./tools/project.ts";
import { d1Database, localD1File } from "./import/wrangler.ts";

const PORT = 8788;
const CONNECTIONS = 64;
const DURATION_S = 60;
/** Connections during a re-import, and the venue seed of the other data set. */
const REIMPORT_CONNECTIONS = 16;
const OTHER_SEED = "load test";
const SAMPLE_EVERY_MS = 2000;
/** The heap in the last quarter of the run may exceed the second quarter's by this much. */
const GROWTH_ALLOWED = 1.2;
const GROWTH_SLACK_MIB = 4;

const log = logger("load");

/** Resident memory (KiB) of all workerd processes descending from `root`. */
function workerdRssKiB(root: number): number {
  const parent = new Map<number, number>();
  const name = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      name.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
      parent.set(Number(entry), Number(stat.slice(close + 2).split(" ")[1]));
    } catch {
      // exited meanwhile
    }
  }
  const descends = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parent.get(p) ?? 0, hops++) if (p === root) return true;
    return false;
  };
  let total = 0;
  for (const [pid, comm] of name) {
    if (comm !== "workerd" || !descends(pid)) continue;
    try {
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      total += Number(rss ?? 0);
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

/** The worker isolate's V8 heap, through the inspector protocol that `wrangler dev` serves. */
class Inspector {
  private nextId = 0;
  private constructor(private readonly socket: WebSocket) {}

  static async connect(port: number): Promise<Inspector> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    await new Promise((resolve, reject) => {
      socket.once("open", resolve);
      socket.once("error", reject);
    });
    return new Inspector(socket);
  }

  private send(method: string): Promise<Record<string, unknown>> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`inspector: no answer to ${method}`)), 10_000);
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(data.toString()) as { id?: number; result?: Record<string, unknown> };
        if (message.id !== id) return;
        clearTimeout(timer);
        this.socket.off("message", onMessage);
        resolve(message.result ?? {});
      };
      this.socket.on("message", onMessage);
      this.socket.send(JSON.stringify({ id, method }));
    });
  }

  /** MiB in use after a garbage collection: the JS heap plus the array buffers outside it. */
  async heapMiB(): Promise<number> {
    await this.send("HeapProfiler.collectGarbage");
    const usage = await this.send("Runtime.getHeapUsage");
    const bytes = ["usedSize", "embedderHeapUsedSize", "backingStorageSize"].reduce(
      (n, k) => n + Number(usage[k] ?? 0),
      0,
    );
    return bytes / 2 ** 20;
  }

  close(): void {
    this.socket.close();
  }
}

/** Query paths for the mix: popular ones (repeated: hits), fresh ones (misses), and ones that always have results. */
function workload(dbPath: string): { popular: string[]; fresh: () => string; answered: () => string } {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  // Cities with venues: the same cities have venues whatever the generator's seed (counts follow population).
  const cities = db
    .prepare(
      "SELECT id, name, country_code AS country, lat, lng FROM cities WHERE pos % 97 = 0 AND venue_count > 0 LIMIT 2000",
    )
    .all() as { id: string; name: string; country: string; lat: number; lng: number }[];
  db.close();
  const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;
  const prefix = (name: string) => encodeURIComponent(name.slice(0, 2 + Math.floor(Math.random() * 5)));
  /** The name with two neighbouring letters swapped, inside the first word (a typo). */
  const typo = (name: string) => {
    const i = 1 + Math.floor(Math.random() * Math.max(1, Math.min(name.length, 8) - 3));
    return encodeURIComponent(name.slice(0, i) + (name[i + 1] ?? "") + (name[i] ?? "") + name.slice(i + 2));
  };
  const popular = [
    "/1.0/search/cities?name=paris",
    "/1.0/search/cities?name=london",
    "/1.0/search/cities?name=berlin",
    "/1.0/search/cities?name=new%20york",
    "/1.0/search/venues?name=club",
    "/1.0/search/venues?name=arena",
    "/1.0/search/venues?country=US",
    "/1.0/search/venues?cityName=london&country=GB",
    "/1.0/search/venues?state=California",
    "/1.0/search/cities?country=DE&p=2",
    "/1.0/search/cities?name=berln",
    "/1.0/search/venues?lat=51.5074&long=-0.1278&radius=10",
    ...cities.slice(0, 30).map((c) => `/1.0/search/venues?cityId=${c.id}`),
  ];
  const fresh = () => {
    const c = pick(cities);
    const page = 1 + Math.floor(Math.random() * 3);
    return pick([
      `/1.0/search/cities?name=${prefix(c.name)}&p=${page}`,
      `/1.0/search/cities?name=${prefix(c.name)}&country=${c.country}`,
      `/1.0/search/venues?name=${prefix(c.name)}&p=${page}`,
      `/1.0/search/venues?cityId=${c.id}&p=${page}`,
      `/1.0/search/venues?cityName=${encodeURIComponent(c.name)}`,
      `/rest/1.0/search/venues?country=${c.country}&p=${1 + Math.floor(Math.random() * 50)}`,
      `/1.0/search/cities?name=${typo(c.name)}`,
      `/1.0/search/venues?lat=${c.lat}&long=${c.lng}&radius=${pick([5, 25, 100])}`,
    ]);
  };
  const answered = () => {
    const c = pick(cities);
    return pick([
      `/1.0/search/cities?name=${encodeURIComponent(c.name)}`,
      `/1.0/search/cities?lat=${c.lat}&long=${c.lng}&radius=10`,
      `/1.0/search/venues?cityId=${c.id}`,
      `/1.0/search/venues?country=${c.country}`,
      `/1.0/search/venues?lat=${c.lat}&long=${c.lng}&radius=5`,
      `/1.0/city/${c.id}`,
    ]);
  };
  return { popular, fresh, answered };
}

interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
}

/**
 * Runs autocannon with paths from `next` until `until` settles (or for `seconds`), counting
 * statuses. Every response is read whole.
 */
async function drive(
  base: string,
  connections: number,
  next: () => string,
  until: Promise<unknown> | number,
): Promise<LoadResult> {
  const statuses = new Map<number, number>();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections,
        duration: typeof until === "number" ? until : 3600,
        requests: [
          {
            setupRequest: (request) => {
              const accept = Math.random() < 0.5 ? "application/json" : "application/xml";
              return { ...request, path: next(), headers: { ...request.headers, Accept: accept } };
            },
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on("response", (_client, statusCode) => statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1));
    if (typeof until !== "number") void until.finally(() => instance.stop());
  });
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** scripts/import.ts with these arguments, to completion: its duration and longest write transaction. */
function reimport(args: string[]): Promise<{ seconds: number; longestWriteMs: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(bin("tsx"), ["scripts/import.ts", "--force", "--json", "-q", ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    child.on("exit", (code) => {
      const json = output.split("\n").find((line) => line.startsWith("{"));
      if (code !== 0 || json === undefined) {
        reject(new Error(`the import failed (exit ${code}):\n${output}`));
        return;
      }
      const summary = JSON.parse(json) as ImportSummary;
      resolve({ seconds: (Date.now() - started) / 1000, longestWriteMs: summary.longestWrite?.ms ?? 0 });
    });
  });
}

/** The failures of a phase: connection errors, timeouts, 5xx and 429 answers. */
function failuresOf(phase: string, r: LoadResult): string[] {
  const failures: string[] = [];
  if (r.errors > 0 || r.timeouts > 0) failures.push(`${phase}: ${r.errors} errors and ${r.timeouts} timeouts`);
  const count = (test: (s: number) => boolean) =>
    Object.entries(r.statuses)
      .filter(([s]) => test(Number(s)))
      .reduce((a, [, c]) => a + c, 0);
  if (count((s) => s >= 500) > 0) failures.push(`${phase}: ${count((s) => s >= 500)} responses with a 5xx status`);
  if (count((s) => s === 429) > 0)
    failures.push(`${phase}: ${count((s) => s === 429)} responses were rate limited (429)`);
  return failures;
}

const statusText = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([s, c]) => `${s}: ${c}`)
    .join(", ");

async function main(): Promise<void> {
  log("checking the local database (imports the default data if needed)");
  // Nothing serves the database yet: as npm start, published without pauses.
  const summary = await runImport({ target: { kind: "local" }, pacing: FAST }, new Progress(process.stderr));
  log(`data version ${summary.dataVersion}: ${summary.counts.cities} cities, ${summary.counts.venues} venues`);

  // As npm start runs it: no RATE_LIMIT var.
  const server = await startDevServer({ port: PORT, probe: "/1.0/search/cities?name=paris" });
  const base = server.base;
  const { popular, fresh, answered } = workload(localD1File(d1Database().id));
  for (const path of popular) await (await fetch(`${base}${path}`)).arrayBuffer();

  const inspector = await Inspector.connect(PORT + 1000);
  const samples: { t: number; heapMiB: number; rssMiB: number }[] = [];
  const started = Date.now();
  let sampling = false;
  const sampler = setInterval(() => {
    if (sampling) return;
    sampling = true;
    const t = (Date.now() - started) / 1000;
    inspector
      .heapMiB()
      .then((heapMiB) => samples.push({ t, heapMiB, rssMiB: workerdRssKiB(server.pid) / 1024 }))
      .catch((error: unknown) => log(`heap sample failed: ${String(error)}`))
      .finally(() => (sampling = false));
  }, SAMPLE_EVERY_MS);

  log(`steady: ${CONNECTIONS} connections for ${DURATION_S} s`);
  let n = 0;
  const steady = await drive(
    base,
    CONNECTIONS,
    () =>
      ++n % 50 === 0 ? "/1.0/search/venues?p=0" : Math.random() < 0.5 ? (popular[n % popular.length] ?? "/") : fresh(),
    DURATION_S,
  );
  clearInterval(sampler);
  while (sampling) await new Promise((r) => setTimeout(r, 50));
  inspector.close();

  let serverOutput: string;
  const reimports: (LoadResult & { what: string; importSeconds: number; longestWriteMs: number })[] = [];
  try {
    const what = `another data set (venue seed "${OTHER_SEED}")`;
    log(`re-import under load: ${what}, ${REIMPORT_CONNECTIONS} connections of searches that all have results`);
    const importing = reimport(["--seed", OTHER_SEED]);
    const load = await drive(
      base,
      REIMPORT_CONNECTIONS,
      answered,
      importing.catch(() => undefined),
    );
    const imported = await importing;
    reimports.push({ ...load, what, importSeconds: imported.seconds, longestWriteMs: imported.longestWriteMs });
  } finally {
    serverOutput = server.output();
    server.stop();
  }
  log("putting the default data back (the server is stopped: long transactions)");
  await runImport({ target: { kind: "local" }, pacing: FAST }, new Progress(process.stderr));

  const quarter = (q: number, of: "heapMiB" | "rssMiB") => {
    const part = samples
      .filter((s) => s.t >= (DURATION_S * q) / 4 && s.t < (DURATION_S * (q + 1)) / 4)
      .map((s) => s[of]);
    part.sort((a, b) => a - b);
    return part[Math.floor(part.length / 2)] ?? 0;
  };
  const second = quarter(1, "heapMiB");
  const last = quarter(3, "heapMiB");
  const figures = {
    date: new Date().toISOString().slice(0, 10),
    connections: CONNECTIONS,
    seconds: DURATION_S,
    ...steady,
    workerHeapMiB: {
      secondQuarter: Number(second.toFixed(1)),
      lastQuarter: Number(last.toFixed(1)),
      samples: samples.map((s) => Number(s.heapMiB.toFixed(1))),
    },
    workerdRssMiB: {
      secondQuarter: Math.round(quarter(1, "rssMiB")),
      lastQuarter: Math.round(quarter(3, "rssMiB")),
      samples: samples.map((s) => Math.round(s.rssMiB)),
    },
    reimports,
  };
  const failures = [
    ...failuresOf("steady load", steady),
    ...reimports.flatMap((r) => failuresOf(`re-import of ${r.what}`, r)),
  ];
  if (second === 0 || last > second * GROWTH_ALLOWED + GROWTH_SLACK_MIB) {
    failures.push(
      `the worker's heap grew from ${second.toFixed(1)} MiB to ${last.toFixed(1)} MiB (allowed ×${GROWTH_ALLOWED} + ${GROWTH_SLACK_MIB} MiB)`,
    );
  }

  const text = [
    `Measured ${figures.date} with \`npm run test:load\` (default data; \`wrangler dev\` as \`npm start\` runs it, no rate-limit setting):`,
    "",
    `Steady: ${CONNECTIONS} connections, ${DURATION_S} s, half repeated and half fresh queries (typos and points among them), JSON and XML, both searches, 2 % bad requests.`,
    "",
    "| requests | req/s | p50 ms | p99 ms | statuses | errors + timeouts | worker heap after GC, 2nd → 4th quarter | workerd RSS, 2nd → 4th quarter |",
    "|---:|---:|---:|---:|---|---:|---|---|",
    `| ${steady.requests} | ${steady.requestsPerSecond} | ${steady.latencyMs.p50} | ${steady.latencyMs.p99} | ${statusText(steady.statuses)} | ${steady.errors + steady.timeouts} | ${figures.workerHeapMiB.secondQuarter} → ${figures.workerHeapMiB.lastQuarter} MiB | ${figures.workerdRssMiB.secondQuarter} → ${figures.workerdRssMiB.lastQuarter} MiB |`,
    "",
    `A re-import under load: ${REIMPORT_CONNECTIONS} connections of searches that all have results (cities by name and near a point, venues by city, country and point, city lookups) while \`scripts/import.ts --force\` replaces the served data.`,
    "",
    "| re-import | import took | longest write transaction | requests | req/s | p50 ms | p99 ms | max ms | statuses | errors + timeouts |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|",
    ...reimports.map(
      (r) =>
        `| ${r.what} | ${r.importSeconds.toFixed(0)} s | ${r.longestWriteMs.toFixed(0)} ms | ${r.requests} | ${r.requestsPerSecond} | ${r.latencyMs.p50} | ${r.latencyMs.p99} | ${r.latencyMs.max} | ${statusText(r.statuses)} | ${r.errors + r.timeouts} |`,
    ),
  ].join("\n");
  console.log(`\n${text}\n`);
  writeFileSync(join(ROOT, "bench", "load.json"), `${JSON.stringify(figures, null, 2)}\n`);
  if (failures.length === 0) await writeReadmeSection("load", text);
  if (failures.length > 0) {
    const logged = serverOutput
      .split("\n")
      .filter((line) => /D1:|error/i.test(line))
      .slice(-40);
    if (logged.length > 0)
      console.error(`the worker logged (last ${logged.length} error lines):\n${logged.join("\n")}`);
    console.error(`load test FAILED:\n  ${failures.join("\n  ")}`);
    process.exit(1);
  }
  console.log(
    "load test passed: every request answered (no 5xx, no 429, no dropped connection), the worker's heap steady",
  );
}

main().catch((error: unknown) => {
  stopDevServers();
  console.error(error);
  process.exit(1);
});
