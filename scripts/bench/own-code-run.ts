/**
 * `npm run bench -- --own-code`: what the worker's own search code costs a miss, apart from D1 and
 * the runtime (docs/benchmarks.md "The floor"). Per class of the floor's table, in this Node: the
 * request's path parsed as the worker parses it, its statements built and written through a book of
 * long words (src/match/long-word-book.ts) as the worker's session writes them, and the answer
 * shaped from D1's rows — the rows read once from the tests' state of the default data with
 * better-sqlite3 and replayed, so that only the code is timed. The mean of 1,000 requests after 200.
 * The same for the dearest answered requests that the load test's dearest client sends (dearest.ts).
 */
import Database from "better-sqlite3";
import { LongWordBook } from "../../src/match/long-word-book.ts";
import { CITIES } from "../../src/query/cities.ts";
import type { ResourceQueries, Runner } from "../../src/query/resource.ts";
import { runSearch } from "../../src/query/search.ts";
import { VENUES } from "../../src/query/venues.ts";
import { anonymous, type Sql } from "../../src/sql/sql.ts";
import { runSuggest } from "../../src/suggest/suggest.ts";
import { d1Database, localD1File } from "../import/wrangler.ts";
import { searchRequest } from "../sql/explain.ts";
import { DEFAULT_DATA_STATE, importDefaultDataState } from "../tools/default-data-state.ts";
import { log, machine, report } from "./common.ts";
import { dearestRequests } from "./dearest.ts";
import { FLOOR_CLASSES } from "./floor-run.ts";
import { classPath, QUERY_CLASSES, SUGGEST_CLASSES } from "./query-classes.ts";

const WARM_UP = 200;
const TIMED = 1_000;

type Rows = Record<string, unknown>[];

/** One request of `path`, its round trips run by `trip` (the statements as `book`, the isolate's, wrote them). */
async function request(path: string, book: LongWordBook, trip: (written: readonly Sql[]) => Rows[]) {
  const runner: Runner = {
    run: (_what, statements) => {
      const written = book.write(statements);
      const rows = trip(written.statements);
      book.learn(written, "replayed", written.reads ? rows.at(-1) : undefined);
      return Promise.resolve(rows.slice(0, statements.length).map((r) => ({ rows: r })));
    },
  };
  const r = searchRequest(path);
  const queries = (r.resource === "venues" ? VENUES : CITIES) as ResourceQueries<unknown>;
  if (r.suggest !== undefined) await runSuggest(queries, runner, r.suggest, "en");
  else await runSearch(queries, runner, r.params, "en");
}

/** Milliseconds of the worker's own code per request of `path`, its rows read once from `db`. */
async function ownCode(db: Database.Database, path: string): Promise<number> {
  const recorded: Rows[][] = [];
  const book = new LongWordBook();
  await request(path, book, (statements) => {
    const rows = statements.map((s) => {
      const { text, binds } = anonymous(s);
      return db.prepare(text).all(...binds) as Rows;
    });
    recorded.push(rows);
    return rows;
  });
  const replay = async () => {
    let n = 0;
    await request(path, book, () => recorded[Math.min(n++, recorded.length - 1)] ?? []);
  };
  for (let i = 0; i < WARM_UP; i++) await replay();
  const started = performance.now();
  for (let i = 0; i < TIMED; i++) await replay();
  return (performance.now() - started) / TIMED;
}

/** A table's rows: each path after its label, with its own code's milliseconds. */
async function ownCodeTable(db: Database.Database, rows: readonly [label: string, path: string][]): Promise<string[]> {
  const out: string[] = [];
  for (const [label, path] of rows) {
    const ms = await ownCode(db, path);
    log(`${label}: ${ms.toFixed(3)} ms`);
    out.push(`| ${label} | \`${path.replaceAll("|", "%7C")}\` | ${ms.toFixed(3)} |`);
  }
  return out;
}

export async function benchOwnCode(): Promise<void> {
  await importDefaultDataState();
  const db = new Database(localD1File(d1Database().id, DEFAULT_DATA_STATE), { readonly: true, fileMustExist: true });
  try {
    const classes = [...QUERY_CLASSES, ...SUGGEST_CLASSES].filter((c) => FLOOR_CLASSES.includes(c.id));
    const classRows = await ownCodeTable(
      db,
      classes.map((c) => [c.label, classPath(c)]),
    );
    const dearest = dearestRequests();
    const dearestRows = await ownCodeTable(
      db,
      dearest.paths.map((path, i) => [String(i + 1), path]),
    );
    const head = "| --- | --- | ---: |";
    const text = [
      `Measured ${new Date().toISOString().slice(0, 16).replace("T", " ")} on ${machine()} with \`npm run bench -- --own-code\` (the mean of ${TIMED.toLocaleString("en-US")} requests after ${WARM_UP}, D1's rows replayed).`,
      "",
      "| class | request | the worker's own search code (ms a request) |",
      head,
      ...classRows,
      "",
      `The dearest answered requests by D1 time (bench/dearest.json: ${dearest.found}), which the load test's dearest client sends:`,
      "",
      "| # | request | the worker's own search code (ms a request) |",
      head,
      ...dearestRows,
    ].join("\n");
    await report(text, [], "own-code");
  } finally {
    db.close();
  }
}
