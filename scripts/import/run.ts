/**
 * One import, from sources to a served database: build the data into a private SQLite file
 * (build.ts: streaming, validated — nothing is published while any row is bad, unless
 * skipInvalid), then publish it (publish.ts) to the local D1 file, a given SQLite file, or the
 * remote D1 database (remote.ts, remote-files.ts). The same build and the same publishing steps
 * for all three, one import at a time per database (lock.ts).
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { ShardManifest } from "../../src/data-contract/shards.ts";
import { ROOT } from "../tools/project.ts";
import {
  buildFileFrom,
  createBuildFile,
  dropLeftBuilds,
  newBuildPath,
  RAW_VENUES_FILE,
  SIDE_FILES,
  sidePathOf,
  type ReadBuild,
} from "./phases/build-file.ts";
import { build } from "./phases/build.ts";
import { noCounts, type BuildCounts } from "./phases/counts.ts";
import { sharedRead, type ReadShared } from "./shards/read-once.ts";
import { Problems } from "./problems.ts";
import type { PhaseFigures, Progress } from "./progress.ts";
import { pacingOf, publishToFile } from "./publish/local-file.ts";
import { completeFiles } from "./publish/remote-files.ts";
import { REPLICA_FILE } from "./publish/remote-mirror.ts";
import { mergeLeftSegments } from "./publish/remote-refresh.ts";
import { publishToRemote, remoteDatabase, type RemoteFigures } from "./publish/remote-publish.ts";
import { withImportLock } from "./lock.ts";
import { metaRows, recordedOptions } from "./import-meta.ts";
import { PlanImport } from "./shards/meta.ts";
import type { ShardChoice } from "./shards/venues.ts";
import { resolveSources } from "./sources/resolve.ts";
import { ensureSchema, storedFile, storedRemote } from "./target.ts";
import { dataVersion } from "./version.ts";
import type { ImportOptions, Target } from "./options.ts";
import { d1Database, localD1File, migrateLocal } from "./wrangler.ts";

/** Where builds and remote SQL files are kept while an import runs. */
export const WORK_DIR = join(ROOT, ".wrangler", "import");

export interface ImportSummary {
  dataVersion: string;
  skippedAsCurrent: boolean;
  /** Skipped as current, the remote's search indexes merged into one segment each (a refresh's merges that did not finish). */
  merged?: string[];
  counts: BuildCounts;
  invalidSkipped: number;
  invalidSample: string[];
  seconds: number;
  phases: PhaseFigures[];
  /** Local imports: the longest write transaction, during which the local D1 refuses queries. */
  longestWrite?: { ms: number; doing: string };
  /** An import in a process of its own (shards/child.ts): that process's peak resident memory. */
  peakMiB?: number;
  /** Remote imports: files, those skipped as already applied, what they cost (remote-publish.ts). */
  remote?: RemoteFigures;
  /** The main database of a plan: its manifest (each venue database's regions and data version), and, a size chose it, each one's estimated bytes (shards/size.ts). */
  shardManifest?: ShardManifest;
  shardEstimates?: number[];
  /** Staged with `swapLater`: the meta rows its swap writes. */
  stagedMeta?: [string, string][];
}

/** Imports into the target, once no other import into it runs (lock.ts). */
export function runImport(options: ImportOptions, progress: Progress): Promise<ImportSummary> {
  return withImportLock(options.target, progress, () => importHoldingTheLock(options, progress));
}

async function importHoldingTheLock(options: ImportOptions, progress: Progress): Promise<ImportSummary> {
  const started = Date.now();
  const seconds = () => (Date.now() - started) / 1000;
  const s = resolveSources(options);
  const plan = await PlanImport.of(options.shards, s);
  const sourcesVersion = await dataVersion(s.files, s.versionOptions);
  const version = plan.version(sourcesVersion);
  const { target } = options;
  const targetPath = targetFile(target, progress);
  const remote =
    target.kind === "remote" ? await remoteDatabase(options.dryRun === true, progress, target.database) : null;
  const current = remote === null ? storedFile(targetPath) : storedRemote(remote.state?.meta);
  if (!options.force && current?.version === version) {
    const skipped = await skippedAsCurrent(remote, version, options.dryRun === true, progress);
    const summary = summaryOf(version, current.counts, new Problems(false), seconds(), []);
    return { ...summary, ...skipped, ...plan.served(current.manifest, options) };
  }
  mkdirSync(WORK_DIR, { recursive: true });
  const remoteDir = join(WORK_DIR, `remote-${version}`);
  // A remote import whose SQL files are all written resumes their upload without a new build.
  const resuming = remote !== null && completeFiles(remoteDir) !== null;
  const problems = new Problems(options.skipInvalid === true);
  const read = sharedRead(options.shards, options.skipInvalid === true, sourcesVersion);
  const { buildDb, dropBuild } = buildFile(resuming ? null : (read.from ?? "new"), progress);
  try {
    const { counts, meta, manifest } = await built(buildDb, {
      options,
      s,
      plan,
      version,
      problems,
      progress,
      served: current?.manifest ?? null,
      replica: join(remoteDir, REPLICA_FILE),
      read: read.shared,
    });
    const published =
      remote !== null
        ? {
            remote: await publishToRemote(
              buildDb,
              dropBuild,
              meta,
              version,
              remoteDir,
              remote,
              remoteOptions(options),
              progress,
            ),
          }
        : await publishToFile(targetPath, buildDb, meta, progress, {
            ...(targetPath === null ? {} : pacingOf(options.pacing, options.target.kind === "file", targetPath)),
            swapLater: options.swapLater === true,
          });
    progress.end();
    return { ...summaryOf(version, counts, problems, seconds(), progress.phases), ...published, ...manifest };
  } finally {
    dropBuild();
  }
}

