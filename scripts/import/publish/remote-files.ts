/**
 * The SQL files of a remote import (remote.ts makes their statements): written into a folder as a
 * stream, a statement at a time, so that memory holds one statement (under 100 KB) and never a
 * file's text; then applied in order, each whole or not at all, through `wrangler d1 execute --file`.
 *
 * Resumable: every file records itself in the table import_progress (file number, data version)
 * in the same file, so a failed or interrupted upload is run again from the first file that did
 * not apply (none applies twice), and the swap is still one file near the end. The folder is kept
 * until every file applied: a run with the same data version uploads the files it holds.
 */
import { closeSync, existsSync, openSync, readdirSync, readSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ImportError } from "../problems.ts";
import type { Progress } from "../progress.ts";
import { literal, type RemotePart } from "./remote.ts";

/** The files' size at most: each is uploaded, then ingested by D1, in one request. */
const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** What the folder holds once every file is written (a folder without it is written again). */
export const COMPLETE = "complete";

/** Where a remote import's files are applied: wrangler against D1 (wrangler.ts). */
export interface RemoteDatabase {
  /** The file numbers that already applied for this data version. */
  applied(version: string): Promise<Set<number>>;
  /** Applies one file, whole or not at all; an ImportError says what went wrong, in one line. */
  apply(path: string): Promise<void>;
}

interface OpenFile {
  fd: number;
  bytes: number;
  statements: number;
}

const fileName = (n: number) => `${String(n).padStart(5, "0")}.sql`;

function openFile(dir: string, n: number, what: string): OpenFile {
  const fd = openSync(join(dir, fileName(n)), "w");
  const head = `-- ${what}\n`;
  writeSync(fd, head);
  return { fd, bytes: Buffer.byteLength(head), statements: 0 };
}

/** Ends file `n` with the row that records it as applied (but the last file, which drops that table). */
function closeFile(file: OpenFile, n: number, version: string, last: boolean): void {
  if (!last) {
    writeSync(file.fd, `INSERT OR REPLACE INTO import_progress (file, version) VALUES (${n}, ${literal(version)});\n`);
  }
  closeSync(file.fd);
}

/**
 * Writes the parts into numbered files in `dir`, each statement as it comes: a part starts a file
 * of its own and continues into the next when a file would pass MAX_FILE_BYTES (or the part's
 * statements a file). Returns the number of files; `onFile` hears of each one written.
 */
export function writeRemoteFiles(
  parts: Iterable<RemotePart>,
  version: string,
  dir: string,
  onFile: (written: number) => void,
): number {
  let n = 0;
  const close = (file: OpenFile, last: boolean) => {
    closeFile(file, n, version, last);
    onFile(++n);
  };
  for (const part of parts) {
    let file: OpenFile | null = null;
    for (const statement of part.statements) {
      const line = `${statement};\n`;
      const size = Buffer.byteLength(line);
      if (file !== null && (file.bytes + size > MAX_FILE_BYTES || file.statements === part.perFile)) {
        close(file, false);
        file = null;
      }
      file ??= openFile(dir, n, part.what);
      writeSync(file.fd, line);
      file.bytes += size;
      file.statements++;
    }
    if (file !== null) close(file, part.last === true);
  }
  return n;
}

/** The first line of a file, without reading the rest: its `-- what` comment. */
function whatOf(path: string): string {
  const fd = openSync(path, "r");
  try {
    const head = Buffer.alloc(512);
    const read = readSync(fd, head, 0, head.length, 0);
    return (head.subarray(0, read).toString("utf8").split("\n", 1)[0] ?? "").replace(/^-- /, "");
  } finally {
    closeSync(fd);
  }
}

/** The written files in order, with their bytes. */
function remoteFilesIn(dir: string): { files: string[]; bytes: number } {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort();
  return { files, bytes: files.reduce((sum, f) => sum + statSync(join(dir, f)).size, 0) };
}

/** Whether `dir` holds every file of a remote import, written (a run that failed uploading resumes with them). */
export const remoteFilesComplete = (dir: string): boolean => existsSync(join(dir, COMPLETE));

/**
 * A file that did not apply, in one line: which, what went wrong, what is served, how to go on.
 * The last file only drops the old tables: the swap before it has applied.
 */
function failedFile(error: unknown, n: number, files: string[], what: string): ImportError {
  const reason = error instanceof Error ? error.message : String(error);
  const served =
    n === files.length - 1
      ? "the new data is served, the old tables are left over"
      : "the data served before is unchanged";
  return new ImportError(
    `remote file ${n + 1} of ${files.length} (${files[n]}, ${what}) did not apply: ${reason}; ${served}; ` +
      `run the same command again to resume from file ${n + 1}`,
    { saysWhatIsServed: true },
  );
}

/**
 * Applies every file in `dir` that has not applied yet, in order (an estimate of the time first),
 * then deletes the folder.
 */
export async function applyRemoteFiles(
  dir: string,
  version: string,
  database: RemoteDatabase,
  progress: Progress,
): Promise<{ files: number; bytes: number; skipped: number }> {
  const { files, bytes } = remoteFilesIn(dir);
  progress.line(
    `Remote import: ${files.length} files, ${(bytes / 2 ** 20).toFixed(0)} MiB of SQL. At an assumed 2 MiB/s for upload and ` +
      `ingestion (not measured from here) that is about ${Math.ceil(bytes / 2 ** 21 / 60)} min; ` +
      "an interrupted run resumes where it stopped.",
  );
  const done = await database.applied(version);
  let skipped = 0;
  for (const [n, f] of files.entries()) {
    if (done.has(n)) {
      skipped++;
      continue;
    }
    const what = whatOf(join(dir, f));
    progress.phase(`remote file ${n + 1} of ${files.length}: ${what}`);
    try {
      await database.apply(join(dir, f));
    } catch (error) {
      throw failedFile(error, n, files, what);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  return { files: files.length, bytes, skipped };
}
