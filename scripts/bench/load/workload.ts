/** The load test's requests: the query mix, the autocannon driver, a re-import beside it, and what fails a phase. */
import { spawn } from "node:child_process";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import type { ImportSummary } from "../../import/run.ts";
import { bin, ROOT } from "../../tools/project.ts";

/** Query paths for the mix: popular ones (repeated: hits), fresh ones (misses), and ones that always have results. */
export function workload(dbPath: string): { popular: string[]; fresh: () => string; answered: () => string } {
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

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
}

/**
 * Runs autocannon with paths from `next` until `until` settles (or for `seconds`), counting
 * statuses, as fast as the server answers or at `rate` requests a second in all. Every response
 * is read whole.
 */
export async function drive(
  base: string,
  connections: number,
  next: () => string,
  until: Promise<unknown> | number,
  rate?: number,
): Promise<LoadResult> {
  const statuses = new Map<number, number>();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections,
        ...(rate === undefined ? {} : { overallRate: rate }),
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

/** scripts/import.ts with these arguments, to completion: its duration, longest write transaction and phases. */
export function reimport(
  args: string[],
): Promise<{ seconds: number; longestWriteMs: number; phases: ImportSummary["phases"] }> {
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
      resolve({
        seconds: (Date.now() - started) / 1000,
        longestWriteMs: summary.longestWrite?.ms ?? 0,
        phases: summary.phases,
      });
    });
  });
}

/** The failures of a phase: connection errors, timeouts, 5xx and 429 answers. */
export function failuresOf(phase: string, r: LoadResult): string[] {
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

export const statusText = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .map(([s, c]) => `${s}: ${c}`)
    .join(", ");
