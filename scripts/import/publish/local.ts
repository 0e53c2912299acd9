/**
 * Publishing a build (build.ts) into a served database, the same way for the local D1 file and
 * for a Cloudflare D1 database:
 *
 * 1. stage: create stage_<table> for every served table (the build's own DDL, renamed), after
 *    dropping what an interrupted import may have left;
 * 2. copy: the build's rows into the stage tables, in key ranges;
 * 3. index: the FTS indexes, which the build made from their documents (phases/fts-prebuild.ts),
 *    copied into the stage FTS tables' shadow tables (remotely, the documents are indexed there);
 * 4. swap: one short transaction renames every served table to old_<table> and every stage table
 *    to the served name (constraint indexes and FTS shadow tables follow their table), and writes
 *    the new meta rows, the data version last;
 * 5. clean up: the old tables are dropped (large ones emptied in steps first), and their pages
 *    given back to the file system (compact.ts): the file holds its data once.
 *
 * Until the swap, readers see the previous data, complete; a failure anywhere before it leaves
 * that data as it was. Locally every step is a short transaction with a pause after it, because
 * while any other connection holds the write lock the local D1 refuses its queries (the worker
 * retries them briefly: src/d1/session.ts). Remotely the steps are rendered into SQL files (remote.ts).
 */
import type Database from "better-sqlite3";
import { FTS_DOCUMENTS, PLAIN_TABLES, SIDE_FILES, sidePathOf } from "../phases/build-file.ts";
import type { Progress } from "../progress.ts";
import { withSortHelper } from "../sort-helper.ts";
import {
  SERVED_TABLES,
  importSuffix,
  integerKey,
  keyColumns,
  stageDdl,
  stageIndexes,
  swapStatements,
} from "./stage.ts";
import { Steps, type LocalPublishOptions } from "./steps.ts";
import { compact, incrementalMode } from "./compact.ts";
import { dropTables } from "./drop.ts";

export type { LocalPublishOptions } from "./steps.ts";

type Meta = readonly (readonly [string, string])[];
type Phase = (name: string, total?: number) => void;

/** One publish: the target with the build attached as `build`, its pacing and its progress. */
interface Publish {
  target: Database.Database;
  build: Database.Database;
  steps: Steps;
  phase: Phase;
  progress: Progress;
}

/**
 * Publishes the build file at `buildPath` into the SQLite file open as `target` (the local D1
 * file, or any SQLite file with the schema) in short transactions. `meta` are the new meta rows.
 * With `swapLater`, it stops once staged: the caller swaps the stage tables in (swapStaged), as a
 * plan of several databases does once every one is staged (scripts/import/shards/import.ts).
 */
export async function publishLocal(
  target: Database.Database,
  build: Database.Database,
  meta: Meta,
  progress: Progress,
  options: LocalPublishOptions & { swapLater?: boolean } = {},
): Promise<{ longestWrite: { ms: number; doing: string } }> {
  const steps = new Steps(target, options);
  const p: Publish = { target, build, steps, phase: phaseOf(steps, progress), progress };
  // A new file, still small, goes into incremental auto-vacuum mode at once (compact.ts).
  incrementalMode(target, false);
  target.prepare("ATTACH DATABASE ? AS build").run(build.name);
  for (const side of SIDE_FILES) target.prepare(`ATTACH DATABASE ? AS ${side}`).run(sidePathOf(build.name, side));
  try {
    await stageAll(p);
  } finally {
    for (const name of ["build", ...SIDE_FILES]) target.exec(`DETACH DATABASE ${name}`);
  }
  if (options.swapLater !== true) {
    await swapIn(target, meta, steps, p.phase);
    await dropReplaced(target, steps, p.phase, progress);
  }
  target.pragma("wal_checkpoint(PASSIVE)");
  return { longestWrite: steps.longest };
}

const phaseOf =
  (steps: Steps, progress: Progress) =>
  (name: string, total = 0) => {
    steps.start(name);
    progress.phase(name, total);
  };

