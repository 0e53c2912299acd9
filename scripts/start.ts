/**
 * npm start: makes sure the local D1 database holds data (applying migrations, and importing the
 * default data into an empty database or over an outdated default import), then runs
 * `wrangler dev` on http://localhost:8787. A user's own import (`npm run db:import -- --venues …`)
 * is never replaced: it is served, and npm start says what it serves. When the data is current
 * this takes seconds.
 */
import "./node-version.ts";
import { spawn } from "node:child_process";
import { ImportError } from "./import/problems.ts";
import { Progress } from "./import/progress.ts";
import { bin, ROOT } from "./tools/project.ts";
import { ensureData } from "./import/start-data.ts";

async function main(): Promise<void> {
  const progress = new Progress();
  await ensureData(progress);
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
