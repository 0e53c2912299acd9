/**
 * `npm run db:import -- --shards N [--main-venues every|none] [--database FILE]`
 * (docs/deploy.md#past-one-database): the main database (the local D1's, or FILE), which keeps
 * every city and, unless `--main-venues none` (main-venues.ts), every venue too, so that it answers
 * what the merges of several venue databases do not; then each venue database (the local D1's of
 * its binding, written into wrangler.shards.toml: config.ts; or beside FILE: shardFile), each an
 * import of the same sources that keeps the venues of its regions. Every one of them plans alike
 * from the same placed venues (venues.ts); the main one writes the manifest, which names each venue
 * database's data version (meta.ts), and a venue database that holds it already is skipped as
 * current. Each runs in a process of its own (child.ts), one after the other; the venue databases'
 * builds start from the main one's reading of the sources (read-once.ts).
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { mkdirSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import {
  MAIN_HOLDS_EVERY_VENUE,
  MAIN_HOLDS_NO_VENUE,
  shardFile,
  type MainVenues,
} from "../../../src/data-contract/shards.ts";
import { ImportError } from "../problems.ts";
import { WORK_DIR, type ImportOptions, type ImportSummary, type Target } from "../run.ts";
import { localD1File, shardDatabases, type BoundDatabase } from "../wrangler.ts";
import { SHARDS_CONFIG, writeShardsConfig } from "./config.ts";
import { FREE_DATABASES, FREE_QUERIES_A_REQUEST } from "../publish/remote-plan.ts";
import { dropRead } from "./read-once.ts";
import { IMPORT_NODE_FLAGS } from "../../tools/project.ts";

export interface ShardedSummary {
  main: ImportSummary;
  /** Per venue database, from 1: its file and its import. */
  shards: { file: string; summary: ImportSummary }[];
}

const CHILD = fileURLToPath(new URL("child.ts", import.meta.url));

/**
 * One import in a process of its own, its progress passed through; its summary, or its failure's
 * line (its last line of errors; a process stopped by a signal, as a person's Ctrl-C or the system
 * stops it, says so rather than the progress line it was at).
 */
function importApart(options: ImportOptions, quiet: boolean): Promise<ImportSummary> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  const args = [...IMPORT_NODE_FLAGS, "--import", tsx, CHILD, JSON.stringify({ options, quiet })];
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
    process.stderr.write(chunk);
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) resolve(JSON.parse(out) as ImportSummary);
      else if (signal !== null) reject(new ImportError(`its import was stopped (${signal})`));
      else reject(new ImportError(err.trim().split("\n").at(-1) ?? `the import stopped (exit code ${code})`));
    });
  });
}

/** The target of venue database `shard` (from 1), and where it is: beside FILE, the local D1 file of its binding, or its remote database. */
function shardTarget(target: Target, databases: readonly BoundDatabase[], shard: number): [Target, string] {
  const database = databases[shard - 1];
  if (target.kind === "remote") {
    const named = { name: database?.name ?? "", id: database?.id ?? "" };
    return [{ kind: "remote", database: named }, named.name];
  }
  if (target.kind === "file")
    return [{ kind: "file", path: shardFile(target.path, shard) }, shardFile(target.path, shard)];
  const path = localD1File(database?.id ?? "", target.persistTo);
  mkdirSync(dirname(path), { recursive: true });
  return [{ kind: "file", path }, path];
}

/**
 * The most D1 calls one request makes where the main database holds no venue: a suggestion with a
 * typo merged from every venue database, per venue database and besides them (measured:
 * docs/deploy.md#past-one-database).
 */
const MERGED_CALLS = { each: 8, beside: 4 };

/** On Workers Free, a main database without venues: its merged requests within the D1 calls a request may make. */
function checkFreeCalls(options: ImportOptions, venueDatabases: number): void {
  if (options.plan !== "free" || options.mainVenues !== MAIN_HOLDS_NO_VENUE) return;
  const calls = MERGED_CALLS.beside + MERGED_CALLS.each * venueDatabases;
  const most = Math.floor((FREE_QUERIES_A_REQUEST - MERGED_CALLS.beside) / MERGED_CALLS.each);
  if (calls > FREE_QUERIES_A_REQUEST)
    throw new ImportError(
      `--main-venues none with ${venueDatabases} venue databases: a search merged from all of them makes up to ${calls} ` +
        `D1 calls, and Workers Free allows ${FREE_QUERIES_A_REQUEST} a request; at most ${most} venue databases there, or --main-venues every`,
    );
}

