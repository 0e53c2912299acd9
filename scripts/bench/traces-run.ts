/**
 * `npm run bench -- --traces`: what `wrangler dev`'s local observability (on by default since
 * wrangler 4.118, off in the project's servers: scripts/tools/project.ts QUIET_WRANGLER) costs a
 * miss. Four query classes at 32 connections for 5 s, best of 2, on the default data, with the
 * traces on and then off; and the bytes its trace store grew by, per request answered with them on
 * (docs/benchmarks.md "Wrangler dev's local traces").
 */
import { rmSync } from "node:fs";
import { DEFAULT_DATA_STATE, importDefaultDataState } from "../tools/default-data-state.ts";
import { startDevServer, stopDevServers } from "../tools/dev-server.ts";
import { directoryBytes, tracesDir } from "../tools/old-traces.ts";
import { log, machine, PROBE, report, THROUGHPUT } from "./common.ts";
import { load, type LoadFigures } from "./measure.ts";
import { classPath, QUERY_CLASSES, SUGGEST_CLASSES, type QueryClass } from "./query-classes.ts";

const CLASSES = ["city-name", "venue-city-id", "venue-near-london", "suggest-city-3"];
const ROUNDS = 2;
const TRACES = tracesDir(DEFAULT_DATA_STATE);

interface Run {
  figures: LoadFigures[];
  requests: number;
}

/** Each class's best round on a miss worker with the traces `on` or off; the trace store's growth per request. */
async function withTraces(on: boolean, classes: readonly QueryClass[]): Promise<Run & { bytes: number }> {
  rmSync(TRACES, { recursive: true, force: true });
  const args = ["--persist-to", DEFAULT_DATA_STATE, "--var", "EDGE_CACHE:off", "--var", "RATE_LIMIT:off"];
  const env = { ...process.env, X_LOCAL_OBSERVABILITY: String(on) };
  // A port each: the first server's may not be free yet when the second starts.
  const server = await startDevServer({ port: on ? 8796 : 8798, args, probe: PROBE, env });
  const figures: LoadFigures[] = [];
  let requests = 0;
  try {
    for (const c of classes) {
      const accept = { Accept: c.format === "json" ? "application/json" : "application/xml" };
      const rounds: LoadFigures[] = [];
      for (let round = 0; round < ROUNDS; round++)
        rounds.push(await load(server.base, () => classPath(c), accept, THROUGHPUT));
      requests += rounds.reduce((n, r) => n + r.requests, 0);
      figures.push(rounds.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a)));
    }
  } finally {
    server.stop();
  }
  const bytes = directoryBytes(TRACES);
  rmSync(TRACES, { recursive: true, force: true });
  return { figures, requests, bytes };
}

export async function benchTraces(): Promise<void> {
  try {
    log("the default data (the tests' state of it)");
    await importDefaultDataState();
    const classes = [...QUERY_CLASSES, ...SUGGEST_CLASSES].filter((c) => CLASSES.includes(c.id));
    log("traces on (wrangler's default)");
    const on = await withTraces(true, classes);
    log("traces off (the project's servers)");
    const off = await withTraces(false, classes);
    const rows = classes.map((c, i) => {
      const [a, b] = [on.figures[i], off.figures[i]];
      if (a === undefined || b === undefined) return "";
      return `| ${c.label} | ${a.requestsPerSecond.toFixed(0)} | ${b.requestsPerSecond.toFixed(0)} | ${(b.requestsPerSecond / a.requestsPerSecond).toFixed(2)} |`;
    });
    const perRequest = on.bytes / Math.max(1, on.requests);
    const text = [
      `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} on ${machine()} with \`npm run bench -- --traces\` (32 connections, 5 s, best of ${ROUNDS}; every request a miss).`,
      "",
      "| class | traces on: req/s | traces off: req/s | off ÷ on |",
      "| --- | ---: | ---: | ---: |",
      ...rows,
      "",
      `With the traces on, the trace store grew by ${(on.bytes / 2 ** 20).toFixed(0)} MiB over ${on.requests.toLocaleString("en-US")} requests: ${(perRequest / 1024).toFixed(1)} KiB a request. Off: ${off.bytes} bytes.`,
    ].join("\n");
    await report(text, [["no trace kept with the traces off", off.bytes === 0]], "traces");
  } finally {
    stopDevServers();
  }
}
