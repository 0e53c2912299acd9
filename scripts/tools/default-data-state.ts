/**
 * A local D1 state that holds the default data, for the tools that serve it to test it (the browser
 * tests, the load test): imported into .wrangler/default-data once, and skipped while it holds the
 * current data version — so a CI run imports the default data once for them and for
 * test/node/geonames-areas.test.ts, which counts its cities, and `npm start`'s own
 * state, perhaps holding venues a user imported, is never touched by a test.
 */
import { join } from "node:path";
import { Progress } from "../import/progress.ts";
import { runImport, type ImportSummary } from "../import/run.ts";
import { FAST } from "../import/publish/steps.ts";
import { ROOT } from "./project.ts";

export const DEFAULT_DATA_STATE = join(ROOT, ".wrangler", "default-data");

/** Imports the default data into DEFAULT_DATA_STATE unless it is current (nothing serves it meanwhile: no pacing). */
export function importDefaultDataState(progress = new Progress(process.stderr, true)): Promise<ImportSummary> {
  return runImport({ target: { kind: "local", persistTo: DEFAULT_DATA_STATE }, pacing: FAST }, progress);
}
