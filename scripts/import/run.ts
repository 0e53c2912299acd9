/**
 * One import, from sources to a served database: build the data into a private SQLite file
 * (build.ts: streaming, validated — nothing is published while any row is bad, unless
 * skipInvalid), then publish it (publish.ts) to the local D1 file, a given SQLite file, or the
 * remote D1 database (remote.ts, remote-files.ts). The same build and the same publishing steps
 * for all three, one import at a time per database (lock.ts).
 */
import { mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { ROOT } from "../tools/project.ts";
import { createBuildFile, RAW_VENUES_FILE, SIDE_FILES, sidePathOf } from "./phases/build-file.ts";
import { build, noCounts, type BuildCounts } from "./phases/build.ts";
import { Problems } from "./problems.ts";
import type { PhaseFigures, Progress } from "./progress.ts";
import { publishLocal, type LocalPublishOptions } from "./publish/local.ts";
import { completeFiles } from "./publish/remote-files.ts";
import type { Plan } from "./publish/remote-plan.ts";
import { mergeLeftSegments } from "./publish/remote-refresh.ts";
import { publishToRemote, remoteDatabase, type RemoteFigures } from "./publish/remote-publish.ts";
import { withImportLock } from "./lock.ts";
import { shardMetaRows, shardVersion } from "./shards/meta.ts";
import type { ShardChoice } from "./shards/venues.ts";
import { resolveSources } from "./sources/resolve.ts";
import { ensureSchema, storedCounts, storedDataVersion } from "./target.ts";
import { dataVersion } from "./version.ts";
import { d1Database, localD1File, migrateLocal } from "./wrangler.ts";

/** Publishing with no one reading: long transactions, no pauses. */
export const FAST: LocalPublishOptions = { pauseMs: 0, transactionMs: 500 };

/** Where builds and remote SQL files are kept while an import runs. */
const WORK_DIR = join(ROOT, ".wrangler", "import");

export type Target =
  /** The local D1 database of `wrangler dev` (in `persistTo`, as wrangler's --persist-to). */
  | { kind: "local"; persistTo?: string | undefined }
  | { kind: "file"; path: string }
  /**
   * The Cloudflare D1 database of wrangler.toml's `DB` binding, or the one named `database` (a
   * venue database: shards/import.ts), through wrangler (IMPORT_WRANGLER: wrangler.ts).
   */
  | { kind: "remote"; database?: { name: string; id: string } };

export interface ImportOptions {
  cities?: string;
  admin1?: string;
  countries?: string;
  /** Localized names of cities and states (data/localized-names.tsv format). */
  localized?: string;
  /** Venue files or directories; none means generated venues. */
  venues?: string[];
  /** MusicBrainz place types that are venues (comma-separated; default: sources/venue-selection.ts). */
  musicbrainzTypes?: string | undefined;
  /** OSM tags (key=value, comma-separated) that make a venue. */
  osmTags?: string | undefined;
  venueCount?: number;
  seed?: string;
  /** Only the cities of at least this many people: a smaller data set (docs/deploy.md#workers-free). */
  minPopulation?: number;
  skipInvalid?: boolean;
  /** Import even when the target already holds this data version. */
  force?: boolean;
  /** Stored totals for name prefixes matching at least this many rows (tests use small data). */
  prefixCountMin?: number;
  /** Stored cell counts from this many records of a term (tests use small data). */
  cellCountMin?: number;
  /**
   * How the local publisher paces its writes: by default short transactions with pauses, so a
   * running `wrangler dev` keeps answering; the file target, a local D1 that holds no data yet,
   * and `npm start` (which imports before it serves) use FAST.
   */
  pacing?: LocalPublishOptions;
  target: Target;
  /** Remote imports: print what the import costs in D1's units, and stop before sending anything. */
  dryRun?: boolean;
  /** Remote imports: the Workers plan whose limits the import must fit (default paid). */
  plan?: Plan;
  /** Remote imports: send the whole data, not only what changed since the data served. */
  full?: boolean;
  /** One database of a shard plan (scripts/import/shards/import.ts): the main one, or a venue database. */
  shards?: ShardChoice;
}

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
}

/** Imports into the target, once no other import into it runs (lock.ts). */
export function runImport(options: ImportOptions, progress: Progress): Promise<ImportSummary> {
  return withImportLock(options.target, progress, () => importHoldingTheLock(options, progress));
}

