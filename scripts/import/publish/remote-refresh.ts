/**
 * A remote import that sends only what changed (docs/deploy.md#a-refresh-that-writes-what-changed):
 * when the mirror holds what the remote serves (remote-mirror.ts), the difference between the
 * build and the mirror (remote-difference.ts) is written into one file — D1 applies a file whole
 * or not at all, so every read sees the old data or the new, and a failed refresh is sent again —
 * then the merges of the search indexes it changed into files after it, all run in a copy of the
 * mirror's replica, for the sizes. Its cost is said in one line and checked
 * against the plan as a full import's is. Once it applied, that copy and the build's documents are
 * the mirror. No usable mirror (remote-mirror.ts), or a difference over one file: a full import.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { ImportError } from "../problems.ts";
import type { Progress } from "../progress.ts";
import type { RemoteState } from "../remote-database.ts";
import { attachMirror, differenceStatements } from "./remote-difference.ts";
import {
  appliedFigures,
  MAX_FILE_BYTES,
  writeRemoteFiles,
  type AppliedFiles,
  type RemoteDatabase,
  type WrittenFile,
} from "./remote-files.ts";
import { MERGES_PER_FILE, mergeSteps, type RemotePart, type RemoteStatement } from "./remote.ts";
import { FTS_DOCUMENTS } from "../phases/build-file.ts";
import { keepDocuments, REPLICA_FILE, usableMirror, type Mirror } from "./remote-mirror.ts";
import { costLine, planRefusal, refreshCost, type Plan, type RemoteCost, type RemoteSize } from "./remote-plan.ts";
import { Replica } from "./remote-replica.ts";
import { mirrorFromRemote } from "./remote-mirror-read.ts";
import { finishPending, servePending, type PendingRemote } from "./remote-pending.ts";

/** Room for the file's head and the statement that passes the bound. */
const MAX_DIFFERENCE_BYTES = MAX_FILE_BYTES - 256 * 1024;

/** The statements, until their bytes in a file pass `limit` (then `over` says so). */
function* bounded(statements: Iterable<RemoteStatement>, limit: number, over: { passed: boolean }) {
  let bytes = 0;
  for (const s of statements) {
    bytes += Buffer.byteLength(s.sql) + 2;
    if (bytes > limit) {
      over.passed = true;
      return;
    }
    yield s;
  }
}

/**
 * FTS5 writes each refresh's documents as a segment of its own and merges segments of one level
 * only, and a search that reads several segments of an index reads more than one that reads one
 * (docs/benchmarks.md#ten-refreshes-in-a-row): every index the difference left in more than one
 * segment in the replica (which took the remote's statements) is merged whole.
 */
function* indexMerges(replica: Replica, over: { passed: boolean }): Generator<RemotePart> {
  for (const { table } of FTS_DOCUMENTS) {
    if (over.passed) return;
    const index = replica.ftsIndex(table);
    if (index.segments <= 1) continue;
    yield {
      what: `merging ${table}`,
      statements: mergeSteps(table, index.pages),
      perFile: MERGES_PER_FILE,
      joins: "merges",
    };
  }
}

/**
 * The difference, then the merges of the indexes it changed, written into `dir` (with the replica
 * they ran in); null when the difference is larger than a file.
 */
function writeDifference(
  build: Database.Database,
  meta: [string, string][],
  version: string,
  dir: string,
  mirror: Mirror,
  progress: Progress,
): { files: WrittenFile[]; before: number } | null {
  progress.phase("comparing the build with the mirror of the remote database, and writing what changed");
  const replica = new Replica(join(dir, REPLICA_FILE), {
    path: join(mirror.dir, REPLICA_FILE),
    emptySize: mirror.record.emptySize,
  });
  let kept = false;
  try {
    const before = replica.size();
    const over = { passed: false };
    const statements = bounded(
      differenceStatements(build, () => replica.withDataBytes(meta), mirror.record.documents),
      MAX_DIFFERENCE_BYTES,
      over,
    );
    const what = `what changed since ${mirror.record.version}`;
    // A generator: the merges are chosen once the difference ran in the replica.
    const parts = (function* () {
      yield { what, statements, last: true };
      yield* indexMerges(replica, over);
    })();
    const files = writeRemoteFiles(parts, version, dir, replica, () => undefined, false);
    if (over.passed || files.length === 0) return null;
    kept = true;
    return { files, before };
  } finally {
    replica.close(kept);
  }
}

/**
 * Applies `files` from number `from` to `to` (from 0), each said in progress; a failure stops there,
 * in one line that `failure` writes (what is served then, and what the same command does).
 */
async function applyFiles(
  dir: string,
  files: readonly WrittenFile[],
  [from, to]: [number, number],
  database: RemoteDatabase,
  progress: Progress,
  failure: (file: WrittenFile, reason: string) => string,
) {
  const said = [];
  for (const [n, file] of files.entries()) {
    if (n < from || n > to) continue;
    progress.phase(`remote file ${n + 1} of ${files.length}: ${file.what}`);
    try {
      said.push(await database.apply(join(dir, file.name)));
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ImportError(failure(file, reason), { saysWhatIsServed: true });
    }
  }
  return said;
}

/** Merges sent alone did not apply: the data is current, and the same command merges again. */
const leftMergeFailed = (file: WrittenFile, reason: string) =>
  `merging the search indexes did not finish: ${file.name} (${file.what}) did not apply: ${reason}; ` +
  "the data served is current and unchanged; run the same command again to merge them";

