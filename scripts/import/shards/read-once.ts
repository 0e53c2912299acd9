/**
 * The sources read once for a plan (docs/deploy.md#past-one-database): every database of a plan
 * reads the same sources into the same raw tables before it plans (venues.ts), so the main
 * database's build keeps a copy of its build file as it is then, and each venue database's build
 * starts from a copy of that instead of reading the cities and generating the venues again. The
 * copy names the sources' data version it was read from: a build of other sources reads them
 * itself. The sharded import drops it once every venue database is imported (import.ts); a run
 * that failed leaves it for the same command to go on with.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { copyBuildFile, type ReadBuild } from "../phases/build-file.ts";
import type { BuildCounts } from "../phases/counts.ts";
import type { CollectedProblems } from "../problems.ts";
import type { Country } from "../sources/geonames.ts";
import type { ShardChoice } from "./venues.ts";

const RECORD = "read.json";

/** What the reading phases leave beside the build file: their counts, the countries read, the bad rows. */
export interface ReadState {
  counts: BuildCounts;
  countries: Country[];
  problems: CollectedProblems;
}

/** How a build of a plan's database shares its reading of the sources. */
export interface ReadShared {
  /** The main database's build: keeps its build file once the sources are read. */
  keep?: ReadPlace;
  /** A venue database's build, from a copy of that file: what the reading left besides it. */
  kept?: ReadState;
}

/** Where a build keeps its read (`dir`), and the sources' data version it reads (`key`). */
export interface ReadPlace {
  dir: string;
  key: string;
}

const filesIn = (dir: string): ReadBuild => ({
  build: join(dir, "build.sqlite"),
  rawVenues: join(dir, "raw-venues.sqlite"),
});

/** Keeps the build as its sources were read, replacing what `dir` held only once the copy is whole. */
export function keepRead(db: Database.Database, place: ReadPlace, state: ReadState): void {
  const partial = `${place.dir}.${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  copyBuildFile(db, filesIn(partial));
  writeFileSync(join(partial, RECORD), JSON.stringify({ key: place.key, ...state }));
  rmSync(place.dir, { recursive: true, force: true });
  renameSync(partial, place.dir);
}

/** The read kept for these sources, with its files; null when none is, or one of other sources. */
function keptRead(place: ReadPlace): (ReadState & { files: ReadBuild }) | null {
  let record: ReadState & { key: string };
  try {
    record = JSON.parse(readFileSync(join(place.dir, RECORD), "utf8")) as ReadState & { key: string };
  } catch {
    return null;
  }
  if (record.key !== place.key) return null;
  return { counts: record.counts, countries: record.countries, problems: record.problems, files: filesIn(place.dir) };
}

/**
 * How the build of a database of a plan shares the reading of the sources: the main one keeps
 * it, a venue database starts from it where it is kept for these sources.
 */
export function sharedRead(
  shards: ShardChoice | undefined,
  skipInvalid: boolean,
  sourcesVersion: string,
): { shared?: ReadShared; from?: ReadBuild } {
  if (shards?.read === undefined) return {};
  const place = { dir: shards.read, key: `${sourcesVersion}/${skipInvalid ? "skip-invalid" : "strict"}` };
  if (shards.index === null) return { shared: { keep: place } };
  const kept = keptRead(place);
  return kept === null ? {} : { shared: { kept }, from: kept.files };
}

export function dropRead(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
