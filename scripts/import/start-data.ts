/**
 * The data `npm start` serves (scripts/start.ts): a user's own import as it is, never replaced
 * silently; the default data imported only into an empty database or over an outdated default
 * import, saying why.
 */
import type { Progress } from "./progress.ts";
import { FAST, runImport } from "./run.ts";
import { resolveSources } from "./sources/resolve.ts";
import { storedImport } from "./target.ts";
import { d1Database, localD1File, migrateLocal } from "./wrangler.ts";

const n = (x: number) => x.toLocaleString("en-US");

/** The data npm start serves: the user's own import as it is, else the current default data. */
export async function ensureData(progress: Progress, persistTo?: string): Promise<"own" | "current" | "imported"> {
  progress.line("Checking the local database ...");
  await migrateLocal(persistTo);
  const stored = storedImport(localD1File(d1Database().id, persistTo));
  const defaults = resolveSources({ target: { kind: "local" } }).description;
  if (stored !== null && stored.sources !== defaults) {
    progress.line(
      `Serving your own import of ${stored.importedAt.slice(0, 10)} (${stored.sources}): ` +
        `${n(stored.cities)} cities, ${n(stored.venues)} venues. \`npm run db:import\` without options brings the default data back.`,
    );
    return "own";
  }
  // Nothing serves the database yet: it is published without pauses.
  const summary = await runImport({ target: { kind: "local", persistTo }, pacing: FAST }, progress);
  if (summary.skippedAsCurrent) {
    progress.line(
      `Local database is current: data version ${summary.dataVersion}, ${n(summary.counts.cities)} cities, ${n(summary.counts.venues)} venues.`,
    );
    return "current";
  }
  const why =
    stored === null ? "the local database was empty" : `the default data changed (data version ${stored.dataVersion})`;
  progress.line(
    `Imported the default data in ${summary.seconds.toFixed(1)} s, because ${why}: data version ${summary.dataVersion}, ` +
      `${n(summary.counts.cities)} cities, ${n(summary.counts.venues)} venues.`,
  );
  return "imported";
}
