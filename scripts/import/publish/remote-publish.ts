/**
 * A remote import, from the build to the remote D1 database: what the remote holds first (an
 * unchanged data version is not sent again), then the SQL files written as a stream while a
 * replica runs them (remote-replica.ts), then one line of what they will cost in D1's units and
 * which plan that fits (remote-plan.ts) — a run that does not fit the plan chosen stops there, as
 * does a dry run — then the files applied through wrangler, resumably (remote-files.ts); the
 * replica and the build's documents then become the mirror of the remote. When the mirror holds what
 * the remote serves, only what changed is sent, as one file (remote-refresh.ts).
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { collectGarbage } from "../../tools/collect-garbage.ts";
import { ImportError } from "../problems.ts";
import type { Progress } from "../progress.ts";
import { d1Database } from "../wrangler.ts";
import { migrateRemote, wranglerDatabase, type RemoteState } from "../remote-database.ts";
import { remoteParts, SWAP_WHAT } from "./remote.ts";
import {
  applyRemoteFiles,
  completeFiles,
  markComplete,
  writeRemoteFiles,
  type AppliedFiles,
  type RemoteFiles,
} from "./remote-files.ts";
import { costLine, planRefusal, remoteCost, type Plan, type RemoteCost } from "./remote-plan.ts";
import { keepDocuments, mirrorDir, promoteToMirror, REPLICA_FILE } from "./remote-mirror.ts";
import { refreshRemote } from "./remote-refresh.ts";
import { DATA_BYTES, Replica } from "./remote-replica.ts";
import { importSuffix } from "./stage.ts";
import type { PendingRemote } from "./remote-pending.ts";

export interface RemoteOptions {
  /** Print the cost and stop before the first file (the files are kept: the next run sends them). */
  dryRun: boolean;
  plan: Plan;
  /** Send the whole data even when the mirror could send only what changed (remote-refresh.ts). */
  full: boolean;
  /** Stop before the file that changes what the database serves; the caller applies it (remote-pending.ts). */
  swapLater: boolean;
}

/** What the remote import sent, or would send; D1's own figures where it applied files. */
export interface RemoteFigures {
  files: number;
  skipped: number;
  bytes: number;
  /** What the files left to apply cost, worked out before the first of them (remote-plan.ts). */
  cost: RemoteCost;
  /** What D1 said it counted, over the files this run applied (null where wrangler did not say; none on a dry run). */
  applied?: Pick<AppliedFiles, "rowsWritten" | "sizeAfter" | "peakSize">;
  dryRun?: boolean;
  /** The rows D1 counted as read to read the mirror back from the remote first (remote-mirror-read.ts). */
  readBack?: number;
  /** With `swapLater`: what is left to apply (remote-pending.ts). */
  pending?: PendingRemote;
}

/**
 * The remote database (wrangler.toml's `DB`, or the one given), what it holds now, and its mirror's
 * folder; migrated first where it has not applied every migration, unless on a dry run (which
 * changes nothing remotely).
 */
export async function remoteDatabase(dryRun: boolean, progress: Progress, given?: { name: string; id: string }) {
  const { name, id } = given ?? d1Database();
  const database = wranglerDatabase(name);
  progress.phase("reading what the remote database holds");
  let state: RemoteState | null;
  try {
    state = await database.state();
  } catch (error) {
    // A dry run may come before the database exists: its figures then assume a new one.
    if (!dryRun || !(error instanceof ImportError)) throw error;
    progress.line(`(${error.message}; the figures below assume a new, empty database)`);
    state = null;
  }
  if (!dryRun && state !== null && state.pendingMigrations.length > 0) {
    progress.phase(`applying ${state.pendingMigrations.length} migrations to the remote database`);
    await migrateRemote(name);
    state = await database.state();
  }
  return { database, state, mirror: mirrorDir(id), name };
}

/**
 * Writes the build's SQL files into `dir` (the build then dropped: its pages and the disk it takes
 * are not needed while uploading), running each statement in a replica for the sizes; the replica
 * and the build's documents stay in `dir`, to be the mirror once the files applied.
 */
