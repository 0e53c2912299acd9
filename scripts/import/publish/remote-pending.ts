/**
 * A remote import whose swap is left to its caller (`swapLater`: scripts/import/shards/
 * swap-together.ts): its files written, their cost said, and every file before the one that
 * changes what the database serves applied — the swap of a full import, the one file of what
 * changed of a refresh (remote-refresh.ts). servePending applies that file, finishPending the
 * rest (the old tables dropped, or the merges of the search indexes), each as the import itself
 * would have, its failure said in the same line.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ImportError } from "../problems.ts";
import type { Progress } from "../progress.ts";
import { wranglerDatabase } from "../remote-database.ts";
import {
  appliedFigures,
  differenceFailed,
  failedFile,
  mergeFailed,
  type AppliedFiles,
  type RemoteDatabase,
  type WrittenFile,
} from "./remote-files.ts";
import { promoteToMirror } from "./remote-mirror.ts";

/** What `publishToRemote` left to apply (with `swapLater`), as its summary carries it. */
export interface PendingRemote {
  /** The remote database's name, as wrangler knows it. */
  database: string;
  dir: string;
  version: string;
  /** Where the mirror of what the remote serves is kept once the data it names is served (remote-mirror.ts). */
  mirror: string;
  emptySize: number;
  files: WrittenFile[];
  /** The file that changes what the database serves: the files before it are applied. */
  serving: number;
  /** A refresh: one file of what changed, then merges (else a full import's swap, then its drop). */
  refresh: boolean;
}

type Applied = Pick<AppliedFiles, "rowsWritten" | "sizeAfter" | "peakSize">;

/** Where pending files are applied, and how the progress names it ("" where it is the import's own). */
export interface ApplyingIn {
  database: RemoteDatabase;
  named: string;
}

/** Where swapTogether applies what an import left: the database by its name, named in the progress. */
export const applyingIn = (pending: PendingRemote): ApplyingIn => ({
  database: wranglerDatabase(pending.database),
  named: `${pending.database}: `,
});

/** Files `from` to `to` of `pending` applied, each in the progress; a failure said as the import says it. */
async function applyRange(
  pending: PendingRemote,
  [from, to]: [number, number],
  { database, named }: ApplyingIn,
  progress: Progress,
) {
  const said = [];
  for (let n = from; n <= to; n++) {
    const file = pending.files[n];
    if (file === undefined) continue;
    progress.phase(`${named}remote file ${n + 1} of ${pending.files.length}: ${file.what}`);
    try {
      said.push(await database.apply(join(pending.dir, file.name)));
    } catch (error) {
      if (!pending.refresh) throw failedFile(error, n, pending.files);
      const reason = error instanceof Error ? error.message : String(error);
      const failure = n === pending.serving ? differenceFailed : mergeFailed;
      throw new ImportError(failure(file, reason), { saysWhatIsServed: true });
    }
  }
  return said;
}

/** The file that changes what the database serves, applied; a refresh's mirror then holds what it serves. */
export async function servePending(pending: PendingRemote, where: ApplyingIn, progress: Progress) {
  const said = await applyRange(pending, [pending.serving, pending.serving], where, progress);
  if (pending.refresh) promoteToMirror(pending.dir, pending.version, pending.emptySize, pending.mirror);
  return said;
}

/**
 * The files after it applied and the folder removed; a full import's mirror kept once its last
 * file applied (a failure keeps the folder: the same command resumes from it), a refresh's folder
 * removed whatever the merges did (the same command merges what is left: mergeLeftSegments).
 */
export async function finishPending(pending: PendingRemote, where: ApplyingIn, progress: Progress) {
  const rest: [number, number] = [pending.serving + 1, pending.files.length - 1];
  if (pending.refresh) {
    try {
      return await applyRange(pending, rest, where, progress);
    } finally {
      rmSync(pending.dir, { recursive: true, force: true });
    }
  }
  const said = await applyRange(pending, rest, where, progress);
  promoteToMirror(pending.dir, pending.version, pending.emptySize, pending.mirror);
  rmSync(pending.dir, { recursive: true, force: true });
  return said;
}

/** What D1 said of files applied by the import, and of those applied after: as of all of them in one run. */
export function appliedAlso(before: Applied | undefined, said: Parameters<typeof appliedFigures>[0]): Applied {
  const after = appliedFigures(said);
  if (before === undefined) return after;
  const sum = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);
  const most = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.max(a, b));
  return {
    rowsWritten: sum(before.rowsWritten, after.rowsWritten),
    sizeAfter: after.sizeAfter ?? before.sizeAfter,
    peakSize: most(before.peakSize, after.peakSize),
  };
}
