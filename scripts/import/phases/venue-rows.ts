/**
 * Phase 1, read and validate (venues): venue files, or venues generated on the imported cities,
 * streamed into raw_venues; then the checks that need every row: a venue id used twice, a city
 * that was not imported.
 */
import { existsSync } from "node:fs";
import type Database from "better-sqlite3";
import {
  citylessCount,
  citylessVenues,
  generatorCity,
  spreadKm,
  type GeneratorCity,
  venuePoints,
  venueWeight,
} from "../generate/venues.ts";
import { rowsWrittenInWorker, type CityJob, type RowsJob } from "../generate/rows.ts";
import { VenueIds } from "../generate/ids.ts";
import { venueCountsOver } from "../generate/counts.ts";
import { ImportError, type Problems } from "../problems.ts";
import type { Progress } from "../progress.ts";
import type { Country } from "../sources/geonames.ts";
import { readVenueFiles, type VenueFileReport } from "../sources/venue-files.ts";
import type { VenueInput } from "../sources/venue-input.ts";
import type { VenueSelection } from "../sources/venue-selection.ts";
import { inBatches } from "./batches.ts";
import { attachedPath, RAW_VENUES_FILE } from "./build-file.ts";
import { REACH_KM } from "./place-rule.ts";
import { PlaceSweep, type CityRow } from "./place-sweep.ts";
import { INSERT_RAW_VENUE, rawVenueRow, type RawVenueRow } from "./raw-venue.ts";

export interface VenueSources {
  /** Venue files; none means generated venues. */
  venueFiles: string[];
  venueCount: number;
  seed: string;
  /** Which records of MusicBrainz and OpenStreetMap files are venues. */
  selection: VenueSelection;
}

async function* rowsOf(venues: AsyncIterable<VenueInput>): AsyncGenerator<RawVenueRow> {
  for await (const v of venues) yield rawVenueRow(v);
}

/** Venue rows from files, with progress. */
async function* fromFiles(
  sources: VenueSources,
  problems: Problems,
  progress: Progress,
  reports: VenueFileReport[],
): AsyncGenerator<VenueInput> {
  for (const f of sources.venueFiles) if (!existsSync(f)) throw new ImportError(`${f}: no such file`);
  progress.phase("reading venue files");
  yield* readVenueFiles(sources.venueFiles, sources.selection, problems, reports);
}

/** Numbers up to `max` in 4 bytes each where they fit (GeoNames ids and venue numbers do), else 8. */
const numbersUpTo = (max: number, n: number): Uint32Array | Float64Array =>
  max <= 0xffff_ffff ? new Uint32Array(n) : new Float64Array(n);

/**
 * The raw cities' geonameids, ascending, and the number of each one's first venue, one more at
 * the end (city i gets firsts[i + 1] - firsts[i] of `total` venues: venueCounts of their
 * venueWeight), in typed arrays: no JS array of the cities, 8 bytes a city once counted (20 while
 * counting; 5 million cities took 180 MB in 8-byte arrays).
 */
function venueNumbering(db: Database.Database, total: number): { gids: ArrayLike<number>; firsts: ArrayLike<number> } {
  const { n, maxGid } = db.prepare("SELECT count(*) AS n, max(gid) AS maxGid FROM raw_cities").get() as {
    n: number;
    maxGid: number | null;
  };
  const gids = numbersUpTo(maxGid ?? 0, n);
  const weights = new Float64Array(n);
  let i = 0;
  for (const c of db.prepare("SELECT gid, population, section FROM raw_cities ORDER BY gid").iterate()) {
    const { gid, population, section } = c as { gid: number; population: number; section: number };
    gids[i] = gid;
    weights[i++] = venueWeight({ population, section: section !== 0 });
  }
  const counts = venueCountsOver(weights, total);
  const firsts = numbersUpTo(total, n + 1);
  for (let k = 0; k < n; k++) firsts[k + 1] = (firsts[k] ?? 0) + (counts[k] ?? 0);
  return { gids, firsts };
}

