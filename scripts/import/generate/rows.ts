/**
 * Generated venues as rows of raw_venues, made and written by a worker thread (rows-worker.ts)
 * while this one places them: the generator's names, their search text and URLs, and writing
 * them, are most of its cost, and run beside the placing on a second core. The worker writes into
 * the side file of raw_venues (phases/build-file.ts) with a connection of its own. Jobs and rows
 * keep their order, so the rows are the ones the in-memory generator makes (venues.ts), in the
 * same order.
 */
import { inWorker } from "../../tools/in-worker.ts";
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
  inWorker<RowsJob, number>(new URL("./rows-worker.ts", import.meta.url), jobs);
