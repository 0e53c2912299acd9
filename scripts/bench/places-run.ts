/**
 * `npm run bench -- --places`: search that understands what people type, measured on the default
 * data (cities500 and 250,000 generated venues) through `wrangler dev`, every request a miss:
 * recall@1 of a place in the text and of names written the other way, precision with a typo in
 * the place, the typo fallback's recall, and what a reading costs against the plain name class
 * (docs/benchmarks.md#a-place-in-the-text).
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { defaultSources } from "../import/sources/resolve.ts";
import { d1Database, localD1File } from "../import/wrangler.ts";
import { stopDevServers } from "../tools/dev-server.ts";
import { ROOT } from "../tools/project.ts";
import { log, machine, measureClasses, report, startMissWorker, timedImport, TMP } from "./common.ts";
import { placeQueries, precisionQueries, readSources, spellingQueries } from "./place-queries.ts";
import { measurePlaceSet } from "./places.ts";
import { placesTargets, placesText, type PlacesResults } from "./places-render.ts";
import { QUERY_CLASSES } from "./query-classes.ts";
import { measureRecall, sampleCities, sampleVenues } from "./recall.ts";

const SEED = "bench places";
const RECALL_SAMPLES = 200;
const PLACES_RESULTS = join(ROOT, "bench", "places.json");

/** The classes with a place in the text, the classes they are compared with, and a typo miss. */
const COST_CLASSES = QUERY_CLASSES.filter(
  (c) =>
    c.plainPair !== undefined ||
    QUERY_CLASSES.some((p) => p.plainPair === c.id) ||
    c.id === "city-fuzzy" ||
    c.id === "venue-fuzzy-common",
);

async function measureAll(misses: string, db: Database.Database) {
  log("building the query sets from the GeoNames files");
  const sources = await readSources();
  const places = placeQueries(sources, SEED);
  const sets = [
    ...(await measurePlaceSet(misses, "places", places)),
    ...(await measurePlaceSet(misses, "spellings", spellingQueries(sources))),
    ...(await measurePlaceSet(misses, "precision", precisionQueries(places, SEED))),
  ];
  log("typo recall: names from GeoNames and from the venues, with typos");
  const cities = await sampleCities(defaultSources().cities, RECALL_SAMPLES, SEED);
  const recall = [
    ...(await measureRecall(misses, "cities", cities, SEED)),
    ...(await measureRecall(misses, "venues", sampleVenues(db, RECALL_SAMPLES, SEED), SEED)),
  ];
  const classes = await measureClasses(misses, db, COST_CLASSES);
  return { sets, recall, classes };
}

export async function benchPlaces(): Promise<void> {
  const started = Date.now();
  const state = join(TMP, "places-state");
  rmSync(state, { recursive: true, force: true });
  log("importing the default data (250,000 venues) into bench/tmp/places-state");
  const imported = await timedImport(250_000, ["--persist-to", state]);
  const misses = await startMissWorker(8794, state);
  try {
    const db = new Database(localD1File(d1Database().id, state), { readonly: true, fileMustExist: true });
    const measured = await measureAll(misses, db);
    db.close();
    const results: PlacesResults = {
      date: new Date().toISOString().slice(0, 10),
      machine: machine(),
      import: imported,
      ...measured,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    writeFileSync(PLACES_RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    const targets = placesTargets(results);
    await report(placesText(results, targets), targets, "places");
  } finally {
    stopDevServers();
  }
}
