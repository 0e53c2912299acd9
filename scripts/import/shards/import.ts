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
 * builds start from the main one's reading of the sources (read-once.ts). Where the main database
 * holds no venue, each is staged by its own import and all swap in together (swap-together.ts),
 * the remote ones too.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { mkdirSync, statSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import {
  MAIN_HOLDS_EVERY_VENUE,
  MAIN_HOLDS_NO_VENUE,
  shardFile,
  type MainVenues,
  type ShardManifest,
} from "../../../src/data-contract/shards.ts";
import { ImportError } from "../problems.ts";
import { WORK_DIR, type ImportSummary } from "../run.ts";
import type { ImportOptions, Target } from "../options.ts";
import { d1Database, localD1File, shardDatabases, type BoundDatabase } from "../wrangler.ts";
import { Progress } from "../progress.ts";
import { dropStaged, swapTogether, type Staged } from "./swap-together.ts";
import { SHARDS_CONFIG, writeShardsConfig } from "./config.ts";
import { checkRemote } from "./remote-databases.ts";
import type { SizedPlan } from "./size.ts";
import { dropRead } from "./read-once.ts";
import { IMPORT_NODE_FLAGS } from "../../tools/project.ts";

export interface ShardedSummary {
  main: ImportSummary;
  /** Per venue database, from 1: its file and its import. */
  shards: { file: string; summary: ImportSummary }[];
  /** A plan a size chose (size.ts): each venue database's estimate beside its size after. */
  sized?: SizedPlan;
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

/** Where the main database's build keeps its reading of the sources for the venue databases' (read-once.ts): one folder a target. */
export function readDir(target: Target): string {
  const where = target.kind === "file" ? resolve(target.path) : JSON.stringify(target);
  return join(WORK_DIR, `read-${createHash("sha256").update(where).digest("hex").slice(0, 16)}`);
}

/**
 * A venue database's failed import, in one line that says what each database serves. Where every
 * database swaps together (swap-together.ts) and the main one was staged, none was swapped in:
 * each serves its previous data.
 * Else the main database and those imported before it the new data, this one and those after it
 * what they served; their searches answered by the main database while it holds every venue, else
 * refused (a 503 that asks to retry: src/d1/route.ts), until the same command imports them.
 */
function shardFailure(error: unknown, shard: number, file: string, mainVenues: MainVenues, together: boolean) {
  const reason = error instanceof Error ? error.message : String(error);
  if (together)
    return new ImportError(
      `venue database ${shard} (${file}): ${reason}; no database was swapped in, so each still serves its ` +
        "previous data until the same command imports them",
      { saysWhatIsServed: true },
    );
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

/** How many venue databases a plan has: a number, or a size per database that the main database's build chooses it by (size.ts). */
export type ShardsAsked = number | { size: number };

/**
 * The main database's import, in a process of its own: the manifest it serves names how many venue
 * databases there are, the number given or the one a size chose (size.ts).
 */
async function importMain(options: ImportOptions, asked: ShardsAsked, read: string, quiet: boolean) {
  const given = typeof asked === "number" ? asked : undefined;
  // A size's remote databases are checked once its plan has chosen how many (meta.ts).
  if (options.target.kind === "remote" && given !== undefined) checkRemote(options, shardDatabases(given));
  const choice = typeof asked === "number" ? { count: asked } : { size: asked.size };
  const mainVenues = options.mainVenues ?? MAIN_HOLDS_EVERY_VENUE;
  const main = await importApart({ ...options, shards: { ...choice, index: null, read, mainVenues } }, quiet);
  const manifest = main.shardManifest ?? [];
  if (given !== undefined && manifest.length !== given)
    throw new ImportError(`the main database's manifest names ${manifest.length} venue databases, not ${given}`);
  return { main, manifest, mainVenues };
}

/** `config`: where a local import writes its wrangler configuration (tests name their own). */
export async function runShardedImport(
  options: ImportOptions,
  asked: ShardsAsked,
  quiet: boolean,
  config = SHARDS_CONFIG,
): Promise<ShardedSummary> {
  const { target } = options;
  const read = readDir(target);
  // A main database without venues answers for no venue database: every database swaps in together.
  const swapLater = options.mainVenues === MAIN_HOLDS_NO_VENUE;
  const { main, manifest, mainVenues } = await importMain({ ...options, swapLater }, asked, read, quiet);
  const mainStaged = stagedOf(target, target.kind === "remote" ? "" : mainFile(target), main);
  const c = { read, manifest, asked, mainVenues, quiet, mainStaged };
  const imported = await importVenueDatabases({ ...options, swapLater }, c);
  dropRead(read);
  // The main database last: its manifest names the venue databases' new data.
  const staged = [...imported.flatMap((s) => s.staged), ...mainStaged];
  if (staged.length > 0) await swapTogether(staged, options, new Progress(process.stderr, quiet));
  const shards = imported.map(({ file, summary }) => ({ file, summary }));
  const databases = target.kind === "file" ? [] : shardDatabases(manifest.length);
  if (target.kind === "local") writeShardsConfig(databases, config);
  const estimates = main.shardEstimates;
  if (typeof asked === "number" || estimates === undefined) return { main, shards };
  const after = shards.map((s) => sizeAfter(s, target));
  return { main, shards, sized: { size: asked.size, estimates, after } };
}

/** What an import left staged for swapTogether (`swapLater`): a file's stage tables, or a remote database's files. */
function stagedOf(target: Target, file: string, summary: ImportSummary): Staged[] {
  if (summary.stagedMeta !== undefined) return [{ target, file, meta: summary.stagedMeta }];
  const figures = summary.remote;
  return figures?.pending === undefined ? [] : [{ target, pending: figures.pending, figures }];
}

/** The SQLite file of the main database of a local or file target. */
const mainFile = (target: Target) =>
  target.kind === "file"
    ? target.path
    : localD1File(d1Database().id, target.kind === "local" ? target.persistTo : undefined);

/**
 * Each venue database of the manifest imported in turn, with what it staged (`swapLater`); where
 * one fails, what the others and the main database (`mainStaged`) staged is dropped.
 */
async function importVenueDatabases(
  options: ImportOptions,
  c: {
    read: string;
    manifest: ShardManifest;
    asked: ShardsAsked;
    mainVenues: MainVenues;
    quiet: boolean;
    mainStaged: Staged[];
  },
): Promise<(ShardedSummary["shards"][number] & { staged: Staged[] })[]> {
  const { target } = options;
  const count = c.manifest.length;
  const databases = target.kind === "file" ? [] : shardDatabases(count);
  const kept = c.manifest.map((s) => s.regions);
  // The local D1 is served while it imports: the venue databases are paced as the main one is.
  const pacing = options.pacing ?? (target.kind === "local" ? {} : undefined);
  const size = typeof c.asked === "number" ? {} : { size: c.asked.size };
  const shards: (ShardedSummary["shards"][number] & { staged: Staged[] })[] = [];
  for (const [index, { version }] of c.manifest.entries()) {
    const [shardOptions, file] = shardTarget(target, databases, index + 1);
    // A size's plan deals out bytes: a venue database that plans itself keeps the manifest's regions by it too.
    const shardChoice = { count, index, version, kept, read: c.read, ...size };
    const summary = await importApart(
      { ...options, ...(pacing === undefined ? {} : { pacing }), target: shardOptions, shards: shardChoice },
      c.quiet,
    ).catch(async (error: unknown) => {
      const staged = [...shards.flatMap((s) => s.staged), ...c.mainStaged];
      if (options.swapLater === true) await dropStaged(staged, options, new Progress(process.stderr, c.quiet));
      // A main database found current serves its manifest already: the venue databases it names are refused meanwhile.
      throw shardFailure(error, index + 1, file, c.mainVenues, c.mainStaged.length > 0);
    });
    shards.push({ file, summary, staged: stagedOf(shardOptions, file, summary) });
  }
  return shards;
}

/**
 * A venue database's size after its import: its file's, or the remote one's as its cost worked it
 * out; null for a remote one that was current already, to which nothing was sent.
 */
const sizeAfter = ({ file, summary }: ShardedSummary["shards"][number], target: Target): number | null =>
  summary.remote?.cost.sizeAfter ?? (target.kind === "remote" ? null : statSync(file).size);