/**
 * A remote import in venue databases: each one declared in wrangler.toml (a dry run assumes the
 * others new), and, on Workers Free, within its 10 databases an account and its D1 calls a request.
 */
function checkRemote(options: ImportOptions, databases: readonly BoundDatabase[]): void {
  checkFreeCalls(options, databases.length);
  const undeclared = databases.filter((d) => !d.declared);
  if (options.dryRun !== true && undeclared.length > 0)
    throw new ImportError(
      `wrangler.toml declares no ${undeclared.map((d) => d.binding).join(", ")}: create each with ` +
        `\`npx wrangler d1 create ${undeclared[0]?.name ?? ""}\` and add it as a [[d1_databases]] entry with that binding ` +
        "(docs/deploy.md#past-one-database)",
    );
  if (options.plan === "free" && databases.length + 1 > FREE_DATABASES)
    throw new ImportError(
      `--shards ${databases.length} needs ${databases.length + 1} databases, and Workers Free allows ${FREE_DATABASES} an account`,
    );
}

/** Where the main database's build keeps its reading of the sources for the venue databases' (read-once.ts): one folder a target. */
export function readDir(target: Target): string {
  const where = target.kind === "file" ? resolve(target.path) : JSON.stringify(target);
  return join(WORK_DIR, `read-${createHash("sha256").update(where).digest("hex").slice(0, 16)}`);
}

/**
 * A venue database's failed import, in one line that says what each database serves: the main
 * database and those imported before it the new data, this one and those after it what they
 * served; their searches answered by the main database while it holds every venue, else refused
 * (a 503 that asks to retry: src/d1/route.ts), until the same command imports them.
 */
function shardFailure(error: unknown, shard: number, file: string, mainVenues: MainVenues): ImportError {
  const reason = error instanceof Error ? error.message : String(error);
  const meanwhile =
    mainVenues === MAIN_HOLDS_NO_VENUE
      ? "the searches that ask them are refused (503, retry later: the main database holds no venue)"
      : "the main database (imported anew, with every venue) answers their searches";
  return new ImportError(
    `venue database ${shard} (${file}): ${reason}; it and the venue databases after it still hold their ` +
      `previous data, and ${meanwhile} until the same command imports them`,
    { saysWhatIsServed: true },
  );
}

/** `config`: where a local import writes its wrangler configuration (tests name their own). */
export async function runShardedImport(
  options: ImportOptions,
  count: number,
  quiet: boolean,
  config = SHARDS_CONFIG,
): Promise<ShardedSummary> {
  const { target } = options;
  const databases = target.kind === "file" ? [] : shardDatabases(count);
  if (target.kind === "remote") checkRemote(options, databases);
  const read = readDir(target);
  const mainVenues = options.mainVenues ?? MAIN_HOLDS_EVERY_VENUE;
  const main = await importApart({ ...options, shards: { count, index: null, read, mainVenues } }, quiet);
  const manifest = main.shardManifest ?? [];
  if (manifest.length !== count)
    throw new ImportError(`the main database's manifest names ${manifest.length} venue databases, not ${count}`);
  const kept = manifest.map((s) => s.regions);
  // The local D1 is served while it imports: the venue databases are paced as the main one is.
  const pacing = options.pacing ?? (target.kind === "local" ? {} : undefined);
  const shards: ShardedSummary["shards"] = [];
  for (const [index, { version }] of manifest.entries()) {
    const [shardOptions, file] = shardTarget(target, databases, index + 1);
    const summary = await importApart(
      {
        ...options,
        ...(pacing === undefined ? {} : { pacing }),
        target: shardOptions,
        shards: { count, index, version, kept, read },
      },
      quiet,
    ).catch((error: unknown) => {
      throw shardFailure(error, index + 1, file, mainVenues);
    });
    shards.push({ file, summary });
  }
  dropRead(read);
  if (target.kind === "local") writeShardsConfig(databases, config);
  return { main, shards };
}
