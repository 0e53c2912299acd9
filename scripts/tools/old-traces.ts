/**
 * The traces `wrangler dev` kept of each request before the project's servers turned them off
 * (project.ts QUIET_WRANGLER): nothing bounded them and nothing writes them any more, so `npm
 * start` says where they lie and how much room they take (docs/benchmarks.md#wrangler-devs-local-traces).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { ROOT } from "./project.ts";

/** Less than this is not worth a line. */
const SAID_FROM_BYTES = 100 * 2 ** 20;

/** The bytes of the files under `dir` (0 when it does not exist). */
export function directoryBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return files.reduce((n, e) => n + statSync(join(e.parentPath, e.name)).size, 0);
}

/** Where a local state (wrangler dev's --persist-to) keeps its traces. */
export const tracesDir = (persistTo: string): string => join(persistTo, "v3", "observability");

/** A line about the traces an earlier `wrangler dev` left in the local state, or null (few, none, or still kept). */
export function oldTracesNotice(
  persistTo = join(ROOT, ".wrangler", "state"),
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  if (env.X_LOCAL_OBSERVABILITY === "true") return null;
  const dir = tracesDir(persistTo);
  const bytes = directoryBytes(dir);
  if (bytes < SAID_FROM_BYTES) return null;
  return (
    `Traces of earlier runs of wrangler dev take ${(bytes / 2 ** 30).toFixed(1)} GiB in ${relative(ROOT, dir) || dir}; ` +
    "it keeps none now (X_LOCAL_OBSERVABILITY=true npm start keeps them): delete that folder to free the room."
  );
}
