/**
 * The load test's dearest-requests mix (docs/benchmarks.md#what-one-request-may-cost): ordinary
 * misses one at a time, alone and then while one client sends the dearest valid requests at the
 * rate limit's pace (300 a minute: 5 a second), against a worker whose every request is a miss.
 * A public endpoint must stay usable for everyone while one client sends what costs it most: the
 * ordinary misses' p99 with it, against their p99 without it (target: at most 2 ×).
 */
import { dearestRequests } from "../dearest.ts";

/** Ordinary misses, in turn: a common word, a city, a city's venues by id, a state, a suggestion, two words. */
const ORDINARY = [
  "/1.0/search/venues?name=club",
  "/1.0/search/cities?name=paris",
  "/1.0/search/venues?cityId=2950159",
  "/1.0/search/venues?state=California",
  "/1.0/suggest/cities?name=ber",
  "/1.0/search/venues?name=blue%20room",
];

/** The dearest client's pace: the default rate limit, 300 requests a minute. */
export const DEAREST_PER_SECOND = 5;

export interface Latency {
  requests: number;
  p50: number;
  p99: number;
  failed: number;
}

const quantile = (sorted: readonly number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** `paths` in turn, one at a time, until `stop` says so: their latency, and the answers that were 5xx. */
async function oneAtATime(base: string, paths: readonly string[], stop: () => boolean): Promise<Latency> {
  const times: number[] = [];
  let failed = 0;
  for (let i = 0; !stop(); i++) {
    const t = performance.now();
    const res = await fetch(`${base}${paths[i % paths.length] ?? "/"}`, { headers: { Accept: "application/json" } });
    await res.arrayBuffer();
    times.push(performance.now() - t);
    if (res.status >= 500) failed++;
  }
  times.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return { requests: times.length, p50: round(quantile(times, 0.5)), p99: round(quantile(times, 0.99)), failed };
}

/** `dearest` at DEAREST_PER_SECOND until `stop`, in turn, each sent on its own tick. */
async function dearestClient(base: string, dearest: readonly string[], stop: () => boolean): Promise<Latency> {
  const times: number[] = [];
  let failed = 0;
  const pending: Promise<void>[] = [];
  for (let i = 0; !stop(); i++) {
    const path = dearest[i % dearest.length] ?? "/";
    pending.push(
      (async () => {
        const t = performance.now();
        const res = await fetch(`${base}${path}`, { headers: { Accept: "application/json" } });
        await res.arrayBuffer();
        times.push(performance.now() - t);
        if (res.status >= 500) failed++;
      })(),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000 / DEAREST_PER_SECOND));
  }
  await Promise.all(pending);
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    p50: Math.round(quantile(times, 0.5)),
    p99: Math.round(quantile(times, 0.99)),
    failed,
  };
}

const forSeconds = (seconds: number) => {
  const until = performance.now() + seconds * 1000;
  return () => performance.now() >= until;
};

/**
 * The ordinary misses alone, `seconds`; then beside the dearest client's first round of its list
 * (each request once: their statements compiled, their long words read, src/match/long-word-book.ts);
 * then beside the dearest client going on, `seconds` — a client that sends at the rate limit goes on
 * past its first round, and that is what the target is checked on. The dearest client sends the
 * dearest answered requests that `npm run bench -- --dearest` found on the default data.
 */
export async function dearestMix(
  base: string,
  seconds: number,
): Promise<{ alone: Latency; firstRound: Latency; beside: Latency; dearest: Latency; found: string }> {
  const { paths, found } = dearestRequests();
  await oneAtATime(base, ORDINARY, forSeconds(2)); // warm-up
  const alone = await oneAtATime(base, ORDINARY, forSeconds(seconds));
  let sent = 0;
  let firstDone = false;
  const dearestFirst = dearestClient(base, paths, () => sent++ >= paths.length).finally(() => {
    firstDone = true;
  });
  const [firstRound] = await Promise.all([oneAtATime(base, ORDINARY, () => firstDone), dearestFirst]);
  const stop = forSeconds(seconds);
  const [beside, dearest] = await Promise.all([oneAtATime(base, ORDINARY, stop), dearestClient(base, paths, stop)]);
  return { alone, firstRound, beside, dearest, found };
}
