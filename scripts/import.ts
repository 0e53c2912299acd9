/**
 * npm run db:import -- [options]: loads cities, states, countries and venues into D1.
 * Run with --help for the options (scripts/import/cli.ts).
 */
import "./node-version.ts";
import { HELP, parseImportArgs } from "./import/cli.ts";
import { ImportError } from "./import/problems.ts";
import { Progress } from "./import/progress.ts";
import { runImport } from "./import/run.ts";
import { costLine, totalCost } from "./import/publish/remote-plan.ts";
import type { ImportOptions } from "./import/options.ts";
import { runShardedImport, type ShardedSummary } from "./import/shards/import.ts";
import { sizedLine } from "./import/shards/size.ts";
import { summaryText } from "./import/summary.ts";
import { failureText, reportFailure } from "./tools/failure.ts";
import { MAIN_HOLDS_NO_VENUE } from "../src/data-contract/shards.ts";

async function main(): Promise<number> {
  const command = parseImportArgs(process.argv.slice(2));
  if (command.help) {
    console.log(HELP);
    return 0;
  }
  const progress = () => new Progress(process.stderr, command.quiet);
  const peakMiB = () => Math.round(process.resourceUsage().maxRSS / 1024);
  if (command.shards !== undefined) {
    const sharded = await runShardedImport(command.options, command.shards, command.quiet);
    console.log(command.json ? JSON.stringify({ ...sharded, peakMiB: peakMiB() }) : shardedText(sharded, command));
    return 0;
  }
  const summary = await runImport(command.options, progress());
  console.log(command.json ? JSON.stringify({ ...summary, peakMiB: peakMiB() }) : summaryText(summary, command.where));
  return 0;
}

/** Each database's summary; for the remote databases, what they cost in all. */
function shardedText(sharded: ShardedSummary, command: { where: string; options: ImportOptions }): string {
  const remote = command.options.target.kind === "remote";
  // A main database without venues counts them all; they are in the venue databases.
  const apart = command.options.mainVenues === MAIN_HOLDS_NO_VENUE ? " (its venues in the venue databases)" : "";
  const texts = [
    summaryText(sharded.main, `${command.where}${apart}`),
    ...sharded.shards.map((s) => summaryText(s.summary, remote ? `the remote database ${s.file}` : s.file)),
  ];
  const costs = [sharded.main, ...sharded.shards.map((s) => s.summary)].flatMap((s) => s.remote?.cost ?? []);
  if (remote && costs.length > 0)
    texts.push(`In all, ${costs.length} databases (sizes: the largest one's): ${costLine(totalCost(costs), null)}`);
  if (sharded.sized !== undefined) texts.push(sizedLine(sharded.sized));
  return texts.join("\n");
}

/** The failure in one line, with what became of the data served before (on a line of its own after a list). */
function failureLine(error: unknown): string {
  const text = failureText(error);
  const served = error instanceof ImportError && error.saysWhatIsServed;
  const note = served
    ? ""
    : text.includes("\n")
      ? "\nThe data that was there before is unchanged."
      : "; the data that was there before is unchanged";
  return `${process.stderr.isTTY ? "\n" : ""}import failed: ${text}${note}`;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    reportFailure(failureLine(error), error);
    process.exit(1);
  },
);
