/**
 * What an import is asked (scripts/import.ts reads it from the command line: cli.ts): its sources,
 * its target and how it runs. run.ts imports by it; the modules it hands options to read them here.
 */
import type { MainVenues } from "../../src/data-contract/shards.ts";
import type { Plan } from "./publish/remote-plan.ts";
import type { LocalPublishOptions } from "./publish/steps.ts";
import type { ShardChoice } from "./shards/venues.ts";

export type Target =
  /** The local D1 database of `wrangler dev` (in `persistTo`, as wrangler's --persist-to). */
  | { kind: "local"; persistTo?: string | undefined }
  | { kind: "file"; path: string }
  /**
   * The Cloudflare D1 database of wrangler.toml's `DB` binding, or the one named `database` (a
   * venue database: shards/import.ts), through wrangler (IMPORT_WRANGLER: wrangler.ts).
   */
  | { kind: "remote"; database?: { name: string; id: string } };

export interface ImportOptions {
  cities?: string;
  admin1?: string;
  countries?: string;
  /** Localized names of cities and states (data/localized-names.tsv format). */
  localized?: string;
  /** Venue files or directories; none means generated venues. */
  venues?: string[];
  /** MusicBrainz place types that are venues (comma-separated; default: sources/venue-selection.ts). */
  musicbrainzTypes?: string | undefined;
  /** OSM tags (key=value, comma-separated) that make a venue. */
  osmTags?: string | undefined;
  venueCount?: number;
  seed?: string;
  /** Only the cities of at least this many people: a smaller data set (docs/deploy.md#workers-free). */
  minPopulation?: number;
  skipInvalid?: boolean;
  /** Import even when the target already holds this data version. */
  force?: boolean;
  /** Stored totals for name prefixes matching at least this many rows (tests use small data). */
  prefixCountMin?: number;
  /** Stored cell counts from this many records of a term (tests use small data). */
  cellCountMin?: number;
  /**
   * How the local publisher paces its writes: by default short transactions with pauses, so a
   * running `wrangler dev` keeps answering; the file target, a local D1 that holds no data yet,
   * and `npm start` (which imports before it serves) use FAST.
   */
  pacing?: LocalPublishOptions;
  target: Target;
  /** Remote imports: print what the import costs in D1's units, and stop before sending anything. */
  dryRun?: boolean;
  /** Remote imports: the Workers plan whose limits the import must fit (default paid). */
  plan?: Plan;
  /** Remote imports: send the whole data, not only what changed since the data served. */
  full?: boolean;
  /** One database of a shard plan (scripts/import/shards/import.ts): the main one, or a venue database. */
  shards?: ShardChoice;
  /** With --shards: what the main database keeps of the venues (`--main-venues`, shards/main-venues.ts). */
  mainVenues?: MainVenues;
  /** Staged, not swapped in: the caller swaps it (shards/swap-together.ts; a remote one's files: publish/remote-pending.ts). */
  swapLater?: boolean;
}
