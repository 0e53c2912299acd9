/**
 * A remote import that sends only what changed (docs/deploy.md#a-refresh-that-writes-what-changed):
 * when the mirror holds what the remote serves (remote-mirror.ts), the difference between the
 * build and the mirror (remote-difference.ts) is written into one file — D1 applies a file whole
 * or not at all, so every read sees the old data or the new, and a failed refresh is sent again —
 * and run in a copy of the mirror's replica, for the sizes. Its cost is said in one line and checked
 * against the plan as a full import's is. Once it applied, that copy and the build's documents are
 * the mirror. No usable mirror (remote-mirror.ts), or a difference over one file: a full import.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { ImportError } from "../problems.ts";
import type { Progress } from "../progress.ts";
import type { RemoteState } from "../remote-database.ts";
import { attachMirror, differenceStatements } from "./remote-difference.ts";
import {
  MAX_FILE_BYTES,
  writeRemoteFiles,
  type AppliedFiles,
  type RemoteDatabase,
  type WrittenFile,
} from "./remote-files.ts";
import { keepDocuments, promoteToMirror, REPLICA_FILE, usableMirror, type Mirror } from "./remote-mirror.ts";
import { costLine, planRefusal, refreshCost, type Plan, type RemoteCost, type RemoteSize } from "./remote-plan.ts";
import { Replica } from "./remote-replica.ts";
import type { RemoteStatement } from "./remote.ts";

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

/** The difference written into `dir` (with the replica it ran in); null when it is larger than a file. */
function writeDifference(
  build: Database.Database,
  meta: [string, string][],
  version: string,
  dir: string,
  mirror: Mirror,
  progress: Progress,
): { file: WrittenFile; before: number } | null {
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
      differenceStatements(build, () => replica.withDataBytes(meta)),
      MAX_DIFFERENCE_BYTES,
      over,
    );
    const what = `what changed since ${mirror.record.version}`;
    const [file] = writeRemoteFiles([{ what, statements, last: true }], version, dir, replica, () => undefined);
    if (over.passed || file === undefined) return null;
    kept = true;
    return { file, before };
  } finally {
    replica.close(kept);
  }
}

/** Applies the refresh's one file; a failure says, in one line, that nothing served changed. */
async function applyRefresh(dir: string, file: WrittenFile, database: RemoteDatabase, progress: Progress) {
  progress.phase(`remote file 1 of 1: ${file.what}`);
  try {
    return await database.apply(join(dir, file.name));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImportError(
      `the remote refresh (${file.name}, ${file.what}) did not apply: ${reason}; the data served before is ` +
        "unchanged; run the same command again to send it again",
      { saysWhatIsServed: true },
    );
  }
}

export interface RefreshFigures {
  cost: RemoteCost;
  bytes: number;
  applied?: Pick<AppliedFiles, "rowsWritten" | "sizeAfter" | "peakSize">;
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
  remote: { database: RemoteDatabase; state: RemoteState | null; size: RemoteSize; mirror: string },
  options: { dryRun: boolean; plan: Plan },
  progress: Progress,
): Promise<RefreshFigures | null> {
  const mirror = usableMirror(remote.state, remote.mirror);
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
  const cost = refreshCost(written.file, written.before, remote.size);
  progress.line(costLine(cost, null));
  const refusal = planRefusal(cost, options.plan);
  if (refusal !== null || options.dryRun) rmSync(dir, { recursive: true, force: true });
  if (refusal !== null) throw refusal;
  if (options.dryRun) return { cost, bytes: cost.bytes };
  const said = await applyRefresh(dir, written.file, remote.database, progress);
  promoteToMirror(dir, version, mirror.record.emptySize, remote.mirror);
  rmSync(dir, { recursive: true, force: true });
  const applied = { rowsWritten: said.rowsWritten, sizeAfter: said.sizeAfter, peakSize: said.sizeAfter };
  return { cost, bytes: cost.bytes, applied };
}
