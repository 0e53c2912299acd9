/**
 * The worker thread that makes the rows of raw_cities (raw-city.ts) for read.ts and writes them
 * into the build file, a transaction a job: the rows never travel back to the main thread, which
 * only reads the file meanwhile (docs/import.md#cities-read-in-two-workers).
 */
import Database from "better-sqlite3";
import { answerJobs } from "../../tools/in-worker.ts";
import { isUniqueViolation } from "./batches.ts";
import { cityColumns, INSERT_RAW_CITY, type CityRowsJob, type CityRowsWritten, type RawCityRow } from "./raw-city.ts";

interface Out {
  file: string;
  db: Database.Database;
  insert: Database.Statement;
  replace: Database.Statement;
  lineOf: Database.Statement;
}
let out: Out | null = null;

/** The build file, opened once; the other worker's job waits while one writes (milliseconds). */
function fileOf(file: string): Out {
  if (out?.file !== file) {
    out?.db.close();
    const db = new Database(file, { timeout: 600_000 });
    db.pragma("synchronous = OFF");
    out = {
      file,
      db,
      insert: db.prepare(INSERT_RAW_CITY),
      replace: db.prepare(INSERT_RAW_CITY.replace("INSERT INTO", "INSERT OR REPLACE INTO")),
      lineOf: db.prepare("SELECT line FROM raw_cities WHERE gid = ?").pluck(),
    };
  }
  return out;
}

/** Writes a row; the line of the row not kept where its geonameid is there already (the earlier line is kept). */
function write(o: Out, row: RawCityRow): number | null {
  try {
    o.insert.run(...row);
    return null;
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    const [gid, line] = [row[0], Number(row[row.length - 1])];
    const kept = Number(o.lineOf.get(gid));
    if (line > kept) return line;
    o.replace.run(...row);
    return kept;
  }
}

await answerJobs((job: CityRowsJob): CityRowsWritten => {
  const o = fileOf(job.file);
  // Made before the transaction, which holds the file's write lock only while inserting.
  const rows = job.cities.map(([city, localized]) => cityColumns(city, localized));
  const repeated: [number, number][] = [];
  o.db
    .transaction(() => {
      for (const row of rows) {
        const line = write(o, row);
        if (line !== null) repeated.push([Number(row[0]), line]);
      }
    })
    .immediate();
  return { written: rows.length - repeated.length, repeated };
});
