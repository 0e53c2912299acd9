/**
 * The databases of a plan whose main database holds no venue (`--main-venues none`), swapped in
 * together (docs/deploy.md#every-database-swapped-in-together). There a venue database that holds
 * another import than the main database's manifest names cannot be answered for (the worker refuses
 * its searches with a 503), so each database is only staged by its own import (`swapLater`: a
 * local or file one's stage tables, publish/local.ts; a remote one's files before its swap, or
 * before its file of what changed, publish/remote-pending.ts), and once every one is staged they
 * swap one right after the other: the venue databases, then the main one with the manifest that
 * names them. A failure before that swaps nothing in: every database serves what it served, and
 * what the local ones staged is dropped (a remote one's files stay, for the same command to resume).
 */
import Database from "better-sqlite3";
import { dropStagedOut, holdsStaged, swapStaged } from "../publish/local.ts";
import { dropTables } from "../publish/drop.ts";
import { SERVED_TABLES } from "../publish/stage.ts";
import { FAST, Steps } from "../publish/steps.ts";
import { appliedAlso, applyingIn, finishPending, servePending, type PendingRemote } from "../publish/remote-pending.ts";
import type { RemoteFigures } from "../publish/remote-publish.ts";
import { withImportLock } from "../lock.ts";
import { ImportError } from "../problems.ts";
import type { Progress } from "../progress.ts";
import type { ImportOptions, Target } from "../options.ts";
import { pacingOf } from "../publish/local-file.ts";

/** A local or file database an import staged: its SQLite file, and the meta rows its swap writes. */
interface StagedFile {
  target: Target;
  file: string;
  meta: readonly (readonly [string, string])[];
}

/** A remote database an import staged: what is left to apply, and the figures of its summary, which take what D1 says of it. */
interface StagedRemote {
  target: Target;
  pending: PendingRemote;
  figures: RemoteFigures;
}

export type Staged = StagedFile | StagedRemote;

const isFile = (s: Staged): s is StagedFile => "file" in s;

/** How an import with `options` paces its writes into `file` (a served file's old tables dropped in steps). */
const paced = (options: ImportOptions, file: string) => pacingOf(options.pacing, options.target.kind === "file", file);

/** Runs `work` holding the import lock of every target: no other import clears a stage table meanwhile. */
function holdingEvery<T>(targets: readonly Target[], progress: Progress, work: () => Promise<T>): Promise<T> {
  const [first, ...rest] = targets;
  if (first === undefined) return work();
  return withImportLock(first, progress, () => holdingEvery(rest, progress, work));
}

/** Each staged file open, closed after `work`. */
async function withOpen<T>(
  staged: readonly StagedFile[],
  work: (dbs: Map<StagedFile, Database.Database>) => Promise<T>,
): Promise<T> {
  const dbs = new Map<StagedFile, Database.Database>();
  try {
    for (const s of staged) {
      const db = new Database(s.file, { fileMustExist: true });
      db.pragma("busy_timeout = 10000");
      dbs.set(s, db);
    }
    return await work(dbs);
  } finally {
    for (const db of dbs.values()) db.close();
  }
}

/** `work` with the import lock of every one of `targets` held and each of `files` open. */
const lockedAndOpen = <T>(
  targets: readonly Target[],
  files: readonly StagedFile[],
  progress: Progress,
  work: (dbs: Map<StagedFile, Database.Database>) => Promise<T>,
): Promise<T> => holdingEvery(targets, progress, () => withOpen(files, work));

/**
 * Every staged database swapped in, in the order given (the main database last), each swap right
 * after the one before (remote ones all at once); then the old tables of each dropped (a remote
 * refresh: its merges). Refused before any swap where a local one lost its stage tables (another
 * import cleared them).
 */
export async function swapTogether(staged: readonly Staged[], options: ImportOptions, progress: Progress) {
  const files = staged.filter(isFile);
  await lockedAndOpen(
    staged.map((s) => s.target),
    files,
    progress,
    async (dbs) => {
      const lost = files.find((s) => !holdsStaged(dbOf(dbs, s)));
      if (lost !== undefined)
        throw new ImportError(`${lost.file}: its staged tables are gone (another import?); nothing was swapped in`);
      progress.phase(`swapping ${staged.length} databases in, one right after the other`);
      // No pause between the swaps: the time between the first and the last is the window the worker refuses.
      // A remote swap waits for wrangler (seconds): they are sent at once, so that window is one of them, not their sum.
      await Promise.all(staged.filter((s) => !isFile(s)).map((s) => swapOne(s, dbs, progress)));
      for (const s of files) await swapOne(s, dbs, progress);
      for (const s of staged) await finishOne(s, dbs, options, progress);
    },
  );
}

type Open = ReadonlyMap<StagedFile, Database.Database>;

/** One database swapped in: a file's stage tables, or a remote one's file that changes what it serves. */
async function swapOne(s: Staged, dbs: Open, progress: Progress): Promise<void> {
  if (isFile(s)) return swapStaged(dbOf(dbs, s), s.meta, progress, FAST);
  const said = await servePending(s.pending, applyingIn(s.pending), progress);
  s.figures.applied = appliedAlso(s.figures.applied, said);
}

/** What one database's swap replaced, dropped (a remote refresh: its merges after it). */
async function finishOne(s: Staged, dbs: Open, options: ImportOptions, progress: Progress): Promise<void> {
  if (isFile(s)) return dropStagedOut(dbOf(dbs, s), progress, paced(options, s.file));
  const said = await finishPending(s.pending, applyingIn(s.pending), progress);
  s.figures.applied = appliedAlso(s.figures.applied, said);
}

const dbOf = (dbs: Open, s: StagedFile) => {
  const db = dbs.get(s);
  if (db === undefined) throw new Error(`${s.file} is not open`);
  return db;
};

/** What the staged files hold besides what they serve, dropped: an import after one of them failed (a remote one's files stay, to resume). */
export async function dropStaged(staged: readonly Staged[], options: ImportOptions, progress: Progress) {
  const files = staged.filter(isFile);
  await lockedAndOpen(
    files.map((s) => s.target),
    files,
    progress,
    async (dbs) => {
      for (const s of files) {
        progress.phase(`dropping what ${s.file} staged`);
        const db = dbOf(dbs, s);
        await dropTables(
          new Steps(db, paced(options, s.file)),
          db,
          SERVED_TABLES.map((t) => `stage_${t}`),
        );
      }
    },
  );
}
