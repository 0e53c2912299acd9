/**
 * npm start [-- wrangler dev options]: makes sure the local D1 database holds data (applying
 * migrations, and importing the default data into an empty database or over an outdated default
 * import), then runs `wrangler dev` on http://localhost:8787, or the port given
 * (`npm start -- --port 8800`). A user's own import (`npm run db:import -- --venues …`) is never
 * replaced: it is served, and npm start says what it serves. When the data is current this takes
 * seconds.
 */
import "./node-version.ts";
import { spawn } from "node:child_process";
import { Progress } from "./import/progress.ts";
import { failureText, reportFailure } from "./tools/failure.ts";
import { bin, QUIET_WRANGLER, ROOT } from "./tools/project.ts";
import { devConfigArgs } from "./tools/dev-configs.ts";
import { oldTracesNotice } from "./tools/old-traces.ts";
import { ensureData } from "./import/start-data.ts";
import { d1Database, devPort, localD1File } from "./import/wrangler.ts";
import { shardsConfigArgs } from "./import/shards/config.ts";
import { storedImport } from "./import/target.ts";

async function main(): Promise<void> {
  const progress = new Progress();
  await ensureData(progress);
  const args = process.argv.slice(2);
  const stored = storedImport(localD1File(d1Database().id));
  const shards = stored?.shards ?? 0;
  const config = shardsConfigArgs(args, shards > 0);
  const apart = stored?.holdsVenues === false ? " (the main database without venues)" : "";
  const traces = oldTracesNotice();
  if (traces !== null) progress.line(traces);
  progress.line(
    `Starting wrangler dev on http://localhost:${devPort(args)}${config.length > 0 ? ` with ${shards} venue databases${apart}` : ""} ...`,
  );
  // The terminal is the developer's: wrangler dev keeps its interactive output.
  const dev = spawn(bin("wrangler"), ["dev", ...devConfigArgs([...config, ...args])], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...QUIET_WRANGLER, ...process.env },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => dev.kill(signal));
  dev.on("exit", (code) => process.exit(code ?? 0));
}

main().catch((error: unknown) => {
  reportFailure(`${process.stderr.isTTY ? "\n" : ""}npm start: ${failureText(error)}`, error);
  process.exit(1);
});
