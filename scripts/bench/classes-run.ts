/**
 * `npm run bench -- --classes`: the query classes alone (scripts/bench/query-classes.ts), each as a
 * miss on 1,000,000 venues (`--venues N`: N), with D1's rows_read, p50 and the raw SQL time — what a
 * change of the stored data costs the reads, measured before it is adopted (docs/deploy.md). The
 * figures go to bench/classes.json; `--compare FILE` prints them beside an earlier run's.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { d1Database, localD1File } from "../import/wrangler.ts";
import { stopDevServers } from "../tools/dev-server.ts";
import { ROOT } from "../tools/project.ts";
import { log, measureClasses, startMissWorker, timedImport, TMP } from "./common.ts";
import { QUERY_CLASSES } from "./query-classes.ts";
import type { ClassFigures } from "./results.ts";

const OUT = join(ROOT, "bench", "classes.json");

interface ClassesRun {
  date: string;
  venues: number;
  classes: ClassFigures[];
}

function table(run: ClassesRun, earlier: ClassesRun | null): string {
  const before = new Map((earlier?.classes ?? []).map((c) => [c.id, c]));
  const rows = run.classes.map((c) => {
    const e = before.get(c.id);
    const was = (now: number, then: number | undefined, digits: number) =>
      then === undefined ? now.toFixed(digits) : `${then.toFixed(digits)} → ${now.toFixed(digits)}`;
    return `| ${c.label} | ${was(c.rowsRead, e?.rowsRead, 0)} | ${was(c.p50, e?.p50, 1)} | ${was(c.rawSqlMs, e?.rawSqlMs, 2)} |`;
  });
  return ["| class | rows read | p50 ms | raw SQL ms |", "| --- | ---: | ---: | ---: |", ...rows].join("\n");
}

export async function benchClasses(venues: number, compare: string | undefined): Promise<void> {
  const state = join(TMP, "classes-state");
  rmSync(state, { recursive: true, force: true });
  log(`importing ${venues.toLocaleString("en-US")} venues into bench/tmp/classes-state`);
  await timedImport(venues, ["--persist-to", state]);
  const misses = await startMissWorker(8794, state);
  const db = new Database(localD1File(d1Database().id, state), { readonly: true, fileMustExist: true });
  let classes: ClassFigures[];
  try {
    classes = await measureClasses(misses, db, QUERY_CLASSES);
  } finally {
    db.close();
    stopDevServers();
  }
  const run: ClassesRun = { date: new Date().toISOString(), venues, classes };
  writeFileSync(OUT, `${JSON.stringify(run, null, 2)}\n`);
  const earlier =
    compare !== undefined && existsSync(compare) ? (JSON.parse(readFileSync(compare, "utf8")) as ClassesRun) : null;
  console.log(`\n${table(run, earlier)}\n`);
}