/** Steps 1–3: every served table staged, with its rows, indexes and search indexes. */
async function stageAll(p: Publish): Promise<void> {
  const { target, steps, phase } = p;
  const indexes = await createStageTables(p);
  for (const table of PLAIN_TABLES) {
    await copyTable(p, table);
    // Alone, each index is built from all its rows at once, after them (a sort: much less work).
    const tableIndexes = steps.alone ? (indexes.get(table) ?? []) : [];
    if (tableIndexes.length > 0) {
      phase(`indexing ${table} (${tableIndexes.length} indexes)`);
      for (const ddl of tableIndexes) await steps.write(() => withSortHelper(target, () => target.exec(ddl)));
    }
  }
  for (const fts of FTS_DOCUMENTS) await copyPrebuiltFts(p, fts);
}

/** Step 4: the stage tables swapped in, with the new meta rows, in one transaction. */
async function swapIn(target: Database.Database, meta: Meta, steps: Steps, phase: Phase): Promise<void> {
  phase("swapping the new tables in");
  await steps.write(() => {
    for (const sql of swapStatements(meta, (v) => `'${v.replaceAll("'", "''")}'`)) target.exec(sql);
  });
}

/** Step 5: the old tables dropped and their pages given back. */
async function dropReplaced(target: Database.Database, steps: Steps, phase: Phase, progress: Progress): Promise<void> {
  phase("dropping the old tables");
  await dropTables(
    steps,
    target,
    SERVED_TABLES.map((t) => `old_${t}`),
  );
  phase("giving the old tables' pages back (incremental vacuum)");
  await compact(steps, target, progress);
}

/** Whether `target` holds every stage table of an import that stopped before its swap (publishLocal's `swapLater`). */
export function holdsStaged(target: Database.Database): boolean {
  const names = new Set(
    (target.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[]).filter((n) =>
      n.startsWith("stage_"),
    ),
  );
  return SERVED_TABLES.every((t) => names.has(`stage_${t}`));
}

/**
 * The swap of an import staged with `swapLater` (held: holdsStaged), its old tables dropped after
 * by dropStagedOut; apart, so that several databases swap one right after the other.
 */
export async function swapStaged(
  target: Database.Database,
  meta: Meta,
  progress: Progress,
  options: LocalPublishOptions,
): Promise<void> {
  const steps = new Steps(target, options);
  await swapIn(target, meta, steps, phaseOf(steps, progress));
}

/** What swapStaged replaced, dropped and its pages given back. */
export async function dropStagedOut(
  target: Database.Database,
  progress: Progress,
  options: LocalPublishOptions,
): Promise<void> {
  const steps = new Steps(target, options);
  await dropReplaced(target, steps, phaseOf(steps, progress), progress);
  target.pragma("wal_checkpoint(PASSIVE)");
}

/** Stage tables (and, when readers share the file, their indexes); returns each table's indexes. */
async function createStageTables({ target, build, steps, phase }: Publish): Promise<Map<string, string[]>> {
  phase("staging: clearing what an earlier import left");
  await dropTables(
    steps,
    target,
    SERVED_TABLES.flatMap((t) => [`stage_${t}`, `old_${t}`]),
  );
  const indexes = stageIndexes(build, importSuffix());
  await steps.write(() => {
    for (const ddl of stageDdl(build)) target.exec(ddl);
    // Readers meanwhile: each index grows with its rows, in short steps.
    if (!steps.alone) for (const ddl of [...indexes.values()].flat()) target.exec(ddl);
  });
  return indexes;
}