/** Where `gid` is in the ascending `gids`. */
function indexOf(gids: ArrayLike<number>, gid: number): number {
  let lo = 0;
  let hi = gids.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((gids[mid] ?? 0) < gid) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const asGeneratorCity = (c: CityRow, countries: ReadonlyMap<string, Country>) =>
  generatorCity(
    {
      id: String(c.gid),
      name: c.name,
      countryCode: c.country_code,
      admin1Code: c.admin1_code,
      population: c.population,
      lat: c.lat,
      lng: c.lng,
      section: c.section,
    },
    countries,
  );

/** The jobs of the generator's worker: the cities band by band, each venue's point placed by the sweep. */
function* generatorJobs(
  sweep: PlaceSweep,
  countries: ReadonlyMap<string, Country>,
  sources: VenueSources & { file: string },
  numbering: { gids: ArrayLike<number>; firsts: ArrayLike<number> },
): Generator<RowsJob> {
  let cities: CityJob[] = [];
  let venues = 0;
  // One object for each city of a job, however many of its points are placed in it: a message
  // to the worker then copies it once (structured clone keeps shared references).
  let ofJob = new Map<number, GeneratorCity>();
  const generatorCityOf = (row: CityRow) => {
    let city = ofJob.get(row.gid);
    if (city === undefined) ofJob.set(row.gid, (city = asGeneratorCity(row, countries)));
    return city;
  };
  const bands = sweep.cityBands();
  for (let band = bands?.first ?? 0; bands !== undefined && band <= bands.last; band++) {
    for (const row of sweep.advanceTo(band)) {
      const i = indexOf(numbering.gids, row.gid);
      const first = numbering.firsts[i] ?? 0;
      const count = (numbering.firsts[i + 1] ?? 0) - first;
      if (count === 0) continue;
      const city = generatorCityOf(row);
      const points = venuePoints(city, count, sources.seed);
      const placed = points.map((p) => {
        const found = sweep.placeOf(p.lat, p.lng);
        return found === undefined ? null : generatorCityOf(found);
      });
      cities.push({ city, first, points, placed });
      if ((venues += count) < JOB_VENUES) continue;
      yield { seed: sources.seed, file: sources.file, cities };
      [cities, venues, ofJob] = [[], 0, new Map()];
    }
  }
  if (cities.length > 0) yield { seed: sources.seed, file: sources.file, cities };
}

/** Venues of one job of the generator's worker, about. */
const JOB_VENUES = 2000;

/**
 * Generated venues: each city's are the venues numbered after those of the cities before it in
 * geonameid order (so the same cities give the same venues however they were read), made band by
 * band of latitude (PlaceSweep reads each city once), each venue's city found around its point by
 * the rule that places real venues; their rows made and written by a worker thread
 * (generate/rows.ts), then the venues without a city.
 */
async function generate(
  db: Database.Database,
  countries: ReadonlyMap<string, Country>,
  sources: VenueSources,
  progress: Progress,
): Promise<void> {
  progress.phase("generating venues", sources.venueCount);
  const cityless = citylessCount(sources.venueCount);
  const { gids, firsts } = venueNumbering(db, sources.venueCount - cityless);
  const largest = db.prepare("SELECT max(population) FROM raw_cities").pluck().get() as number | null;
  const sweep = new PlaceSweep(db, { marginKm: REACH_KM + spreadKm(largest ?? 0), names: false });
  const jobs = generatorJobs(
    sweep,
    countries,
    { ...sources, file: attachedPath(db, RAW_VENUES_FILE) },
    { gids, firsts },
  );
  let written = 0;
  try {
    for await (const n of rowsWrittenInWorker(jobs)) progress.tick((written += n));
  } finally {
    sweep.close();
  }
  const numbering = { seed: sources.seed, ids: new VenueIds(sources.seed) };
  const rows = (function* () {
    for (const v of citylessVenues(cityless, { ...numbering, first: firsts[gids.length] ?? 0 })) yield rawVenueRow(v);
  })();
  await writeRawVenues(db, rows, (n) => progress.tick(written + n));
}

/** Rows into raw_venues, in transactions of a batch. */
function writeRawVenues(
  db: Database.Database,
  rows: AsyncIterable<RawVenueRow> | Iterable<RawVenueRow>,
  tick: (n: number) => void,
): Promise<number> {
  const insert = db.prepare(INSERT_RAW_VENUE);
  return inBatches(db, rows, (row) => void insert.run(...row), tick);
}

/** Venues into raw_venues: from the files (each file's report filled in), or generated on the raw cities. */
export async function readVenueRows(
  db: Database.Database,
  sources: VenueSources,
  countries: ReadonlyMap<string, Country>,
  problems: Problems,
  progress: Progress,
): Promise<VenueFileReport[]> {
  if (sources.venueFiles.length === 0) {
    await generate(db, countries, sources, progress);
    return [];
  }
  const reports: VenueFileReport[] = [];
  await writeRawVenues(db, rowsOf(fromFiles(sources, problems, progress, reports)), (n) => progress.tick(n));
  return reports;
}

interface RepeatedRow {
  rowid: number;
  id: string;
  name: string;
  city_gid: number | null;
  url: string | null;
  file: string;
  line: number | string;
}

/**
 * A venue id given twice: the same row again (overlapping saved pages) is counted once; a
 * different row is a problem, reported at its line. Returns the number of repeats dropped.
 */
function dropRepeatedVenues(db: Database.Database, problems: Problems): number {
  const rows = db
    .prepare(
      `SELECT r.rowid, r.id, r.name, r.city_gid, r.url, r.file, r.line FROM raw_venues r
       JOIN (SELECT id FROM raw_venues GROUP BY id HAVING count(*) > 1) d ON d.id = r.id ORDER BY r.id, r.rowid`,
    )
    .all() as RepeatedRow[];
  let repeats = 0;
  const drop: number[] = [];
  let first: RepeatedRow | undefined;
  for (const r of rows) {
    if (first?.id !== r.id) {
      first = r;
      continue;
    }
    drop.push(r.rowid);
    if (first.name === r.name && first.city_gid === r.city_gid && first.url === r.url) repeats++;
    else problems.add(r.file, r.line, `venue id ${r.id} was already used (${first.file}:${first.line})`);
  }
  const remove = db.prepare("DELETE FROM raw_venues WHERE rowid = ?");
  db.transaction(() => {
    for (const rowid of drop) remove.run(rowid);
  })();
  return repeats;
}

/**
 * A setlist.fm id that several records link (two MusicBrainz places of one setlist.fm venue): the
 * first record keeps it, the others their source's own id and link.
 */
function ownIdsWhereRepeated(db: Database.Database): void {
  db.exec(`
    UPDATE raw_venues SET id = own_id, url = own_url, own_id = NULL, own_url = NULL
    WHERE own_id IS NOT NULL AND rowid IN (
      SELECT rowid FROM (SELECT rowid, row_number() OVER (PARTITION BY id ORDER BY rowid) AS k
                         FROM raw_venues WHERE id IN (SELECT id FROM raw_venues WHERE own_id IS NOT NULL))
      WHERE k > 1)`);
}

/** The checks that need every venue row; returns the number of repeated rows counted once. */
export function checkVenues(db: Database.Database, problems: Problems, progress: Progress): number {
  progress.phase("checking venue ids and cities");
  ownIdsWhereRepeated(db);
  const repeats = dropRepeatedVenues(db, problems);
  const missing = db.prepare(
    `SELECT v.id, v.city_gid, v.file, v.line FROM raw_venues v
     WHERE v.city_gid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM raw_cities c WHERE c.gid = v.city_gid)`,
  );
  const missingRows = missing.all() as { id: string; city_gid: number; file: string; line: number | string }[];
  for (const r of missingRows) {
    problems.add(r.file, r.line, `venue ${r.id}: city ${r.city_gid} is not among the imported cities`);
  }
  // Only when some are missing: the statement looks up every venue's city again (1M venues: 2.0 s).
  if (missingRows.length > 0) {
    db.exec("DELETE FROM raw_venues WHERE city_gid IS NOT NULL AND city_gid NOT IN (SELECT gid FROM raw_cities)");
  }
  problems.check();
  return repeats;
}
