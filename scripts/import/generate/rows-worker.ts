/**
 * The generator's worker thread (rows.ts): a batch of cities, each with its venues' points and
 * the city each point was placed in, into rows of raw_venues — the names, their search text, the
 * URLs — written into the job's file: what costs the generator most, done beside the thread that
 * places the venues.
 */
import Database from "better-sqlite3";
import { answerJobs } from "../../tools/in-worker.ts";
import { INSERT_RAW_VENUE, rawVenueRow } from "../phases/raw-venue.ts";
import { VenueIds } from "./ids.ts";
import type { CityJob, RowsJob } from "./rows.ts";
import { cityVenueNames, placedVenue } from "./venues.ts";

let ids: { seed: string; ids: VenueIds } | null = null;
let out: { file: string; insert: Database.Statement; db: Database.Database } | null = null;

function cityRows(seed: string, job: CityJob): unknown[][] {
  if (ids?.seed !== seed) ids = { seed, ids: new VenueIds(seed) };
  const numbers = ids.ids;
  return cityVenueNames(job.city, job.points.length, seed).map((name, i) =>
    rawVenueRow(placedVenue(numbers.at(job.first + i), name, job.points[i] ?? job.city, job.placed[i] ?? null)),
  );
}

/**
 * The job's file, opened once: written in a transaction a job (it commits before the answer, so
 * the file is whole whenever the main thread reads it). Other workers write the same file: a job
 * waits for the one writing (a job's transaction takes milliseconds).
 */
function fileOf(file: string): { insert: Database.Statement; db: Database.Database } {
  if (out?.file !== file) {
    out?.db.close();
    const db = new Database(file, { timeout: 600_000 });
    db.pragma("synchronous = OFF");
    out = { file, db, insert: db.prepare(INSERT_RAW_VENUE) };
  }
  return out;
}

await answerJobs((job: RowsJob) => {
  const { db, insert } = fileOf(job.file);
  const rows = job.cities.flatMap((city) => cityRows(job.seed, city));
  // Made before the transaction, which holds the file's write lock only while inserting.
  db.transaction(() => {
    for (const row of rows) insert.run(...row);
  }).immediate();
  return rows.length;
});
