/**
 * npm run data:venues -- [--count N] [--out FILE] — writes a SYNTHETIC OpenStreetMap-style GeoJSON
 * sequence of N venues (default 1,000,000) on GeoNames cities500 (scripts/bench/synthetic-venues.ts),
 * to measure importing real-venue files at size. Not real places.
 */
import "./node-version.ts";
import { mkdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { writeSyntheticVenues } from "./bench/synthetic-venues.ts";
import { defaultSources } from "./import/sources/resolve.ts";
import { ROOT } from "./tools/project.ts";

const { values } = parseArgs({ options: { count: { type: "string" }, out: { type: "string" } }, strict: true });
const count = Number(values.count ?? 1_000_000);
if (!Number.isSafeInteger(count) || count < 1) {
  console.error(`data:venues: --count wants a positive integer, got "${values.count ?? ""}"`);
  process.exit(1);
}
const out = resolve(values.out ?? join(ROOT, "bench", "tmp", `synthetic-venues-${count}.geojsonseq`));
mkdirSync(dirname(out), { recursive: true });
const started = Date.now();
const written = await writeSyntheticVenues(defaultSources().cities, out, count, "synthetic venues");
console.log(
  `Wrote ${written.toLocaleString("en-US")} SYNTHETIC venues (${(statSync(out).size / 1e6).toFixed(0)} MB) in ` +
    `${((Date.now() - started) / 1000).toFixed(1)} s to ${out}`,
);
