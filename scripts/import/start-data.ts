/**
 * The data `npm start` serves (scripts/start.ts), and what `npm run venues` imports its downloads
 * with (docs/import.md#the-downloads):
 *
 * - the default data is the GeoNames cities with the downloads kept in data/venues/ (real venues),
 *   or generated example venues while there are none;
 * - a user's own import is served as it is, never replaced silently: `npm run venues` imports its
 *   downloads together with the files that import read, and stops when one of them is gone.
 */
import { existsSync } from "node:fs";
import { relative, resolve } from "node:path";
import { downloads, DEFAULT_DIR } from "../venues/store.ts";
import { withImportLock } from "./lock.ts";
import { ImportError } from "./problems.ts";
import type { Progress } from "./progress.ts";
import type { RecordedOptions } from "./import-meta.ts";
import { runImport, type ImportSummary } from "./run.ts";
import type { ImportOptions, Target } from "./options.ts";
import { FAST } from "./publish/steps.ts";
import { defaultSources } from "./sources/resolve.ts";
import { storedImport, type StoredImport } from "./target.ts";
import { outsideAdmin1Lines } from "./summary.ts";
import { d1Database, localD1File, migrateLocal } from "./wrangler.ts";

const n = (x: number) => x.toLocaleString("en-US");

const inside = (dir: string, file: string) => !relative(resolve(dir), resolve(file)).startsWith("..");

/** The downloads to import, MusicBrainz first (its setlist.fm ids), then OpenStreetMap's, by name. */
function downloadFiles(dir = DEFAULT_DIR): string[] {
  const order = { musicbrainz: 0, openstreetmap: 1 };
  return downloads(dir)
    .sort((a, b) => order[a.about.source] - order[b.about.source] || a.file.localeCompare(b.file))
    .map((d) => d.file);
}

/** Whether an import read the default reference files and only generated venues or downloads. */
function isDefault(options: RecordedOptions, dir: string): boolean {
  const d = defaultSources();
  const reference = [d.cities, d.admin1, d.countries, d.localized].map((f) => resolve(f));
  const read = [options.cities, options.admin1, options.countries, options.localized];
  return (
    reference.every((f, i) => f === read[i]) &&
    options.musicbrainzTypes === null &&
    options.osmTags === null &&
    (options.minPopulation ?? null) === null &&
    options.venues.every((f) => inside(dir, f))
  );
}

/** Whether the served import is the user's own (to be served as it is). */
function isOwn(stored: StoredImport | null, dir: string): boolean {
  if (stored === null) return false;
  if (stored.shards > 0) return true;
  if (stored.options !== null) return !isDefault(stored.options, dir);
  return !stored.sources.includes("venues: generated (250000,"); // an older default import
}

/** The line npm start prints while the venues served are generated examples. */
const GENERATED_NOTE =
  'The venues served are generated examples, not real places: `npm run venues -- osm "Your City"` or `npm run venues -- musicbrainz` fetches real ones.';

function localFile(persistTo?: string): string {
  return localD1File(d1Database().id, persistTo);
}

/**
 * The data npm start serves: the user's own import as it is, else the current default data. Read
 * and imported holding the database's import lock (lock.ts), so that an import running beside it
 * (`npm run db:import` in another terminal) ends first and is what it reads.
 */
export function ensureData(progress: Progress, persistTo?: string): Promise<"own" | "current" | "imported"> {
  return withImportLock({ kind: "local", persistTo }, progress, () => ensureDataLocked(progress, persistTo));
}

