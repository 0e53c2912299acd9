/**
 * npm start: makes sure the local D1 database holds the current data (applying migrations and
 * importing the default data when it does not), then runs `wrangler dev` on
 * http://localhost:8787. When the data is current this takes seconds.
 */
import "./node-version.ts";
import { spawn } from "node:child_process";
import { ImportError } from "./import/problems.ts";
import { Progress } from "./import/progress.ts";
import { bin, ROOT } from "./tools/project.ts";
import { FAST, runImport } from "./import/run.ts";

async function main(): Promise<void> {
  const progress = new Progress();
  progress.line("Checking the local database ...");
  // Nothing serves the database yet: it is published without pauses.
  const summary = await runImport({ target: { kind: "local" }, pacing: FAST }, progress);
  const n = (x: number) => x.toLocaleString("en-US");
  if (summary.skippedAsCurrent) {
    progress.line(
      `Local database is current: data version ${summary.dataVersion}, ${n(summary.counts.cities)} cities, ${n(summary.counts.venues)} venues.`,
    );
  } else {
    progress.line(
      `Imported the default data in ${summary.seconds.toFixed(1)} s: data version ${summary.dataVersion}, ` +
        `${n(summary.counts.cities)} cities, ${n(summary.counts.venues)} venues.`,
    );
  }
  progress.line("Starting wrangler dev on http://localhost:8787 ...");
  // The terminal is the developer's: wrangler dev keeps its interactive output.
  const dev = spawn(bin("wrangler"), ["dev", ...process.argv.slice(2)], { cwd: ROOT, stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => dev.kill(signal));
  dev.on("exit", (code) => process.exit(code ?? 0));
}

main().catch((error: unknown) => {
  console.error(error instanceof ImportError ? `\nnpm start: ${error.message}` : error);
  process.exit(1);
});
