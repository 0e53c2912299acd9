/**
 * Generated venues as rows of raw_venues, made in a worker thread (rows-worker.ts) while this one
 * places them and writes them: the generator's names, their search text and URLs are most of its
 * cost, and run beside the placing and the writes on a second core. Jobs and rows keep their order,
 * so the rows are the ones the in-memory generator makes (venues.ts), in the same order.
 */
import { inWorker } from "../../tools/in-worker.ts";
import type { RawVenueRow } from "../phases/raw-venue.ts";
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
  cities: CityJob[];
}

/** The rows of each job, in the order of the jobs. */
export const rowsInWorker = (jobs: Iterable<RowsJob>): AsyncGenerator<RawVenueRow[]> =>
  inWorker<RowsJob, RawVenueRow[]>(new URL("./rows-worker.ts", import.meta.url), jobs);
