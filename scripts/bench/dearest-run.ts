/**
 * `npm run bench -- --dearest`: the dearest valid requests (dearest.ts) at the default data (the
 * tests' local D1 state of it, imported when it is not current), at 1,000,000 venues (the
 * benchmark's own state, bench/tmp/state, imported when it is not current) and at the default
 * data's venues without points of their own, each served by a worker whose every request is a
 * miss; the tables into docs/benchmarks.md.
 */
import { join } from "node:path";
import { d1Database, localD1File } from "../import/wrangler.ts";
import { DEFAULT_DATA_STATE, importDefaultDataState } from "../tools/default-data-state.ts";
import { bin, IMPORT_COMMAND, run } from "../tools/project.ts";
import { stopDevServers } from "../tools/dev-server.ts";
import { log, machine, startMissWorker, timedImport, TMP } from "./common.ts";
import { dearestTable, measureDearest, vocabularyOf, writeDearestRequests } from "./dearest.ts";
import { writeDocSection } from "./docs-section.ts";
import { exportVenues } from "./refresh-run.ts";
import { hollowCopy, shardServer, shardState, stopShardState } from "./shards-serve-run.ts";

/** Requests drawn per endpoint. */
const PER_ENDPOINT = 750;

/** The dearest requests on one state: their table (and, for the default data, the load test's list of them). */
async function onState(label: string, state: string, port: number): Promise<string> {
  const base = await startMissWorker(port, state);
  log(`${label}: ${PER_ENDPOINT} requests of each endpoint and the widest ones`);
  const found = await measureDearest(base, vocabularyOf(localD1File(d1Database().id, state)), PER_ENDPOINT);
  for (const d of found) {
    log(
      `  ${d.endpoint}: ${d.failed} 5xx, ${d.over} over the bound, most rows ${d.byRows.rows}, most D1 time ${d.byTime.ms} ms`,
    );
  }
  if (state === DEFAULT_DATA_STATE) writeDearestRequests(label, found);
  return dearestTable(label, found);
}

/**
 * The default data's venues without points of their own, each at its city's, as setlist.fm's own
 * venue rows give them (bench/tmp/city-placed, imported when it is not current): an area reads
 * their point from their own row too (src/data-contract/venue-points.ts).
 */
async function cityPlacedState(): Promise<string> {
  const csv = join(TMP, "city-placed-venues.csv");
  const state = join(TMP, "city-placed");
  await exportVenues(localD1File(d1Database().id, DEFAULT_DATA_STATE), csv, { points: false });
  await run(bin("tsx"), [...IMPORT_COMMAND, "--persist-to", state, "--venues", csv, "-q"]);
  return state;
}

export async function benchDearest(): Promise<void> {
  const started = Date.now();
  try {
    log("the default data (the tests' state of it)");
    await importDefaultDataState();
    log("1,000,000 venues (bench/tmp/state)");
    const state = join(TMP, "state");
    await timedImport(1_000_000, ["--persist-to", state]);
    log("the default data's venues at their cities' points (bench/tmp/city-placed)");
    const cityPlaced = await cityPlacedState();
    const tables = [
      await onState("The default data (199,568 cities, 250,000 venues)", DEFAULT_DATA_STATE, 8794),
      await onState("1,000,000 venues", state, 8795),
      await onState(
        "The default data's venues without points of their own, each at its city's (as setlist.fm's rows)",
        cityPlaced,
        8796,
      ),
    ];
    const date = new Date().toISOString().slice(0, 10);
    const head = `Measured ${date} on ${machine()} with \`npm run bench -- --dearest\` (${Math.round((Date.now() - started) / 1000)} s).`;
    const text = [head, ...tables].join("\n\n");
    console.log(`\n${text}\n`);
    if (await writeDocSection("dearest", text)) log("wrote the tables into docs/benchmarks.md (dearest)");
  } finally {
    stopDevServers();
  }
}

/**
 * `npm run bench -- --dearest --count N`: the same drawn requests against the default data in the
 * main database and N venue databases (the state of `--shards-serve`), each venue search asking
 * the venue databases its filters touch: served as imported (the main database, which holds every
 * venue, answers what asks several), then from a copy whose main database holds no venue (what
 * asks several merged from them); rows read summed over the databases a request asks
 * (docs/deploy.md#past-one-database). Their tables into docs/deploy.md.
 */
export async function benchDearestSharded(shards: number): Promise<void> {
  const started = Date.now();
  try {
    const { state } = await shardState(shards);
    const vocabulary = vocabularyOf(localD1File(d1Database().id, state));
    const served = [
      { state, port: 8798, label: "as imported" },
      { state: hollowCopy(state), port: 8799, label: "a main database without venues (merged)" },
    ];
    const tables: string[] = [];
    for (const { state: at, port, label: how } of served) {
      const base = (await shardServer(at, port)).base;
      const label = `The default data in ${shards} venue databases, ${how}`;
      log(`${label}: ${PER_ENDPOINT} requests of each endpoint and the widest ones`);
      tables.push(dearestTable(label, await measureDearest(base, vocabulary, PER_ENDPOINT)));
    }
    const date = new Date().toISOString().slice(0, 10);
    const head = `Measured ${date} on ${machine()} with \`npm run bench -- --dearest --count ${shards}\` (${Math.round((Date.now() - started) / 1000)} s).`;
    const text = [head, ...tables].join("\n\n");
    console.log(`\n${text}\n`);
    const section = `dearest-shards-${shards}`;
    if (await writeDocSection(section, text, join("docs", "deploy.md")))
      log(`wrote the table into docs/deploy.md (${section})`);
  } finally {
    stopShardState();
  }
}
