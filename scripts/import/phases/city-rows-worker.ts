/** The worker thread that makes the rows of raw_cities (raw-city.ts) for read.ts. */
import { answerJobs } from "../../tools/in-worker.ts";
import { cityColumns, type CityJob } from "./raw-city.ts";

await answerJobs((jobs: CityJob[]) => jobs.map(([city, localized]) => cityColumns(city, localized)));
