/**
 * The generator's worker thread (rows.ts): a batch of cities, each with its venues' points and
 * the city each point was placed in, into rows of raw_venues — the names, their search text, the
 * URLs: what costs the generator most, done beside the thread that places and writes.
 */
import { answerJobs } from "../../tools/in-worker.ts";
import { rawVenueRow } from "../phases/raw-venue.ts";
import { VenueIds } from "./ids.ts";
import type { CityJob, RowsJob } from "./rows.ts";
import { cityVenueNames, placedVenue } from "./venues.ts";

let ids: { seed: string; ids: VenueIds } | null = null;

function cityRows(seed: string, job: CityJob): unknown[][] {
  if (ids?.seed !== seed) ids = { seed, ids: new VenueIds(seed) };
  const numbers = ids.ids;
  return cityVenueNames(job.city, job.points.length, seed).map((name, i) =>
    rawVenueRow(placedVenue(numbers.at(job.first + i), name, job.points[i] ?? job.city, job.placed[i] ?? null)),
  );
}

await answerJobs((job: RowsJob) => job.cities.flatMap((city) => cityRows(job.seed, city)));
