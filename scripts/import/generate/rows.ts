/**
 * Generated venues as rows of raw_venues, made and written by worker threads (rows-worker.ts)
 * while this one places them: the generator's names, their search text and URLs, and writing
 * them, are most of its cost (about 19 µs a venue against 4 for placing), and run beside the
 * placing on the other cores. Each worker writes into the side file of raw_venues
 * (phases/build-file.ts) with a connection of its own, a transaction a job. The rows are the ones
 * the in-memory generator makes (venues.ts); jobs of different workers may land in either order,
 * which nothing reads (the served order is by city, name and id).
 */
import { inWorker, ROW_WORKERS } from "../../tools/in-worker.ts";
import type { GeneratorCity, Point } from "./venues.ts";

/** One city's venues: their numbers from `first`, their points, and the city each point is in. */
export interface CityJob {
  city: GeneratorCity;
  first: number;
  points: Point[];
  placed: (GeneratorCity | null)[];
}

export interface RowsJob {
  seed: string;
  /** The SQLite file whose table raw_venues the rows go into. */
  file: string;
  cities: CityJob[];
}

/** How many rows each job wrote, in the order of the jobs. */
export const rowsWrittenInWorker = (jobs: Iterable<RowsJob>): AsyncGenerator<number> =>
  inWorker<RowsJob, number>(new URL("./rows-worker.ts", import.meta.url), jobs, ROW_WORKERS);
