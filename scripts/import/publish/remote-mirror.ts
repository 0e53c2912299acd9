/**
 * The mirror of the remote database (docs/deploy.md#a-refresh-that-writes-what-changed): after a
 * remote import applied, the replica its statements ran in (remote-replica.ts: what the remote
 * holds, table for table) and the FTS documents the build indexed (its side files: the FTS tables
 * are contentless, and deleting a document takes its text), with the data version they hold. The
 * next remote import compares its build with them and sends only the difference (remote-refresh.ts).
 *
 * Kept in .wrangler/import/mirror-<database id>, or where IMPORT_MIRROR_DIR says (the tests give
 * each stand-in database its own). Used only while the remote serves that very data version and
 * the migrations are the same: anything else gets a full import.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { ROOT } from "../../tools/project.ts";
import { attachedPath, SIDE_FILES, type SideFile } from "../phases/build-file.ts";
import { migrationFiles } from "../migrations.ts";
import { d1Database } from "../wrangler.ts";
import type { RemoteState } from "../remote-database.ts";

/** The replica's file name, in an import's folder and in the mirror. */
export const REPLICA_FILE = "replica.sqlite";
const RECORD_FILE = "mirror.json";

/** What the mirror holds. */
export interface MirrorRecord {
  /** The data version the remote serves when the mirror applies. */
  version: string;
  /** The migrations the remote had then. */
  migrations: string[];
  /** The replica's bytes with the migrated schema alone. */
  emptySize: number;
  /**
   * "terms" where the documents were read back from the remote's indexes (remote-mirror-read.ts):
   * each is its distinct terms (fts-terms.ts), which a build's documents are compared as.
   */
  documents?: "terms";
}

/** A mirror that holds what the remote serves: its folder and record. */
export interface Mirror {
  dir: string;
  record: MirrorRecord;
  /** The rows D1 counted as read, where this run read it back from the remote (remote-mirror-read.ts). */
  rowsRead?: number;
}

/** The mirror of the remote database `databaseId`: IMPORT_MIRROR_DIR names the main database's (a venue database's beside it). */
export function mirrorDir(databaseId: string): string {
  const given = process.env.IMPORT_MIRROR_DIR;
  if (given === undefined || given === "") return join(ROOT, ".wrangler", "import", `mirror-${databaseId}`);
  return databaseId === d1Database().id ? given : `${given}-${databaseId}`;
}

/** A side file of the build's FTS documents, by name, in a folder. */
export const docsFile = (dir: string, side: SideFile): string => join(dir, `docs-${side}.sqlite`);

/** Writes what the mirror in `dir` holds: its files are all there first. */
export function writeMirrorRecord(dir: string, record: MirrorRecord): void {
  writeFileSync(join(dir, RECORD_FILE), `${JSON.stringify(record, null, 1)}\n`);
}

/** Copies the build's FTS documents into `dir` (the build is dropped before the upload). */
export function keepDocuments(build: Database.Database, dir: string): void {
  for (const side of SIDE_FILES) copyFileSync(attachedPath(build, side), docsFile(dir, side));
}

/** The mirror, when it holds what the remote serves now; null otherwise. */
export function usableMirror(state: RemoteState | null, dir: string): Mirror | null {
  const files = [join(dir, RECORD_FILE), join(dir, REPLICA_FILE), ...SIDE_FILES.map((s) => docsFile(dir, s))];
  if (state === null || !files.every((f) => existsSync(f))) return null;
  let record: MirrorRecord;
  try {
    record = JSON.parse(readFileSync(join(dir, RECORD_FILE), "utf8")) as MirrorRecord;
  } catch {
    return null;
  }
  const same = record.migrations.join("\n") === migrationFiles().join("\n");
  return same && state.meta.get("data_version") === record.version ? { dir, record } : null;
}

/** Moves a file, across file systems too. */
function move(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    copyFileSync(from, to);
    rmSync(from);
  }
}

/**
 * Makes the replica and documents in `dir` the mirror, once the remote holds them (their import
 * applied); the mirror before is gone first, so that a failure half way leaves none.
 */
export function promoteToMirror(dir: string, version: string, emptySize: number, mirror: string): void {
  rmSync(mirror, { recursive: true, force: true });
  const kept = [join(dir, REPLICA_FILE), ...SIDE_FILES.map((s) => docsFile(dir, s))];
  if (!kept.every((f) => existsSync(f))) return;
  mkdirSync(mirror, { recursive: true });
  move(join(dir, REPLICA_FILE), join(mirror, REPLICA_FILE));
  for (const side of SIDE_FILES) move(docsFile(dir, side), docsFile(mirror, side));
  writeMirrorRecord(mirror, { version, migrations: migrationFiles(), emptySize });
}
