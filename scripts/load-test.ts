/**
 * npm run test:load — the worker under a bounded mixed load, on the full default data.
 *
 * Makes sure the local D1 database holds the current data (as `npm start` does), starts
 * `wrangler dev` on 127.0.0.1:8788 (rate limits off: all load comes from one client), then runs
 * 64 connections for 60 s of: repeated popular queries (cache hits), fresh queries built from
 * real city names and ids (misses), both endpoints, JSON and XML, and a few bad requests.
 * Every 2 s it reads the worker's own V8 heap after a garbage collection, through the inspector
 * protocol (the isolate where our code runs), and the resident memory of the workerd processes.
 * Fails on any connection error or timeout, any 5xx, or a worker heap that keeps growing. (The
 * workerd processes of `wrangler dev` grow under load with an empty worker too — measured — so
 * their RSS is reported, not judged.) Prints the figures, writes them to bench/load.json and into
 * README.md. Stops the server it started, also on failure.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import WebSocket from "ws";
import { startDevServer, stopDevServers } from "./lib/dev-server.ts";
import { Progress } from "./lib/progress.ts";
import { runImport } from "./lib/run-import.ts";
import { ROOT } from "./lib/project.ts";
import { d1Database, localD1File } from "./lib/wrangler.ts";

const PORT = 8788;
const CONNECTIONS = 64;
const DURATION_S = 60;
const SAMPLE_EVERY_MS = 2000;
/** The heap in the last quarter of the run may exceed the second quarter's by this much. */
const GROWTH_ALLOWED = 1.2;
const GROWTH_SLACK_MIB = 4;

process.on("SIGINT", () => {
  stopDevServers();
  process.exit(130);
});