/** Copies one plain table into its stage table: by key ranges, or (no integer key) in key order. */
async function copyTable(p: Publish, table: string): Promise<void> {
  const { target, build, steps, phase, progress } = p;
  const total = build.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  phase(`copying ${table}`, total);
  const integer = integerKey(build, table);
  let done = 0;
  if (integer !== null) {
    // Keys are sparse (venues: their city's pos × VENUE_SLOTS; words: a hash): each step ends
    // where the build's next `size` rows end.
    const copy = target.prepare(
      `INSERT INTO main.stage_${table} SELECT * FROM build.${table} WHERE ${integer} >= ? AND ${integer} < ?`,
    );
    const next = build.prepare(
      `SELECT ${integer} FROM ${table} WHERE ${integer} >= ? ORDER BY ${integer} LIMIT 1 OFFSET ?`,
    );
    let from = build.prepare(`SELECT min(${integer}) FROM ${table}`).pluck().get() as number | null;
    while (from !== null) {
      const to = (next.pluck().get(from, steps.rows) as number | undefined) ?? null;
      done += await steps.write(() => copy.run(from, to ?? Number.MAX_SAFE_INTEGER).changes);
      from = to;
      progress.tick(done);
    }
    return;
  }
  const key = keyColumns(build, table).map((c) => c.name);
  await copyInKeyOrder(p, `build.${table}`, `main.stage_${table}`, key, (n) => progress.tick((done += n)));
}

/**
 * An index the build made (phases/fts-prebuild.ts): its shadow tables copied into the stage
 * table's, emptied first; with readers in short steps (no one reads a stage table).
 */
async function copyPrebuiltFts(p: Publish, { table, file }: (typeof FTS_DOCUMENTS)[number]): Promise<void> {
  const { target, steps, phase } = p;
  phase(`copying ${table}, indexed during the build`);
  const stage = `stage_${table}`;
  await steps.write(
    shadowWrite(target, () => target.exec(`DELETE FROM main.${stage}_data; DELETE FROM main.${stage}_idx;`)),
  );
  for (const [part, key] of [
    ["data", ["id"]],
    ["idx", ["segid", "term"]],
  ] as const) {
    const [from, to] = [`${file}.${table}_${part}`, `main.${stage}_${part}`];
    if (steps.alone)
      await steps.write(shadowWrite(target, () => target.exec(`INSERT INTO ${to} SELECT * FROM ${from}`)));
    else await copyInKeyOrder(p, from, to, key, () => undefined, true);
  }
}

/** Work that writes FTS5 shadow tables, which SQLite's defensive mode keeps read-only. */
const shadowWrite =
  <T>(target: Database.Database, work: () => T) =>
  (): T => {
    target.unsafeMode(true);
    try {
      return work();
    } finally {
      target.unsafeMode(false);
    }
  };

/**
 * Copies a table into an empty one in the order of its key, a step's rows at a time, each step
 * after the last key copied (an OFFSET would read again every row before it). `shadow`: FTS5's.
 */
async function copyInKeyOrder(
  { target, steps }: Publish,
  from: string,
  to: string,
  key: readonly string[],
  copied: (rows: number) => void,
  shadow = false,
) {
  const columns = key.join(", ");
  // Prepared in the step: a shadow table can only be written to, and so compiled for, in unsafe mode.
  const first = `INSERT INTO ${to} SELECT * FROM ${from} ORDER BY ${columns} LIMIT ?`;
  const next = `INSERT INTO ${to} SELECT * FROM ${from} WHERE (${columns}) > (${key.map(() => "?").join(", ")}) ORDER BY ${columns} LIMIT ?`;
  const last = `SELECT ${columns} FROM ${to} ORDER BY ${key.map((k) => `${k} DESC`).join(", ")} LIMIT 1`;
  steps.reset();
  let after: unknown[] | undefined;
  const step = () => {
    const size = steps.rows;
    const n = (after === undefined ? target.prepare(first).run(size) : target.prepare(next).run(...after, size))
      .changes;
    after = target.prepare(last).raw().get() as unknown[] | undefined;
    return n;
  };
  for (let n = 1; n > 0; copied(n)) n = await steps.write(shadow ? shadowWrite(target, step) : step);
}
