/**
 * `npm run bench -- --venue-files`: importing real-venue files at size. Writes a SYNTHETIC
 * OpenStreetMap-style GeoJSON sequence of 1,000,000 venues and a SYNTHETIC Overpass answer of
 * about 1 GB (one JSON value: 4,000,000 venues) on the GeoNames cities (synthetic-venues.ts), imports
 * each with the default cities into a scratch file, and writes the time, the peak memory and what
 * was kept into docs/benchmarks.md ("venue-files").
 */
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { defaultSources } from "../import/sources/resolve.ts";
import type { ImportSummary } from "../import/run.ts";
import { bin, IMPORT_COMMAND, run } from "../tools/project.ts";
import { log, machine, TMP } from "./common.ts";
import { writeDocSection } from "./docs-section.ts";
import { writeSyntheticVenues } from "./synthetic-venues.ts";

interface FileFigures {
  label: string;
  format: "geojsonseq" | "overpass";
  venues: number;
  fileMB: number;
  seconds: number;
  peakMiB: number;
  kept: number;
}

const FILES = [
  { label: "GeoJSON sequence (`osmium export -f geojsonseq`)", format: "geojsonseq", venues: 1_000_000 },
  { label: "Overpass API answer (one JSON document)", format: "overpass", venues: 4_000_000 },
] as const;

async function measure(file: (typeof FILES)[number]): Promise<FileFigures> {
  const path = join(TMP, `synthetic-venues-${file.venues}.${file.format === "overpass" ? "json" : "geojsonseq"}`);
  log(`writing ${file.venues.toLocaleString("en-US")} synthetic venues as ${file.format}`);
  await writeSyntheticVenues(defaultSources().cities, path, file.venues, "synthetic venues", file.format);
  const database = join(TMP, "venue-files.sqlite");
  rmSync(database, { force: true });
  log(`importing ${path}`);
  const output = await run(bin("tsx"), [
    ...IMPORT_COMMAND,
    "--database",
    database,
    "--venues",
    path,
    "--force",
    "--fast",
    "--json",
    "-q",
  ]);
  const json = output.split("\n").find((l) => l.startsWith("{"));
  if (json === undefined) throw new Error(`unexpected import output:\n${output}`);
  const s = JSON.parse(json) as ImportSummary & { peakMiB: number };
  const figures = {
    label: file.label,
    format: file.format,
    venues: file.venues,
    fileMB: Math.round(statSync(path).size / 1e6),
    seconds: s.seconds,
    peakMiB: s.peakMiB,
    kept: s.counts.venues,
  };
  rmSync(path, { force: true });
  rmSync(database, { force: true });
  return figures;
}

function table(rows: readonly FileFigures[]): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const date = new Date().toISOString().slice(0, 10);
  return [
    `Measured ${date} on ${machine()}, with \`npm run bench -- --venue-files\` (SYNTHETIC OpenStreetMap-style venues on the GeoNames cities; the default cities imported with them).`,
    "",
    "| File | venues | size | import | peak RSS | venues kept |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...rows.map(
      (r) =>
        `| ${r.label} | ${n(r.venues)} | ${n(r.fileMB)} MB | ${r.seconds.toFixed(1)} s | ${r.peakMiB} MiB | ${n(r.kept)} |`,
    ),
  ].join("\n");
}

export async function benchVenueFiles(): Promise<void> {
  const rows: FileFigures[] = [];
  for (const file of FILES) rows.push(await measure(file));
  const text = table(rows);
  console.log(`\n${text}\n`);
  if (await writeDocSection("venue-files", text)) log("wrote the table into docs/benchmarks.md (venue-files)");
}