function writeFiles(
  buildDb: Database.Database,
  meta: [string, string][],
  version: string,
  state: RemoteState | null,
  dir: string,
  progress: Progress,
): RemoteFiles {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // The build's garbage goes before the writing makes its own, which then reuses those pages.
  collectGarbage();
  progress.phase("writing the SQL files of the remote import, and running them in a replica for the sizes");
  const replica = new Replica(join(dir, REPLICA_FILE));
  let complete = false;
  try {
    const tables = state?.tables ?? [];
    // Recorded for the next import, whose drop frees it: the stage tables' bytes, known by the swap.
    const metaAtSwap = () => replica.withDataBytes(meta);
    const parts = remoteParts(buildDb, metaAtSwap, version, importSuffix(), {
      tables,
      metaRows: state?.meta.size ?? 0,
    });
    let count = 0;
    const files = writeRemoteFiles(parts, version, dir, replica, () => progress.tick(++count));
    keepDocuments(buildDb, dir);
    const written = { version, emptySize: replica.emptySize, files };
    markComplete(dir, written);
    complete = true;
    return written;
  } finally {
    replica.close(complete);
  }
}

/**
 * Publishes to the remote database: the files written from the build (or, with no build, those a
 * run before wrote), their cost said in one line, then applied unless they do not fit the plan or
 * the run is dry.
 */
export async function publishToRemote(
  buildDb: Database.Database | null,
  dropBuild: () => void,
  meta: [string, string][],
  version: string,
  dir: string,
  remote: Awaited<ReturnType<typeof remoteDatabase>>,
  options: RemoteOptions,
  progress: Progress,
): Promise<RemoteFigures> {
  const size = sizeOf(remote.state);
  if (buildDb !== null && !options.full) {
    const refreshed = await refreshRemote(
      buildDb,
      dropBuild,
      meta,
      version,
      dir,
      { ...remote, size },
      options,
      progress,
    );
    if (refreshed !== null)
      return { files: refreshed.cost.files, skipped: 0, ...refreshed, ...(options.dryRun ? { dryRun: true } : {}) };
  }
  const written =
    buildDb === null ? completeFiles(dir) : writeFiles(buildDb, meta, version, remote.state, dir, progress);
  dropBuild();
  if (written === null) throw new Error(`the remote import's files in ${dir} are gone`);
  const done = remote.state === null ? new Set<number>() : await remote.database.applied(version);
  const cost = remoteCost(written, done, size);
  const resumedAt = done.size > 0 ? written.files.findIndex((_, n) => !done.has(n)) : null;
  progress.line(costLine(cost, resumedAt));
  const refusal = planRefusal(cost, options.plan);
  if (refusal !== null) {
    // The data must change (another version, other files) or the plan: rebuilding then is cheaper
    // than keeping hundreds of MB of files that may never be sent.
    rmSync(dir, { recursive: true, force: true });
    throw refusal;
  }
  const figures = { files: written.files.length, skipped: done.size, bytes: cost.bytes, cost };
  if (options.dryRun) return { ...figures, dryRun: true };
  if (options.swapLater) return { ...figures, ...(await applyBeforeSwap(dir, written, done, remote, progress)) };
  const applied = await applyRemoteFiles(dir, written, done, remote.database, progress);
  promoteToMirror(dir, version, written.emptySize, remote.mirror);
  rmSync(dir, { recursive: true, force: true });
  return { ...figures, applied };
}

/**
 * The files before the swap applied (those that stage the new data), and what is left: the swap and
 * the drop after it, for the caller (`swapLater`: remote-pending.ts).
 */
async function applyBeforeSwap(
  dir: string,
  written: RemoteFiles,
  done: ReadonlySet<number>,
  remote: Awaited<ReturnType<typeof remoteDatabase>>,
  progress: Progress,
): Promise<Pick<RemoteFigures, "applied" | "pending">> {
  const swap = written.files.findIndex((f) => f.what === SWAP_WHAT);
  if (swap < 0) throw new Error(`the remote import's files in ${dir} hold no swap`);
  const applied = await applyRemoteFiles(dir, written, done, remote.database, progress, swap);
  const { version, emptySize, files } = written;
  // A run resumed after its swap applied: what is left starts after it.
  const serving = done.has(swap) ? swap + 1 : swap;
  const pending = {
    database: remote.name,
    mirror: remote.mirror,
    dir,
    version,
    emptySize,
    files,
    serving,
    refresh: false,
  };
  return { applied, pending };
}

function sizeOf(state: RemoteState | null) {
  const recorded = state?.meta.get(DATA_BYTES);
  return {
    size: state?.size ?? null,
    dataBytes: recorded === undefined ? null : Number(recorded),
    holdsData: state?.meta.has("data_version") ?? false,
  };
}
