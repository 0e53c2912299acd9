/**
 * Measuring a running server: saturating load (autocannon) for requests per second, and one
 * request at a time (performance.now()) for latency without queueing.
 */
import autocannon from "autocannon";

export interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
}

/** `connections` at once for `duration` seconds, each request's path from `paths`. */
export async function load(
  base: string,
  paths: () => string,
  headers: Record<string, string>,
  opts: { connections: number; duration: number },
): Promise<LoadFigures> {
  const result = await autocannon({
    url: base,
    connections: opts.connections,
    duration: opts.duration,
    pipelining: 1,
    requests: [
      { setupRequest: (request) => ({ ...request, path: paths(), headers: { ...request.headers, ...headers } }) },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** One request at a time for `duration` seconds: latency with sub-millisecond precision. */
export async function sequential(url: string, headers: Record<string, string>, duration: number): Promise<LoadFigures> {
  const [figures] = await interleaved([url], headers, duration);
  if (figures === undefined) throw new Error("no figures");
  return figures;
}

/**
 * One request at a time for `duration` seconds, the URLs in turn: the latency of each, measured
 * in the same moments (on a shared machine, minutes apart is another machine).
 */
export async function interleaved(
  urls: readonly string[],
  headers: Record<string, string>,
  duration: number,
): Promise<LoadFigures[]> {
  const runs = urls.map(() => ({ times: [] as number[], errors: 0, non2xx: 0 }));
  const until = performance.now() + duration * 1000;
  for (let i = 0; performance.now() < until; i = (i + 1) % urls.length) {
    const run = runs[i];
    if (run === undefined) break;
    const t = performance.now();
    try {
      const res = await fetch(urls[i] ?? "", { headers });
      await res.arrayBuffer();
      if (res.status >= 300) run.non2xx++;
    } catch {
      run.errors++;
    }
    run.times.push(performance.now() - t);
  }
  return runs.map(({ times, errors, non2xx }) => {
    times.sort((a, b) => a - b);
    const at = (q: number) => Number((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(2));
    return {
      requestsPerSecond: times.length / duration,
      p50: at(0.5),
      p99: at(0.99),
      requests: times.length,
      errors,
      non2xx,
    };
  });
}

/** The run with the median requests per second. */
export function median(runs: readonly LoadFigures[]): LoadFigures {
  const sorted = [...runs].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond);
  const middle = sorted[Math.floor(sorted.length / 2)];
  if (middle === undefined) throw new Error("no runs");
  return middle;
}

/** D1's round trips for an answer, as the worker reports them in Server-Timing. */
export function roundTrips(res: Response): number {
  return Number(/round_trips=(\d+)/.exec(res.headers.get("Server-Timing") ?? "")?.[1] ?? NaN);
}

/** D1's rows_read of an answer, as the worker reports it in Server-Timing. */
export function rowsRead(res: Response): number {
  return Number(/rows_read=(\d+)/.exec(res.headers.get("Server-Timing") ?? "")?.[1] ?? NaN);
}
