/**
 * npm run venues -- osm "Portland, OR" | musicbrainz [options]: real venues, fetched, kept under
 * data/venues/ and imported (scripts/venues/). Run with --help for the options.
 */
import "./node-version.ts";
import { Progress } from "./import/progress.ts";
import { HELP, parseVenuesArgs } from "./venues/cli.ts";
import { runVenues } from "./venues/run.ts";
import { failureText, reportFailure } from "./tools/failure.ts";

async function main(): Promise<void> {
  const command = parseVenuesArgs(process.argv.slice(2));
  if (command.help) {
    console.log(HELP);
    return;
  }
  await runVenues(command, new Progress(process.stderr));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    reportFailure(`npm run venues: ${failureText(error)}`, error);
    console.error("Nothing was imported; the data served before is still served.");
    process.exit(1);
  },
);
