/**
 * One import at a time per database (docs/import.md#one-import-at-a-time). Two imports into one
 * database dropped each other's stage tables and both failed; now an import (npm start's, and
 * npm run venues' too) takes its database's lock before it reads what the database serves or
 * stages anything, and a second one waits until the first ends, saying whom it waits for.
 *
 * The lock is SQLite's write lock on a small file beside the database (`<database>.import-lock`),
 * held by an open BEGIN IMMEDIATE for the whole import: the operating system's lock on that file,
 * which it releases when the process ends, however it ends. So a lock whose process is gone is free
 * for the next import, which says that it takes it over. Who holds the lock (pid, since when, which
 * command) is written beside it once it is taken (`<lock>.json`) and deleted when it is released:
 * a file still there when the lock is taken names an import that ended without releasing it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import Database from "better-sqlite3";
import { processRuns, ROOT } from "../tools/project.ts";
import { ImportError } from "./problems.ts";
import type { Progress } from "./progress.ts";
import type { Target } from "./options.ts";
import { d1Database, localD1File } from "./wrangler.ts";

interface Holder {
  pid: number;
  since: string;
  command: string;
}

/** The locks the current chain of calls holds already (the import that npm start runs under its own). */
const held = new AsyncLocalStorage<ReadonlySet<string>>();

/**
 * The lock connections held, referenced from here: a connection that only a pending import's
 * chain of promises references would be closed by the garbage collector, which releases the lock
 * (seen under Node 22 with an import that waits on nothing but a timer).
 */
const holding = new Set<Database.Database>();

/** How often a waiting import tries the lock again. */
const RETRY_MS = 250;

/** The lock file of a target: beside the SQLite file, or in the checkout for the remote database. */
function lockPathOf(target: Target): string {
  if (target.kind === "file") return `${resolve(target.path)}.import-lock`;
  if (target.kind === "local") return `${localD1File(d1Database().id, target.persistTo)}.import-lock`;
  return join(ROOT, ".wrangler", "import", `remote-${target.database?.id ?? d1Database().id}.import-lock`);
}

const describeTarget = (target: Target): string =>
  target.kind === "file" ? target.path : `the ${target.kind === "local" ? "local" : "remote"} D1 database`;

/** How the running process was started, for the others to read: `npm run db:import -- --venues x`. */
function commandLine(): string {
  const script = relative(ROOT, process.argv[1] ?? "node");
  const args = process.argv.slice(2).join(" ");
  const event = process.env.npm_lifecycle_event;
  // npm names the script it runs; a script run otherwise (by npx, a test) is named by its file.
  const npm = event !== undefined && (process.env.npm_lifecycle_script ?? "").includes(script);
  const line = !npm ? `${script} ${args}` : `${event === "start" ? "npm start" : `npm run ${event}`} -- ${args}`;
  const shown = line.replace(/ (-- )?$/, "");
  return shown.length > 200 ? `${shown.slice(0, 199)}…` : shown;
}

function readHolder(infoPath: string): Holder | null {
  try {
    return JSON.parse(readFileSync(infoPath, "utf8")) as Holder;
  } catch {
    return null;
  }
}

const about = (h: Holder) => `pid ${h.pid}, since ${h.since.slice(0, 19).replace("T", " ")} UTC: ${h.command}`;

/** The lock's connection inside BEGIN IMMEDIATE, or null while another connection holds it. */
function tryLock(path: string): Database.Database | null {
  const db = new Database(path, { timeout: 0 });
  try {
    db.exec("BEGIN IMMEDIATE");
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code === "SQLITE_BUSY") return null;
    throw error;
  }
}

/** Takes the lock at `path`, waiting while another import holds it; returns its release. */
async function acquire(path: string, where: string, progress: Progress): Promise<() => void> {
  const infoPath = `${path}.json`;
  const started = Date.now();
  let waitingFor: string | null = null;
  let db = tryLock(path);
  while (db === null) {
    const holder = readHolder(infoPath);
    const who = holder !== null && processRuns(holder.pid) ? about(holder) : "starting";
    if (who !== waitingFor) {
      progress.line(`Waiting for the import into ${where} that is running (${who}) to end; this one goes on then ...`);
      waitingFor = who;
    }
    await new Promise((r) => setTimeout(r, RETRY_MS));
    db = tryLock(path);
  }
  const left = readHolder(infoPath);
  if (left !== null) {
    progress.line(`The import into ${where} of ${about(left)} is gone without ending: its lock is taken over.`);
  } else if (waitingFor !== null) {
    progress.line(`The other import into ${where} ended after ${((Date.now() - started) / 1000).toFixed(0)} s.`);
  }
  const mine: Holder = { pid: process.pid, since: new Date().toISOString(), command: commandLine() };
  writeFileSync(`${infoPath}.${process.pid}`, JSON.stringify(mine));
  renameSync(`${infoPath}.${process.pid}`, infoPath);
  const lock = db;
  holding.add(lock);
  return () => {
    rmSync(infoPath, { force: true });
    lock.exec("ROLLBACK");
    lock.close();
    holding.delete(lock);
  };
}

/**
 * Runs `work` holding the import lock of `target`: at once when this chain of calls holds it
 * already, else once no other import holds it.
 */
export async function withImportLock<T>(target: Target, progress: Progress, work: () => Promise<T>): Promise<T> {
  const path = lockPathOf(target);
  const mine = held.getStore();
  if (mine?.has(path) === true) return work();
  // The folders of wrangler's state and of the import's work are ours to make; a file's is the user's.
  if (target.kind !== "file") mkdirSync(dirname(path), { recursive: true });
  else if (!existsSync(dirname(path)))
    throw new ImportError(`${target.path}: the folder ${dirname(path)} does not exist`);
  const release = await acquire(path, describeTarget(target), progress);
  try {
    return await held.run(new Set([...(mine ?? []), path]), work);
  } finally {
    release();
  }
}