export interface RefreshFigures {
  cost: RemoteCost;
  bytes: number;
  /** The rows D1 counted as read to read the mirror back from the remote first, where it was. */
  readBack?: number;
  applied?: Pick<AppliedFiles, "rowsWritten" | "sizeAfter" | "peakSize">;
  /** With `swapLater`: the file of what changed and the merges, left to apply (remote-pending.ts). */
  pending?: PendingRemote;
}

/**
 * Sends what changed since the data the remote serves, when the mirror holds it and the
 * difference fits one file; null (nothing sent, `dir` empty) when a full import is needed.
 * `dropBuild` is called once the build is no longer read.
 */
export async function refreshRemote(
  build: Database.Database,
  dropBuild: () => void,
  meta: [string, string][],
  version: string,
  dir: string,
  remote: {
    database: RemoteDatabase;
    state: RemoteState | null;
    size: RemoteSize;
    mirror: string;
    /** The remote database's name, as wrangler knows it. */
    name: string;
  },
  options: { dryRun: boolean; plan: Plan; swapLater: boolean },
  progress: Progress,
): Promise<RefreshFigures | null> {
  const mirror =
    usableMirror(remote.state, remote.mirror) ?? (await mirrorFromRemote(build, remote, version, options, progress));
  if (mirror === null) return null;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const detach = attachMirror(build, mirror.dir);
  let written: ReturnType<typeof writeDifference>;
  try {
    written = writeDifference(build, meta, version, dir, mirror, progress);
  } finally {
    detach();
  }
  if (written === null) {
    progress.line("(what changed is larger than one file: a full import)");
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  keepDocuments(build, dir);
  dropBuild();
  const cost = refreshCost(written.files, written.before, remote.size);
  progress.line(costLine(cost, null));
  const refusal = planRefusal(cost, options.plan);
  if (refusal !== null || options.dryRun) rmSync(dir, { recursive: true, force: true });
  if (refusal !== null) throw refusal;
  const read = mirror.rowsRead === undefined ? {} : { readBack: mirror.rowsRead };
  if (options.dryRun) return { cost, bytes: cost.bytes, ...read };
  const { name, mirror: mirrorDir, database } = remote;
  const { emptySize } = mirror.record;
  const files = written.files;
  const pending = { database: name, mirror: mirrorDir, dir, version, emptySize, files, serving: 0, refresh: true };
  if (options.swapLater) return { cost, bytes: cost.bytes, ...read, pending };
  const here = { database, named: "" };
  const said = [...(await servePending(pending, here, progress)), ...(await finishPending(pending, here, progress))];
  return { cost, bytes: cost.bytes, applied: appliedFigures(said), ...read };
}

/** Where merges alone run: nothing to size (the remote's data does not change). */
const NO_REPLICA = { begin: () => undefined, run: () => undefined, end: () => 0 };

/**
 * Each index's pages (the rows of its %_data table): from the mirror's replica where there is one
 * that holds what the remote serves, else read from the remote (a row read a page).
 */
async function indexPages(
  remote: { database: RemoteDatabase; state: RemoteState | null; mirror: string },
  tables: readonly string[],
): Promise<Map<string, number>> {
  const mirror = usableMirror(remote.state, remote.mirror);
  const pages = new Map<string, number>();
  for (const table of tables) {
    const sql = `SELECT count(*) AS n FROM ${table}_data`;
    if (mirror === null) {
      pages.set(table, Number((await remote.database.read(sql)).rows[0]?.n) || 0);
      continue;
    }
    const replica = new Database(join(mirror.dir, REPLICA_FILE), { readonly: true });
    pages.set(table, replica.prepare(sql).pluck().get() as number);
    replica.close();
  }
  return pages;
}

/**
 * A remote that holds this data version with search indexes in more than one segment (a refresh
 * whose merges did not finish): their merges alone, sized by the index's pages, written into `dir`
 * and applied. Returns the indexes merged (none with a dry run).
 */
export async function mergeLeftSegments(
  remote: { database: RemoteDatabase; state: RemoteState | null; mirror: string },
  dir: string,
  version: string,
  dryRun: boolean,
  progress: Progress,
): Promise<string[]> {
  const tables = [...(remote.state?.segments ?? [])].filter(([, n]) => n > 1).map(([table]) => table);
  if (tables.length === 0) return [];
  const which = `${tables.join(", ")} ${tables.length === 1 ? "is" : "are"} in more than one segment (merges that did not finish)`;
  if (dryRun) {
    progress.line(`(the remote holds this data; ${which})`);
    return [];
  }
  const pages = await indexPages(remote, tables);
  const parts = tables.map((table) => ({
    what: `merging ${table}`,
    statements: mergeSteps(table, pages.get(table) ?? 0),
    perFile: MERGES_PER_FILE,
    joins: "merges" as const,
  }));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  try {
    const files = writeRemoteFiles(parts, version, dir, NO_REPLICA, () => undefined, false);
    progress.line(
      `The remote holds this data; ${which}: merging them, ${files.length} file${files.length === 1 ? "" : "s"}.`,
    );
    await applyFiles(dir, files, [0, files.length - 1], remote.database, progress, leftMergeFailed);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return tables;
}
