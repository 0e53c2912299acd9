/**
 * One database of a shard plan imported in a process of its own (import.ts), with the Node flags
 * of `npm run db:import` (IMPORT_NODE_FLAGS): its options as JSON in the first argument, its
 * summary as JSON on stdout, its progress on stderr. Apart, each import peaks as one import does:
 * in one process the second import's workers started beside the heap the first had grown (20,000
 * venues: 619 MiB against 510).
 */
import { Progress } from "../progress.ts";
import { runImport } from "../run.ts";
import type { ImportOptions } from "../options.ts";
import { failureText, reportFailure } from "../../tools/failure.ts";

const { options, quiet } = JSON.parse(process.argv[2] ?? "{}") as { options: ImportOptions; quiet: boolean };
runImport(options, new Progress(process.stderr, quiet)).then(
  (summary) => {
    const peakMiB = Math.round(process.resourceUsage().maxRSS / 1024);
    // Exits once the summary is written: a pipe takes 64 KiB at a time, and a plan's is larger.
    process.stdout.write(JSON.stringify({ ...summary, peakMiB }), () => process.exit(0));
  },
  (error: unknown) => {
    reportFailure(failureText(error), error);
    process.exit(1);
  },
);