function log(text: string): void {
  process.stderr.write(`[load ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
}

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

/** Query paths for the mix: popular ones (repeated: hits) and fresh ones (misses). */
function workload(dbPath: string): { popular: string[]; fresh: () => string } {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  const cities = db
    .prepare("SELECT id, name, country_code AS country FROM cities WHERE pos % 97 = 0 LIMIT 2000")
    .all() as { id: string; name: string; country: string }[];
  db.close();
  const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;
  const prefix = (name: string) => encodeURIComponent(name.slice(0, 2 + Math.floor(Math.random() * 5)));
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
    ]);
  };
  return { popular, fresh };
}

async function main(): Promise<void> {
  log("checking the local database (imports the default data if needed)");
  const summary = await runImport({ target: { kind: "local" } }, new Progress(process.stderr));
  log(`data version ${summary.dataVersion}: ${summary.counts.cities} cities, ${summary.counts.venues} venues`);

  const server = await startDevServer({
    port: PORT,
    args: ["--var", "RATE_LIMIT:off"],
    probe: "/1.0/search/cities?name=paris",
  });
  const base = server.base;

  const { popular, fresh } = workload(localD1File(d1Database().id));
  for (const path of popular) await (await fetch(`${base}${path}`)).arrayBuffer();

  const inspector = await Inspector.connect(PORT + 1000);
  const statuses = new Map<number, number>();
  const samples: { t: number; heapMiB: number; rssMiB: number }[] = [];
  const started = Date.now();
  let sampling = false;
  const sampler = setInterval(() => {
    if (sampling) return;
    sampling = true;
    const t = (Date.now() - started) / 1000;
    inspector
      .heapMiB()
      .then((heapMiB) => samples.push({ t, heapMiB, rssMiB: workerdRssKiB(server?.pid ?? 0) / 1024 }))
      .catch((error: unknown) => log(`heap sample failed: ${String(error)}`))
      .finally(() => (sampling = false));
  }, SAMPLE_EVERY_MS);

  log(`running ${CONNECTIONS} connections for ${DURATION_S} s`);
  let n = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: DURATION_S,
        requests: [
          {
            setupRequest: (request) => {
              n++;
              const path =
                n % 50 === 0 ? "/1.0/search/venues?p=0" : Math.random() < 0.5 ? popular[n % popular.length] : fresh();
              const accept = Math.random() < 0.5 ? "application/json" : "application/xml";
              return { ...request, path, headers: { ...request.headers, Accept: accept } };
            },
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on("response", (_client, statusCode) => statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1));
  });
  clearInterval(sampler);
  while (sampling) await new Promise((r) => setTimeout(r, 50));
  inspector.close();
  server.stop();

  const quarter = (q: number, of: "heapMiB" | "rssMiB") => {
    const part = samples
      .filter((s) => s.t >= (DURATION_S * q) / 4 && s.t < (DURATION_S * (q + 1)) / 4)
      .map((s) => s[of]);
    part.sort((a, b) => a - b);
    return part[Math.floor(part.length / 2)] ?? 0;
  };
  const second = quarter(1, "heapMiB");
  const last = quarter(3, "heapMiB");
  const fiveXX = [...statuses].filter(([s]) => s >= 500).reduce((a, [, c]) => a + c, 0);
  const figures = {
    date: new Date().toISOString().slice(0, 10),
    connections: CONNECTIONS,
    seconds: DURATION_S,
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
    errors: result.errors,
    timeouts: result.timeouts,
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
  };
  const failures: string[] = [];
  if (result.errors > 0 || result.timeouts > 0)
    failures.push(`${result.errors} errors and ${result.timeouts} timeouts`);
  if (fiveXX > 0) failures.push(`${fiveXX} responses with a 5xx status`);
  if (second === 0 || last > second * GROWTH_ALLOWED + GROWTH_SLACK_MIB) {
    failures.push(
      `the worker's heap grew from ${second.toFixed(1)} MiB to ${last.toFixed(1)} MiB (allowed ×${GROWTH_ALLOWED} + ${GROWTH_SLACK_MIB} MiB)`,
    );
  }

  const text = [
    `Measured ${figures.date} with \`npm run test:load\` (default data, ${CONNECTIONS} connections, ${DURATION_S} s, half repeated and half fresh queries, JSON and XML, both searches, 2 % bad requests):`,
    "",
    "| requests | req/s | p50 ms | p99 ms | statuses | errors + timeouts | worker heap after GC, 2nd → 4th quarter | workerd RSS, 2nd → 4th quarter |",
    "|---:|---:|---:|---:|---|---:|---|---|",
    `| ${figures.requests} | ${figures.requestsPerSecond} | ${figures.latencyMs.p50} | ${figures.latencyMs.p99} | ${Object.entries(
      figures.statuses,
    )
      .map(([s, c]) => `${s}: ${c}`)
      .join(
        ", ",
      )} | ${result.errors + result.timeouts} | ${figures.workerHeapMiB.secondQuarter} → ${figures.workerHeapMiB.lastQuarter} MiB | ${figures.workerdRssMiB.secondQuarter} → ${figures.workerdRssMiB.lastQuarter} MiB |`,
  ].join("\n");
  console.log(`\n${text}\n`);
  writeFileSync(join(ROOT, "bench", "load.json"), `${JSON.stringify(figures, null, 2)}\n`);
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const [start, end] = ["<!-- load:start -->", "<!-- load:end -->"];
  if (failures.length === 0 && readme.includes(start) && readme.includes(end)) {
    writeFileSync(
      join(ROOT, "README.md"),
      `${readme.slice(0, readme.indexOf(start) + start.length)}\n${text}\n${readme.slice(readme.indexOf(end))}`,
    );
  }
  if (failures.length > 0) {
    console.error(`load test FAILED:\n  ${failures.join("\n  ")}`);
    process.exit(1);
  }
  console.log("load test passed: no errors, no 5xx, the worker's heap steady");
}

main().catch((error: unknown) => {
  stopDevServers();
  console.error(error);
  process.exit(1);
});