/** The build file of an import, new or from a copy (none when a remote import resumes from its files), and how it is dropped. */
function buildFile(from: ReadBuild | "new" | null, progress: Progress) {
  dropLeftBuilds(WORK_DIR, progress);
  const path = newBuildPath(WORK_DIR);
  let buildDb = from === null ? null : from === "new" ? createBuildFile(path) : buildFileFrom(path, from);
  const dropBuild = () => {
    buildDb?.close();
    buildDb = null;
    rmSync(path, { force: true });
    for (const side of [...SIDE_FILES, RAW_VENUES_FILE]) rmSync(sidePathOf(path, side), { force: true });
  };
  return { buildDb, dropBuild };
}

/**
 * The build (none when a remote import resumes from its files), checked against the plan: its
 * counts, the meta rows to publish, and the manifest the main database of a plan serves after.
 */
async function built(
  buildDb: Database.Database | null,
  c: {
    options: ImportOptions;
    s: ReturnType<typeof resolveSources>;
    plan: PlanImport;
    version: string;
    problems: Problems;
    progress: Progress;
    served: ShardManifest | null;
    replica: string;
    read: ReadShared | undefined;
  },
) {
  const shards = c.plan.choice(c.served);
  const counts =
    buildDb === null
      ? noCounts()
      : await build(buildDb, c.s.sources, c.problems, c.progress, { ...buildOptions(c.options, shards), read: c.read });
  if (buildDb !== null) c.plan.check(c.version, counts);
  const meta = [
    ...c.plan.metaRows(counts),
    ...metaRows(c.version, c.s.description, counts, recordedOptions(c.options, c.s.sources)),
  ];
  // A remote import resumed from its files has no build: its manifest is in their replica's meta rows.
  const served = buildDb === null ? (storedFile(c.replica)?.manifest ?? null) : c.plan.manifest(counts);
  const manifest = c.plan.served(served, c.options);
  return { counts, meta, manifest };
}

const remoteOptions = (options: ImportOptions) => ({
  dryRun: options.dryRun === true,
  plan: options.plan ?? "paid",
  full: options.full === true,
  swapLater: options.swapLater === true,
});

/** A target that holds this data, the import's progress ended; a remote one with the merges its search indexes still need sent alone (remote-refresh.ts). */
async function skippedAsCurrent(
  remote: Awaited<ReturnType<typeof remoteDatabase>> | null,
  version: string,
  dryRun: boolean,
  progress: Progress,
): Promise<Pick<ImportSummary, "skippedAsCurrent" | "merged">> {
  const merged =
    remote === null
      ? []
      : await mergeLeftSegments(remote, join(WORK_DIR, `merges-${version}`), version, dryRun, progress);
  progress.end();
  return merged.length > 0 ? { skippedAsCurrent: true, merged } : { skippedAsCurrent: true };
}

const buildOptions = (options: ImportOptions, shards: ShardChoice | undefined) => ({
  prefixCountMin: options.prefixCountMin,
  cellCountMin: options.cellCountMin,
  ...(shards === undefined ? {} : { shards }),
});

function summaryOf(version: string, counts: BuildCounts, problems: Problems, seconds: number, phases: PhaseFigures[]) {
  return {
    dataVersion: version,
    skippedAsCurrent: false,
    counts,
    invalidSkipped: problems.count,
    invalidSample: problems.sample(),
    seconds,
    phases,
  };
}

/** The SQLite file a local or file target serves, its schema migrated (null for the remote database). */
function targetFile(target: Target, progress: Progress): string | null {
  if (target.kind === "local") {
    progress.phase("applying migrations to the local D1 database");
    migrateLocal(target.persistTo);
    return localD1File(d1Database().id, target.persistTo);
  }
  if (target.kind === "file") ensureSchema(target.path);
  return target.kind === "file" ? target.path : null;
}
