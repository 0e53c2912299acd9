/** `npm run venues` arguments (scripts/venues.ts runs them). */
import { parseArgs } from "node:util";
import { FetchError } from "./http.ts";
import { DEFAULT_DIR } from "./store.ts";

const DEFAULT_ENDPOINT = "https://overpass-api.de/api/";
const DEFAULT_MIRROR = "https://data.metabrainz.org/pub/musicbrainz/data/json-dumps/";

export const HELP = `Usage: npm run venues -- osm PLACE [options]
       npm run venues -- musicbrainz [options]

Fetches real venues, keeps them under data/venues/ and imports them with the venue files you
imported before (never dropping those), so that the next \`npm start\` serves them.

  osm PLACE     OpenStreetMap's venues of a place, from an Overpass API server: a city
                ("Berlin", "Portland, OR"), a region ("Bavaria", "ON", "Georgia, US"), a
                country ("DE", "Japan") or a box ("minLong,minLat,maxLong,maxLat"), read as the
                searches read a place. An area too large for the server is fetched in tiles.
  musicbrainz   The places of the newest MusicBrainz JSON dump (place.tar.xz): downloaded once
                per dump, resumed after a break, checked against the dump's SHA256SUMS. Places
                that link their setlist.fm venue page are served under setlist.fm's id.

Options:
  --endpoint URL      the Overpass API (default ${DEFAULT_ENDPOINT})
  --mirror URL        the MusicBrainz JSON dumps folder (default ${DEFAULT_MIRROR})
  --dir DIR           where downloads are kept (default data/venues)
  --dry-run           print the reading of the place and the query, or the files it would
                      fetch; fetch and import nothing
  --no-import         download, but do not import
  --timeout S         the Overpass query's [timeout:S], seconds (default 180)
  --maxsize BYTES     the Overpass query's [maxsize:BYTES] (default 536870912)
  --retries N         times a refused query (429, 504) or a broken download is tried again (default 5)
  --pause S           seconds to wait at least after the Overpass server refuses a query
                      (default 30, as its operators ask)
  --contact TEXT      an e-mail address or URL for the User-Agent, so that a server's operator
                      can reach you
  --persist-to DIR    import into the local D1 state in DIR (as wrangler dev --persist-to)
  --database FILE     import into this SQLite file instead (tests)
  --verbose           a failure's stack trace after its line (DEBUG=1 does the same)
  -h, --help          this text`;

const OPTIONS = {
  endpoint: { type: "string" },
  mirror: { type: "string" },
  dir: { type: "string" },
  "dry-run": { type: "boolean" },
  "no-import": { type: "boolean" },
  timeout: { type: "string" },
  maxsize: { type: "string" },
  retries: { type: "string" },
  pause: { type: "string" },
  contact: { type: "string" },
  "persist-to": { type: "string" },
  database: { type: "string" },
  // Read by scripts/tools/failure.ts, from the arguments.
  verbose: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

export interface VenuesCommand {
  source: "osm" | "musicbrainz" | null;
  place: string;
  endpoint: string;
  mirror: string;
  dir: string;
  dryRun: boolean;
  importAfter: boolean;
  timeout: number;
  maxsize: number;
  retries: number;
  pauseSeconds: number;
  contact: string | undefined;
  target: { kind: "local"; persistTo?: string | undefined } | { kind: "file"; path: string };
  help: boolean;
}

function count(value: string | undefined, flag: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,10}$/.test(value) || Number(value) > max)
    throw new FetchError(`${flag} wants a whole number up to ${max}, got "${value}"`);
  return Number(value);
}

function httpUrl(value: string | undefined, flag: string, fallback: string): string {
  if (value === undefined) return fallback;
  if (!/^https?:\/\//.test(value) || !URL.canParse(value))
    throw new FetchError(`${flag} wants an http(s) URL, got "${value}"`);
  return value;
}

export function parseVenuesArgs(args: string[]): VenuesCommand {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, strict: true, allowPositionals: true });
  const [source, ...rest] = positionals;
  if (values.help !== true && source !== "osm" && source !== "musicbrainz")
    throw new FetchError(`say what to fetch: osm PLACE, or musicbrainz (npm run venues -- --help)`);
  if (source === "osm" && rest.length !== 1)
    throw new FetchError('name one place, in quotes if it has spaces: osm "Portland, OR"');
  if (source === "musicbrainz" && rest.length > 0)
    throw new FetchError(`musicbrainz takes no place (it fetches every place of the dump)`);
  if (values["persist-to"] !== undefined && values.database !== undefined)
    throw new FetchError("--persist-to and --database exclude each other");
  return {
    source: source === "osm" || source === "musicbrainz" ? source : null,
    place: rest[0] ?? "",
    endpoint: httpUrl(values.endpoint, "--endpoint", DEFAULT_ENDPOINT),
    mirror: httpUrl(values.mirror, "--mirror", DEFAULT_MIRROR),
    dir: values.dir ?? DEFAULT_DIR,
    dryRun: values["dry-run"] === true,
    importAfter: values["no-import"] !== true,
    timeout: count(values.timeout, "--timeout", 180, 3600),
    maxsize: count(values.maxsize, "--maxsize", 536_870_912, 2 ** 34),
    retries: count(values.retries, "--retries", 5, 20),
    pauseSeconds: count(values.pause, "--pause", 30, 3600),
    contact: values.contact,
    target:
      values.database === undefined
        ? { kind: "local", persistTo: values["persist-to"] }
        : { kind: "file", path: values.database },
    help: values.help === true,
  };
}
