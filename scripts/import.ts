/**
 * npm run db:import -- [options]: loads cities, states, countries and venues into D1.
 * Run with --help for the options (scripts/import/cli.ts).
 */
import "./node-version.ts";
import { HELP, parseImportArgs } from "./import/cli.ts";
import { ImportError } from "./import/problems.ts";
import { Progress } from "./import/progress.ts";
import { runImport } from "./import/run.ts";
import { summaryText } from "./import/summary.ts";

async function main(): Promise<number> {
  const command = parseImportArgs(process.argv.slice(2));
  if (command.help) {
    console.log(HELP);
    return 0;
  }
  const summary = await runImport(command.options, new Progress(process.stderr, command.quiet));
  const peakMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(command.json ? JSON.stringify({ ...summary, peakMiB }) : summaryText(summary, command.where));
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (
      error instanceof ImportError ||
      (error instanceof TypeError && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS"))
    ) {
      console.error(`\nimport failed: ${error.message}`);
      console.error("The data that was there before is unchanged.");
    } else {
      console.error("\nimport failed; the data that was there before is unchanged.\n", error);
    }
    process.exit(1);
  },
);