async function ensureDataLocked(progress: Progress, persistTo?: string): Promise<"own" | "current" | "imported"> {
  progress.line("Checking the local database ...");
  // A database that does not exist yet is created by the import (run.ts).
  if (existsSync(localFile(persistTo))) migrateLocal(persistTo);
  const stored = storedImport(localFile(persistTo));
  if (stored !== null && isOwn(stored, DEFAULT_DIR)) {
    progress.line(
      `Serving your own import of ${stored.importedAt.slice(0, 10)} (${stored.sources}): ` +
        `${n(stored.cities)} cities, ${n(stored.venues)} venues${stored.shards > 0 ? ` in ${stored.shards} venue databases` : ""}. ` +
        "`npm run db:import` without options brings the default data back.",
    );
    return "own";
  }
  const venues = downloadFiles();
  // Nothing serves the database yet: it is published without pauses.
  const summary = await runImport({ target: { kind: "local", persistTo }, pacing: FAST, venues }, progress);
  if (venues.length === 0) progress.line(GENERATED_NOTE);
  if (summary.skippedAsCurrent) {
    progress.line(
      `Local database is current: data version ${summary.dataVersion}, ${n(summary.counts.cities)} cities, ${n(summary.counts.venues)} venues.`,
    );
    return "current";
  }
  const why =
    stored === null ? "the local database was empty" : `the default data changed (data version ${stored.dataVersion})`;
  progress.line(
    `Imported the default data in ${summary.seconds.toFixed(1)} s, because ${why}: data version ${summary.dataVersion}, ` +
      `${n(summary.counts.cities)} cities, ${n(summary.counts.venues)} venues.`,
  );
  for (const line of outsideAdmin1Lines(summary.counts.outsideAdmin1)) progress.line(line);
  return "imported";
}

/** The served file of a local or file target (npm run venues), with data in it: the default data first when empty. */
export async function servedWithData(target: Target, progress: Progress): Promise<string> {
  if (target.kind === "remote") throw new ImportError("npm run venues imports into the local database or a file");
  const path = target.kind === "file" ? target.path : localFile(target.persistTo);
  return withImportLock(target, progress, async () => {
    if (target.kind === "local") migrateLocal(target.persistTo);
    if (storedImport(path) === null) {
      progress.line(
        "The database holds no data yet: importing the default data first (the cities, read to find the place).",
      );
      await runImport({ target, pacing: FAST }, progress);
    }
    return path;
  });
}

/**
 * Imports the downloads in `dir` with what the served import read (its reference files and venue
 * files), into `target`. Stops, importing nothing, when a file of the served import is gone. What
 * is served is read holding the import lock, so that it is still what is served when replaced.
 */
export function importWithDownloads(target: Target, dir: string, progress: Progress): Promise<ImportSummary> {
  return withImportLock(target, progress, () => importWithDownloadsLocked(target, dir, progress));
}

async function importWithDownloadsLocked(target: Target, dir: string, progress: Progress): Promise<ImportSummary> {
  const path = target.kind === "file" ? target.path : localFile(target.kind === "local" ? target.persistTo : undefined);
  const stored = storedImport(path);
  const { before, own } = servedFiles(stored, dir);
  if (before !== null && before.venues.length === 0)
    progress.line(`The ${n(stored?.venues ?? 0)} generated example venues give way to the downloaded ones.`);
  const options: ImportOptions = {
    ...(before === null || isDefault(before, dir) ? {} : referenceOf(before)),
    venues: [...own, ...downloadFiles(dir)],
    target,
  };
  return runImport(options, progress);
}

/** What the served import read, and its own venue files (not downloads); an ImportError when they cannot be read again. */
function servedFiles(stored: StoredImport | null, dir: string): { before: RecordedOptions | null; own: string[] } {
  const before = stored?.options ?? null;
  if (stored !== null && before === null && isOwn(stored, dir)) {
    throw new ImportError(
      `the database serves your import of ${stored.importedAt.slice(0, 10)} (${stored.sources}), which does not record its files: ` +
        `import them with the downloads yourself: npm run db:import -- --venues <your files> --venues ${relative(process.cwd(), dir) || "."}`,
    );
  }
  const own = (before?.venues ?? []).filter((f) => !inside(dir, f));
  const gone = own.find((f) => !existsSync(f));
  if (gone !== undefined) {
    throw new ImportError(
      `${gone}, which the served import read, is gone: put it back, or import what you want with npm run db:import (nothing was imported; the data served before is still served)`,
    );
  }
  return { before, own };
}

function referenceOf(o: RecordedOptions): Partial<ImportOptions> {
  return {
    cities: o.cities,
    admin1: o.admin1,
    countries: o.countries,
    localized: o.localized,
    ...(o.musicbrainzTypes === null ? {} : { musicbrainzTypes: o.musicbrainzTypes }),
    ...(o.osmTags === null ? {} : { osmTags: o.osmTags }),
    ...((o.minPopulation ?? null) === null ? {} : { minPopulation: o.minPopulation ?? 0 }),
  };
}