async function importHoldingTheLock(options: ImportOptions, progress: Progress): Promise<ImportSummary> {
  const started = Date.now();
  const seconds = () => (Date.now() - started) / 1000;
  const s = resolveSources(options);
  const sourcesVersion = await dataVersion(s.files, s.versionOptions);
  const version = shardVersion(sourcesVersion, options.shards);
  const { target } = options;
  const targetPath = targetFile(target, progress);
  const remote =
    target.kind === "remote" ? await remoteDatabase(options.dryRun === true, progress, target.database) : null;
  const current = remote === null ? stored(targetPath) : storedRemote(remote.state?.meta);
  if (!options.force && current?.version === version) {
    const skipped = await skippedAsCurrent(remote, version, options.dryRun === true, progress);
    return { ...summaryOf(version, current.counts, new Problems(false), seconds(), []), ...skipped };
  }
  mkdirSync(WORK_DIR, { recursive: true });
  const remoteDir = join(WORK_DIR, `remote-${version}`);
  // A remote import whose SQL files are all written resumes their upload without a new build.
  const resuming = remote !== null && completeFiles(remoteDir) !== null;
  const buildPath = join(WORK_DIR, `build-${process.pid}-${Date.now()}.sqlite`);
  const problems = new Problems(options.skipInvalid === true);
  let buildDb = resuming ? null : createBuildFile(buildPath);
  const dropBuild = () => {
    buildDb?.close();
    buildDb = null;
    rmSync(buildPath, { force: true });
    for (const side of [...SIDE_FILES, RAW_VENUES_FILE]) rmSync(sidePathOf(buildPath, side), { force: true });
  };
  try {
    const counts =
      buildDb === null ? noCounts() : await build(buildDb, s.sources, problems, progress, buildOptions(options));
    const meta = [
      ...shardMetaRows(options.shards, counts, sourcesVersion),
      ...metaRows(version, s.description, counts, recordedOptions(options, s.sources)),
    ];
    const remoteOptions = {
      dryRun: options.dryRun === true,
      plan: options.plan ?? "paid",
      full: options.full === true,
    };
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
              remoteOptions,
              progress,
            ),
          }
        : await publishToFile(targetPath, buildDb, meta, options, progress);
    progress.end();
    return { ...summaryOf(version, counts, problems, seconds(), progress.phases), ...published };
  } finally {
    dropBuild();
  }
}

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

const buildOptions = (options: ImportOptions) => ({
  prefixCountMin: options.prefixCountMin,
  cellCountMin: options.cellCountMin,
  ...(options.shards === undefined ? {} : { shards: options.shards }),
});

/** The data version a local or file target serves, with its counts. */
function stored(path: string | null): { version: string; counts: BuildCounts } | null {
  const version = path === null ? null : storedDataVersion(path);
  return path === null || version === null ? null : { version, counts: storedCounts(path) };
}

/** The data version the remote database serves (its meta rows), with its counts. */
function storedRemote(meta: ReadonlyMap<string, string> | undefined): { version: string; counts: BuildCounts } | null {
  const version = meta?.get("data_version");
  if (version === undefined) return null;
  const count = (key: string) => Number(meta?.get(key) ?? 0);
  return { version, counts: { ...noCounts(), cities: count("rows_cities"), venues: count("rows_venues") } };
}

/**
 * What an import read, as absolute paths (meta `import_options`), so that another import can read
 * the same files with more (npm run venues adds its downloads to them: scripts/import/start-data.ts).
 */
export interface RecordedOptions {
  cities: string;
  admin1: string;
  countries: string;
  localized: string;
  /** Venue files; none: generated venues. */
  venues: string[];
  venueCount: number;
  seed: string;
  musicbrainzTypes: string | null;
  osmTags: string | null;
  /** --min-population; null (or absent, in an older import's record) for every city. */
  minPopulation?: number | null;
}

function recordedOptions(options: ImportOptions, s: ReturnType<typeof resolveSources>["sources"]): RecordedOptions {
  return {
    cities: resolve(s.cities),
    admin1: resolve(s.admin1),
    countries: resolve(s.countries),
    localized: resolve(s.localized),
    venues: s.venueFiles.map((f) => resolve(f)),
    venueCount: s.venueCount,
    seed: s.seed,
    musicbrainzTypes: options.musicbrainzTypes ?? null,
    osmTags: options.osmTags ?? null,
    minPopulation: options.minPopulation ?? null,
  };
}

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

/** The meta rows a publish writes (data_version last: publish/stage.ts). */
function metaRows(
  version: string,
  description: string,
  counts: BuildCounts,
  options: RecordedOptions,
): [string, string][] {
  return [
    ["data_version", version],
    ["sources", description],
    ["import_options", JSON.stringify(options)],
    ["imported_at", new Date().toISOString()],
    ["rows_cities", String(counts.cities)],
    ["rows_venues", String(counts.venues)],
    ["name_anchor_every", String(counts.anchorEvery)],
    // Which licences the served venues carry (docs/import.md#real-venues).
    ["venue_sources", counts.venueSources.join(",")],
  ];
}

async function publishToFile(
  targetPath: string | null,
  buildDb: Database.Database | null,
  meta: [string, string][],
  options: ImportOptions,
  progress: Progress,
): Promise<Pick<ImportSummary, "longestWrite">> {
  if (buildDb === null || targetPath === null) return {};
  const served = new Database(targetPath, { fileMustExist: true });
  try {
    served.pragma("busy_timeout = 10000");
    served.pragma("cache_size = -65536"); // 64 MiB: index and FTS pages stay in memory
    // A target without data yet serves nothing to keep answering (a worker on it answers 503).
    const pacing = options.pacing ?? (options.target.kind === "file" || !storedDataVersion(targetPath) ? FAST : {});
    return await publishLocal(served, buildDb, meta, progress, pacing);
  } finally {
    served.close();
  }
}
