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
import { closeSync, existsSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { ImportError } from "../problems.ts";
import type { Progress } from "../progress.ts";
import { literal, type RemotePart } from "./remote.ts";

/** The files' size at most: each is uploaded, then ingested by D1, in one request. */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
/** What the folder holds once every file is written (a folder without it is written again). */
const COMPLETE = "complete";

/** What D1 said of a file it applied (`wrangler d1 execute --json`): null where it did not say. */
interface Applied {
  rowsWritten: number | null;
  /** The database's size after the file, bytes. */
  sizeAfter: number | null;
}

/** Where a remote import's files are applied: wrangler against D1 (wrangler.ts). */
export interface RemoteDatabase {
  /** The file numbers that already applied for this data version. */
  applied(version: string): Promise<Set<number>>;
  /** Applies one file, whole or not at all; an ImportError says what went wrong, in one line. */
  apply(path: string): Promise<Applied>;
  /** Runs one query: its rows, the rows D1 counted as read, and the bytes of its answer. */
  read(sql: string): Promise<RemoteRows>;
}

/** What a query of the remote database answered. */
export interface RemoteRows {
  rows: Record<string, unknown>[];
  rowsRead: number;
  bytes: number;
}

/** A file written: its bytes, the rows D1 counts as written when it applies, the replica's size after it. */
export interface WrittenFile {
  name: string;
  what: string;
  bytes: number;
  rows: number;
  size: number;
}

/** Where the statements also run as they are written (remote-replica.ts), for the sizes. */
export interface StatementSink {
  begin(): void;
  run(sql: string): void;
  /** Ends a file; the bytes the database holds then. */
  end(): number;
}

interface OpenFile {
  fd: number;
  what: string;
  /** The kind of parts it holds, which the next part of that kind continues (RemotePart.joins). */
  joins: string | undefined;
  bytes: number;
  rows: number;
  statements: number;
}

const fileName = (n: number) => `${String(n).padStart(5, "0")}.sql`;

/** Writes files and runs their statements in the sink, one at a time. */
class FileWriter {
  readonly written: WrittenFile[] = [];
  private file: OpenFile | null = null;

  constructor(
    private readonly dir: string,
    private readonly version: string,
    private readonly sink: StatementSink,
    private readonly onFile: (file: WrittenFile) => void,
    /** Whether each file records itself in import_progress (a refresh's files do not: it is sent again whole). */
    private readonly resumable: boolean,
  ) {}

  statement(sql: string, rows: number, part: RemotePart): void {
    const line = `${sql};\n`;
    const size = Buffer.byteLength(line);
    if (this.file !== null && (this.file.bytes + size > MAX_FILE_BYTES || this.file.statements === part.perFile)) {
      this.close(false);
    }
    this.file ??= this.open(part.what, part.joins);
    if (!this.file.what.endsWith(part.what)) this.file.what = `${this.file.what.split(" … ")[0] ?? ""} … ${part.what}`;
    writeSync(this.file.fd, line);
    this.sink.run(sql);
    this.file.bytes += size;
    this.file.rows += rows;
    this.file.statements++;
  }

  private open(what: string, joins: string | undefined): OpenFile {
    const fd = openSync(join(this.dir, fileName(this.written.length)), "w");
    const head = `-- ${what}\n`;
    writeSync(fd, head);
    this.sink.begin();
    return { fd, what, joins, bytes: Buffer.byteLength(head), rows: 0, statements: 0 };
  }

  /** Ends the open file before a part that does not continue it. */
  before(part: RemotePart): void {
    if (this.file !== null && (part.joins === undefined || this.file.joins !== part.joins)) this.close(false);
  }

  /** Ends the open file with the row that records it as applied (but the last, which drops that table). */
  close(last: boolean): void {
    const file = this.file;
    if (file === null) return;
    const n = this.written.length;
    if (!last && this.resumable) {
      const record = `INSERT OR REPLACE INTO import_progress (file, version) VALUES (${n}, ${literal(this.version)})`;
      writeSync(file.fd, `${record};\n`);
      this.sink.run(record);
      file.bytes += Buffer.byteLength(record) + 2;
      file.rows += 1;
    }
    closeSync(file.fd);
    this.file = null;
    const written = { name: fileName(n), what: file.what, bytes: file.bytes, rows: file.rows, size: this.sink.end() };
    this.written.push(written);
    this.onFile(written);
  }
}

/**
 * Writes the parts into numbered files in `dir`, each statement as it comes, and runs it in `sink`:
 * a part starts a file of its own, or continues the open one when both are of one kind
 * (RemotePart.joins), and continues into the next when a file would pass MAX_FILE_BYTES (or the
 * part's statements a file). Returns the files; `onFile` hears of each one. Files not `resumable`
 * record nothing in import_progress.
 */
export function writeRemoteFiles(
  parts: Iterable<RemotePart>,
  version: string,
  dir: string,
  sink: StatementSink,
  onFile: (file: WrittenFile) => void,
  resumable = true,
): WrittenFile[] {
  const writer = new FileWriter(dir, version, sink, onFile, resumable);
  for (const part of parts) {
    writer.before(part);
    for (const { sql, rows } of part.statements) writer.statement(sql, rows, part);
    if (part.joins === undefined) writer.close(part.last === true);
  }
  writer.close(false);
  return writer.written;
}

/** What a complete folder holds besides its files (in COMPLETE): the files as written, and the replica's sizes. */
export interface RemoteFiles {
  version: string;
  /** The bytes the replica held before the first file: the migrated schema alone. */
  emptySize: number;
  files: WrittenFile[];
}

/** Marks the folder complete: every file written, with their figures. */
export function markComplete(dir: string, written: RemoteFiles): void {
  writeFileSync(join(dir, COMPLETE), `${JSON.stringify(written, null, 1)}\n`);
}

/**
 * The files of `dir` when every one of them is written (a run that failed uploading resumes with
 * them); null otherwise, or when they were written before their figures were kept.
 */
export function completeFiles(dir: string): RemoteFiles | null {
  if (!existsSync(join(dir, COMPLETE))) return null;
  try {
    const written = JSON.parse(readFileSync(join(dir, COMPLETE), "utf8")) as RemoteFiles;
    return Array.isArray(written.files) && written.files.every((f) => existsSync(join(dir, f.name))) ? written : null;
  } catch {
    return null;
  }
}

/**
 * A file that did not apply, in one line: which, what went wrong, what is served, how to go on.
 * The last file only drops the old tables: the swap before it has applied.
 */
export function failedFile(error: unknown, n: number, files: readonly WrittenFile[]): ImportError {
  const reason = error instanceof Error ? error.message : String(error);
  const served =
    n === files.length - 1
      ? "the new data is served, the old tables are left over"
      : "the data served before is unchanged";
  return new ImportError(
    `remote file ${n + 1} of ${files.length} (${files[n]?.name}, ${files[n]?.what}) did not apply: ${reason}; ${served}; ` +
      `run the same command again to resume from file ${n + 1}`,
    { saysWhatIsServed: true },
  );
}

/** A refresh's file of what changed, and its merges (remote-refresh.ts): what a failure of each says. */
/** The refresh's file of what changed did not apply: nothing served changed. */
export const differenceFailed = (file: WrittenFile, reason: string) =>
  `the remote refresh (${file.name}, ${file.what}) did not apply: ${reason}; the data served before is ` +
  "unchanged; run the same command again to send it again";

/**
 * A merge after the data changed did not apply (the mirror already holds the new data): the new
 * data is served with the index in more segments, which the same command merges (mergeLeftSegments).
 */
export const mergeFailed = (file: WrittenFile, reason: string) =>
  `the remote refresh applied, and the new data is served, but ${file.name} (${file.what}) did not apply: ` +
  `${reason}; searches by name read more until they are merged: run the same command again to merge them`;

/** What applying the files did, as D1 said it (null where wrangler's answer did not say). */
export interface AppliedFiles {
  files: number;
  skipped: number;
  bytes: number;
  rowsWritten: number | null;
  sizeAfter: number | null;
  peakSize: number | null;
}

const sumOrNull = (values: readonly (number | null)[]) =>
  values.some((v) => v === null) ? null : values.reduce<number>((a, v) => a + (v ?? 0), 0);

/** Applies every file of `dir` before file `before` (from 0; all by default) that has not applied yet (`done`), in order. */
export async function applyRemoteFiles(
  dir: string,
  written: RemoteFiles,
  done: ReadonlySet<number>,
  database: RemoteDatabase,
  progress: Progress,
  before = written.files.length,
): Promise<AppliedFiles> {
  const { files } = written;
  const said: Applied[] = [];
  for (const [n, f] of files.entries()) {
    if (done.has(n) || n >= before) continue;
    progress.phase(`remote file ${n + 1} of ${files.length}: ${f.what}`);
    try {
      said.push(await database.apply(join(dir, f.name)));
    } catch (error) {
      throw failedFile(error, n, files);
    }
  }
  return {
    files: files.length,
    skipped: files.length - said.length,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    ...appliedFigures(said),
  };
}

/** What D1 said of files applied one after another: the rows written summed, the size after the last and at most. */
export function appliedFigures(said: readonly Applied[]): Pick<AppliedFiles, "rowsWritten" | "sizeAfter" | "peakSize"> {
  const sizes = said.map((a) => a.sizeAfter);
  return {
    rowsWritten: sumOrNull(said.map((a) => a.rowsWritten)),
    sizeAfter: sizes.at(-1) ?? null,
    peakSize: sizes.some((v) => v === null) || sizes.length === 0 ? null : Math.max(...(sizes as number[])),
  };
}
