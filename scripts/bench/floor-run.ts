/**
 * `npm run bench -- --floor`: what a miss costs beside its own statements (issue 63). Per query
 * class, the worker with every request a miss against a bare worker (bench/floor-worker.ts) that
 * replays that class's own statements — the worker's, as `npm run sql` explains them — in one D1
 * session batch and returns the rows as JSON; both `wrangler dev` on the default data, at 32
 * connections for 5 s, in turn, best of 2 each. The ratio of their requests a second is how close
 * the worker is to its floor; their geometric mean the whole (docs/benchmarks.md "The floor").
 */
import Database from "better-sqlite3";
import { d1Database, localD1File } from "../import/wrangler.ts";
import { anonymous } from "../../src/sql/sql.ts";
import { DEFAULT_DATA_STATE, importDefaultDataState } from "../tools/default-data-state.ts";
import { startDevServer, stopDevServers } from "../tools/dev-server.ts";
import { log, machine, report, startMissWorker, THROUGHPUT } from "./common.ts";
import { load, type LoadFigures } from "./measure.ts";
import { classPath, QUERY_CLASSES, SUGGEST_CLASSES, type QueryClass } from "./query-classes.ts";
import { missStatements } from "./raw-sql.ts";

/** The classes of issue 63's table. */
export const FLOOR_CLASSES = [
  "venue-near-london",
  "venue-box-london",
  "city-state",
  "venue-deep-1000",
  "venue-name-common",
  "venue-city-id",
  "city-name-country",
  "suggest-city-3",
  "city-name",
  "venue-name-country",
  "suggest-venue-place",
  "venue-country",
];
const ROUNDS = 2;

const accept = (c: QueryClass) => ({ Accept: c.format === "json" ? "application/json" : "application/xml" });

interface FloorFigures {
  id: string;
  label: string;
  worker: LoadFigures;
  floor: LoadFigures;
  ratio: number;
}

const best = (runs: readonly LoadFigures[]) =>
  runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));

/** Each class's statements given to the floor worker once (it keeps them). */
async function giveStatements(floor: string, db: Database.Database, classes: readonly QueryClass[]): Promise<void> {
  for (const c of classes) {
    const statements = (await missStatements(db, c)).map(anonymous).map((s) => ({ text: s.text, binds: s.binds }));
    const res = await fetch(`${floor}/${c.id}`, { method: "PUT", body: JSON.stringify(statements) });
    if (res.status !== 204) throw new Error(`the floor worker refused ${c.id}: ${res.status}`);
  }
}

async function measure(worker: string, floor: string, c: QueryClass): Promise<FloorFigures> {
  const ours: LoadFigures[] = [];
  const floors: LoadFigures[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    ours.push(await load(worker, () => classPath(c), accept(c), THROUGHPUT));
    floors.push(await load(floor, () => `/${c.id}`, {}, THROUGHPUT));
  }
  const [w, f] = [best(ours), best(floors)];
  if (w.non2xx + w.errors > 0 || f.non2xx + f.errors > 0) {
    throw new Error(
      `${c.id}: failed requests (worker ${w.non2xx} non-2xx, ${w.errors} errors; floor ${f.non2xx}, ${f.errors})`,
    );
  }
  return { id: c.id, label: c.label, worker: w, floor: f, ratio: w.requestsPerSecond / f.requestsPerSecond };
}

export async function benchFloor(): Promise<void> {
  try {
    log("the default data (the tests' state of it)");
    await importDefaultDataState();
    const worker = await startMissWorker(8796, DEFAULT_DATA_STATE);
    const floorArgs = ["--config", "bench/floor-wrangler.toml", "--persist-to", DEFAULT_DATA_STATE];
    const floor = (await startDevServer({ port: 8797, args: floorArgs })).base;
    const classes = [...QUERY_CLASSES, ...SUGGEST_CLASSES].filter((c) => FLOOR_CLASSES.includes(c.id));
    const db = new Database(localD1File(d1Database().id, DEFAULT_DATA_STATE), { readonly: true, fileMustExist: true });
    try {
      await giveStatements(floor, db, classes);
    } finally {
      db.close();
    }
    const figures: FloorFigures[] = [];
    for (const c of classes) {
      log(`${c.label}: the worker against its own statements`);
      figures.push(await measure(worker, floor, c));
    }
    const mean = Math.exp(figures.reduce((s, f) => s + Math.log(f.ratio), 0) / figures.length);
    const rows = figures.map(
      (f) =>
        `| ${f.label} | ${f.worker.requestsPerSecond.toFixed(0)} | ${f.floor.requestsPerSecond.toFixed(0)} | ${f.ratio.toFixed(2)} |`,
    );
    const text = [
      `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} on ${machine()} with \`npm run bench -- --floor\` (32 connections, 5 s, best of ${ROUNDS}).`,
      "",
      "| class | worker req/s | its statements req/s | ratio |",
      "| --- | ---: | ---: | ---: |",
      ...rows,
      `| geometric mean | | | ${mean.toFixed(2)} |`,
    ].join("\n");
    await report(
      text,
      [
        ["every class at 0.8 of its own statements or more", figures.every((f) => f.ratio >= 0.8)],
        ["the geometric mean at 0.9 or more", mean >= 0.9],
      ],
      "floor",
    );
  } finally {
    stopDevServers();
  }
}
