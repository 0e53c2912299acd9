/**
 * The databases of a plan whose main database holds no venue (`--main-venues none`), swapped in
 * together (docs/deploy.md#past-one-database). There a venue database that holds another import
 * than the main database's manifest names cannot be answered for (the worker refuses its searches
 * with a 503), so each database is only staged by its own import (publish/local.ts, `swapLater`),
 * and once every one is staged they swap one right after the other: the venue databases, then the
 * main one with the manifest that names them. A failure before that swaps nothing in: every
 * database serves what it served, and what the others staged is dropped.
 */
import Database from "better-sqlite3";
import { dropStagedOut, holdsStaged, swapStaged } from "../publish/local.ts";
import { dropTables } from "../publish/drop.ts";
import { SERVED_TABLES } from "../publish/stage.ts";
import { FAST, Steps } from "../publish/steps.ts";
import { withImportLock } from "../lock.ts";
import { ImportError } from "../problems.ts";
import type { Progress } from "../progress.ts";
import type { ImportOptions, Target } from "../run.ts";
import { pacingOf } from "../publish/local-file.ts";

/** One database an import staged: its target, its SQLite file, and the meta rows its swap writes. */
export interface Staged {
  target: Target;
  file: string;
  meta: readonly (readonly [string, string])[];
}

/** How an import with `options` paces its writes into `file` (a served file's old tables dropped in steps). */
const paced = (options: ImportOptions, file: string) => pacingOf(options.pacing, options.target.kind === "file", file);

/** Runs `work` holding the import lock of every target: no other import clears a stage table meanwhile. */
function holdingEvery<T>(targets: readonly Target[], progress: Progress, work: () => Promise<T>): Promise<T> {
  const [first, ...rest] = targets;
  if (first === undefined) return work();
  return withImportLock(first, progress, () => holdingEvery(rest, progress, work));
}

/** Each staged file open, closed after `work`. */
async function withOpen<T>(staged: readonly Staged[], work: (dbs: Database.Database[]) => Promise<T>): Promise<T> {
  const dbs: Database.Database[] = [];
  try {
    for (const { file } of staged) {
      const db = new Database(file, { fileMustExist: true });
      db.pragma("busy_timeout = 10000");
      dbs.push(db);
    }
    return await work(dbs);
  } finally {
    for (const db of dbs) db.close();
  }
}

/**
 * Every staged database swapped in, in the order given (the main database last), each swap right
 * after the one before; then the old tables of each dropped. Refused before any swap where one of
 * them lost its stage tables (another import cleared them).
 */
export async function swapTogether(staged: readonly Staged[], options: ImportOptions, progress: Progress) {
  await holdingEvery(
    staged.map((s) => s.target),
    progress,
    () =>
      withOpen(staged, async (dbs) => {
        const lost = staged.find((_, i) => dbs[i] !== undefined && !holdsStaged(dbs[i]));
        if (lost !== undefined)
          throw new ImportError(`${lost.file}: its staged tables are gone (another import?); nothing was swapped in`);
        progress.phase(`swapping ${staged.length} databases in, one right after the other`);
        // No pause between the swaps: the time between the first and the last is the window the worker refuses.
        for (const [i, db] of dbs.entries()) await swapStaged(db, staged[i]?.meta ?? [], progress, FAST);
        for (const [i, db] of dbs.entries()) await dropStagedOut(db, progress, paced(options, staged[i]?.file ?? ""));
      }),
  );
}

/** What the staged databases hold besides what they serve, dropped: an import after one of them failed. */
export async function dropStaged(staged: readonly Staged[], options: ImportOptions, progress: Progress) {
  const targets = staged.map((s) => s.target);
  await holdingEvery(targets, progress, () =>
    withOpen(staged, async (dbs) => {
      for (const [i, db] of dbs.entries()) {
        progress.phase(`dropping what ${staged[i]?.file ?? ""} staged`);
        const steps = new Steps(db, paced(options, staged[i]?.file ?? ""));
        await dropTables(
          steps,
          db,
          SERVED_TABLES.map((t) => `stage_${t}`),
        );
      }
    }),
  );
}
