/**
 * `npm run bench -- --profile CLASS`: where a miss's time goes, as a CPU profile of the worker under
 * load (issue 63): the worker on the default data with every request a miss, its V8 profiler started
 * through `wrangler dev`'s inspector, 32 connections of the class for 5 s, and the functions that
 * took the most of the profile's time by themselves, with their files. The profile is written to
 * bench/tmp/<class>.cpuprofile (Chrome's DevTools open it).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";
import { DEFAULT_DATA_STATE, importDefaultDataState } from "../tools/default-data-state.ts";
import { startDevServer, stopDevServers } from "../tools/dev-server.ts";
import { log, THROUGHPUT, TMP } from "./common.ts";
import { load } from "./measure.ts";
import { QUERY_CLASSES, SUGGEST_CLASSES, type QueryClass } from "./query-classes.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A DevTools protocol session on the worker's inspector. */
async function inspector(port: number): Promise<(method: string, params?: object) => Promise<unknown>> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { webSocketDebuggerUrl: string }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (url === undefined) throw new Error("the worker's inspector lists no target");
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  const pending = new Map<number, (result: unknown) => void>();
  socket.on("message", (data: Buffer) => {
    const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  let next = 0;
  return (method, params = {}) =>
    new Promise((resolve) => {
      const id = ++next;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
}

/** Self time by function (ms), the largest first. */
function selfTimes(profile: Profile): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const times = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const name = `${frame?.functionName || "(anonymous)"} ${frame?.url.split("/").slice(-2).join("/") ?? ""}:${(frame?.lineNumber ?? 0) + 1}`;
    times.set(name, (times.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...times].sort((a, b) => b[1] - a[1]);
}

export async function benchProfile(id: string | undefined): Promise<void> {
  const c = [...QUERY_CLASSES, ...SUGGEST_CLASSES].find((q: QueryClass) => q.id === id);
  if (c === undefined) throw new Error(`--profile wants a query class id (scripts/bench/query-classes.ts), not ${id}`);
  try {
    await importDefaultDataState();
    // Not minified: the profile names the functions as the code does.
    const args = [
      "--persist-to",
      DEFAULT_DATA_STATE,
      "--var",
      "EDGE_CACHE:off",
      "--var",
      "RATE_LIMIT:off",
      "--minify=false",
    ];
    const probe = "/1.0/search/cities?name=paris";
    const base = (await startDevServer({ port: 8796, args, probe, pageFiles: false })).base;
    const send = await inspector(8796 + 1000);
    const path = `/1.0/${c.suggest === true ? "suggest" : "search"}/${c.resource}?${c.query}`;
    const accept = { Accept: c.format === "json" ? "application/json" : "application/xml" };
    await load(base, () => path, accept, { ...THROUGHPUT, duration: 2 }); // warm-up
    await send("Profiler.enable");
    await send("Profiler.start");
    const figures = await load(base, () => path, accept, THROUGHPUT);
    const { profile } = (await send("Profiler.stop")) as { profile: Profile };
    writeFileSync(join(TMP, `${c.id}.cpuprofile`), JSON.stringify(profile));
    const times = selfTimes(profile);
    const total = times.reduce((s, [, t]) => s + t, 0);
    log(`${c.label}: ${figures.requestsPerSecond.toFixed(0)} req/s; ${total.toFixed(0)} ms profiled`);
    for (const [name, t] of times.slice(0, 25))
      console.log(`${t.toFixed(1).padStart(8)} ms ${((100 * t) / total).toFixed(1).padStart(5)} %  ${name}`);
  } finally {
    stopDevServers();
  }
}
