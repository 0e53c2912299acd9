/**
 * The dearest valid requests (docs/benchmarks.md#what-one-request-may-cost): the widest request of
 * each class (valid-requests.ts WIDEST) and requests drawn over every parameter from the served
 * data's own vocabulary, sent one at a time to a worker whose every request is a miss. Per
 * endpoint: the request that read the most rows and the one that took the most D1 time, how many
 * read more than MAX_ROWS_READ and how many were answered 5xx. `npm run bench` runs it at
 * 1,000,000 venues, `npm run bench -- --dearest` at the default data and at 1,000,000 venues.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import {
  ENDPOINTS,
  MAX_ROWS_READ,
  pathOf,
  validRequests,
  WIDEST,
  type Endpoint,
  type Vocabulary,
} from "./valid-requests.ts";
import { ROOT } from "../tools/project.ts";

/** One request as answered: its path, status, D1's rows_read and D1 time. */
interface Sent {
  path: string;
  status: number;
  rows: number;
  ms: number;
}

export interface Dearest {
  endpoint: Endpoint;
  sent: number;
  /** Read more than MAX_ROWS_READ rows. */
  over: number;
  /** Answered 5xx. */
  failed: number;
  byRows: Sent;
  byTime: Sent;
  /** Its answered requests (200) that took the most D1 time, the most first (at most TOP_DEAREST). */
  slowest: Sent[];
}

/** How many of the dearest answered requests the load test's dearest client sends (load/dearest-mix.ts). */
export const TOP_DEAREST = 20;

/** The words and places of a served SQLite file, for drawing requests (valid-requests.ts). */
export function vocabularyOf(file: string): Vocabulary {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const column = (query: string) => (db.prepare(query).pluck().all() as unknown[]).map(String);
    return {
      words: column("SELECT word FROM words WHERE venues + cities > 0 ORDER BY venues + cities DESC LIMIT 3000"),
      cities: column("SELECT name FROM cities ORDER BY pos LIMIT 500"),
      countries: [...column("SELECT code FROM countries"), ...column("SELECT name FROM countries LIMIT 60")],
      states: column("SELECT name FROM admin1 LIMIT 300"),
      stateCodes: column("SELECT DISTINCT admin1_code FROM cities WHERE admin1_code IS NOT NULL LIMIT 100"),
      cityIds: column("SELECT id FROM cities ORDER BY pos LIMIT 300"),
    };
  } finally {
    db.close();
  }
}

async function send(base: string, path: string): Promise<Sent> {
  const res = await fetch(`${base}${path}`, { headers: { Accept: "application/json" } });
  await res.arrayBuffer();
  const timing = res.headers.get("Server-Timing") ?? "";
  const rows = Number(/rows_read=(\d+)/.exec(timing)?.[1] ?? 0);
  const ms = Number(/dur=([\d.]+)/.exec(timing)?.[1] ?? 0);
  return { path, status: res.status, rows, ms };
}

/** `perEndpoint` drawn requests of each endpoint and the widest ones, sent to `base` (a worker without its cache). */
export async function measureDearest(base: string, v: Vocabulary, perEndpoint: number, seed = 54): Promise<Dearest[]> {
  const out: Dearest[] = [];
  for (const endpoint of ENDPOINTS) {
    const drawn = fc.sample(validRequests(v, endpoint), { numRuns: perEndpoint, seed }).map(pathOf);
    const widest = WIDEST.filter((path) => path.startsWith(`/1.0/${endpoint}?`));
    const sent: Sent[] = [];
    for (const path of [...widest, ...drawn]) sent.push(await send(base, path));
    const first = sent[0] ?? { path: "", status: 0, rows: 0, ms: 0 };
    out.push({
      endpoint,
      sent: sent.length,
      over: sent.filter((s) => s.rows > MAX_ROWS_READ).length,
      failed: sent.filter((s) => s.status >= 500).length,
      byRows: sent.reduce((a, b) => (b.rows > a.rows ? b : a), first),
      byTime: sent.reduce((a, b) => (b.ms > a.ms ? b : a), first),
      slowest: slowestAnswered(sent),
    });
  }
  return out;
}

/** The answered requests that took the most D1 time, each path once, the most first. */
function slowestAnswered(sent: readonly Sent[]): Sent[] {
  const byPath = new Map(sent.filter((s) => s.status === 200).map((s) => [s.path, s]));
  return [...byPath.values()].sort((a, b) => b.ms - a.ms).slice(0, TOP_DEAREST);
}

/** The TOP_DEAREST answered requests of every endpoint that took the most D1 time, the most first. */
const dearestAnswered = (list: readonly Dearest[]): Sent[] => slowestAnswered(list.flatMap((d) => d.slowest));

/** The table of docs/benchmarks.md: per endpoint, the dearest request by rows and by D1 time. */
export function dearestTable(label: string, list: readonly Dearest[]): string {
  const rows = list.flatMap((d) => [
    `| ${d.endpoint} | ${d.sent} | ${d.failed} | ${d.over} | most rows | \`${d.byRows.path}\` | ${d.byRows.status} | ${d.byRows.rows} | ${d.byRows.ms} |`,
    `| | | | | most D1 time | \`${d.byTime.path}\` | ${d.byTime.status} | ${d.byTime.rows} | ${d.byTime.ms} |`,
  ]);
  return [
    `${label}:`,
    "",
    `| endpoint | requests | 5xx | over ${MAX_ROWS_READ.toLocaleString("en-US")} rows | dearest by | request | status | rows_read | D1 ms |`,
    "| --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: |",
    ...rows,
  ].join("\n");
}

/** Where `--dearest` keeps the dearest answered requests of the default data, for the load test. */
const DEAREST_FILE = join(ROOT, "bench", "dearest.json");

interface DearestFile {
  date: string;
  /** The data they were found on. */
  data: string;
  requests: Sent[];
}

export function writeDearestRequests(data: string, list: readonly Dearest[]): void {
  const file: DearestFile = { date: new Date().toISOString().slice(0, 10), data, requests: dearestAnswered(list) };
  writeFileSync(DEAREST_FILE, `${JSON.stringify(file, null, 2)}\n`);
}

/** The paths of the dearest answered requests the last `npm run bench -- --dearest` found. */
export function dearestRequests(): { paths: string[]; found: string } {
  if (!existsSync(DEAREST_FILE)) throw new Error(`${DEAREST_FILE} is missing: run npm run bench -- --dearest`);
  const file = JSON.parse(readFileSync(DEAREST_FILE, "utf8")) as DearestFile;
  return { paths: file.requests.map((r) => r.path), found: `${file.data}, ${file.date}` };
}
