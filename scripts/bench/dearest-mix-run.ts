/**
 * `npm run bench -- --dearest-mix`: the load test's dearest-requests mix alone
 * (bench/load/dearest-mix.ts) on the tests' state of the default data (imported when it is not
 * current), served by a worker whose every request is a miss; three runs in a row, each printed.
 * The mix measures the machine too: compare two versions in turn, as docs/benchmarks.md does.
 */
import { importDefaultDataState, DEFAULT_DATA_STATE } from "../tools/default-data-state.ts";
import { stopDevServers } from "../tools/dev-server.ts";
import { log, startMissWorker } from "./common.ts";
import { dearestMix } from "./load/dearest-mix.ts";

const RUNS = 3;
const SECONDS = 15;

export async function benchDearestMix(): Promise<void> {
  try {
    await importDefaultDataState();
    const base = await startMissWorker(8796, DEFAULT_DATA_STATE);
    for (let run = 1; run <= RUNS; run++) {
      const { alone, firstRound, beside, dearest } = await dearestMix(base, SECONDS);
      log(
        `run ${run}: ordinary misses' p99 alone ${alone.p99} ms, beside the dearest client's first round ` +
          `${firstRound.p99} ms (${(firstRound.p99 / alone.p99).toFixed(2)} ×), beside it going on ${beside.p99} ms: ` +
          `${(beside.p99 / alone.p99).toFixed(2)} × (p50 ${alone.p50} → ${beside.p50} ms); ` +
          `the dearest client's p50 ${dearest.p50} ms, p99 ${dearest.p99} ms; 5xx ${alone.failed + firstRound.failed + beside.failed + dearest.failed}`,
      );
    }
  } finally {
    stopDevServers();
  }
}
