/** The import's summary for people: what was imported where, what was left out, each phase's cost. */
import { costLine } from "./publish/remote-plan.ts";
import type { ImportSummary } from "./run.ts";
import type { VenueFileReport } from "./sources/venue-files.ts";

/** An import that found the target current: what it holds, and the merges it sent alone. */
function currentText(s: ImportSummary, target: string): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const merged =
    s.merged === undefined ? "" : `; its search indexes ${s.merged.join(", ")} merged into one segment each`;
  return (
    `${target} already holds data version ${s.dataVersion} (${n(s.counts.cities)} cities, ${n(s.counts.venues)} venues)` +
    `${merged}; nothing ${merged === "" ? "" : "more "}to do (--force re-imports).`
  );
}

export function summaryText(s: ImportSummary, target: string): string {
  const n = (x: number) => x.toLocaleString("en-US");
  if (s.skippedAsCurrent) return currentText(s, target);
  const c = s.counts;
  const lines = s.remote?.dryRun
    ? [
        `Dry run: nothing was sent to ${target}; data version ${s.dataVersion} (the SQL files are kept for the run that sends them)`,
      ]
    : [`Imported into ${target}: data version ${s.dataVersion}`];
  if (s.remote) lines.push(...remoteLines(s.remote));
  if (c.cities > 0) {
    lines.push(
      `  countries ${n(c.countries)}, states ${n(c.admin1)}, cities ${n(c.cities)}, venues ${n(c.venues)}, ` +
        `vocabulary ${n(c.words)} words, localized names ${n(c.localizedNames)}`,
    );
  }
  lines.push(...outsideAdmin1Lines(c.outsideAdmin1));
  lines.push(...leftOutLines(c));
  if (c.duplicateVenues) lines.push(`  ${n(c.duplicateVenues)} repeated venue rows counted once`);
  lines.push(...c.venueFiles.map(venueFileLine));
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
  const rss = s.peakMiB ?? process.resourceUsage().maxRSS / 1024;
  lines.push(`  took ${s.seconds.toFixed(1)} s, peak memory ${Math.round(rss)} MiB`);
  return lines.join("\n");
}

/** What reading the cities left out. */
function leftOutLines(c: ImportSummary["counts"]): string[] {
  const n = (x: number) => x.toLocaleString("en-US");
  return [
    c.notPopulated ? `  left out ${n(c.notPopulated)} rows that are not populated places` : "",
    c.belowMinPopulation ? `  left out ${n(c.belowMinPopulation)} places below --min-population` : "",
    c.badAlternateNames ? `  left out ${n(c.badAlternateNames)} alternate names with control characters` : "",
  ].filter(Boolean);
}

/** What a remote import sent, and what D1 said it counted against what was worked out before. */
function remoteLines(r: NonNullable<ImportSummary["remote"]>): string[] {
  const n = (x: number) => x.toLocaleString("en-US");
  const mb = (x: number | null) => (x === null ? "?" : `${(x / 1e6).toFixed(1)} MB`);
  const lines = [
    `  ${n(r.files)} SQL files, ${mb(r.cost.bytes)} to send${r.skipped > 0 ? `, ${n(r.skipped)} of them applied before (resumed)` : ""}`,
  ];
  // Also where -q kept the first line quiet: the figures are what a dry run is for.
  if (r.dryRun) lines.push(`  ${costLine(r.cost, null)}`);
  if (r.applied) {
    const a = r.applied;
    lines.push(
      `  D1 counted ${a.rowsWritten === null ? "?" : n(a.rowsWritten)} rows written (worked out before: ${n(r.cost.rows)}); ` +
        `the database is ${mb(a.sizeAfter)} (${mb(r.cost.sizeAfter)}), at most ${mb(a.peakSize)} meanwhile (${mb(r.cost.sizeDuring)})`,
    );
  }
  return lines;
}

/** One venue file: read, kept, skipped by reason, and how its venues were placed. */
function venueFileLine(r: VenueFileReport): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const skipped = Object.entries(r.skipped)
    .sort(([, a], [, b]) => b - a)
    .map(([reason, count]) => `${n(count)} ${reason}`);
  const p = r.placed;
  const placed = p
    ? `; city given ${n(p.given)}, by source city ${n(p.hint)}, by position ${n(p.position)}, without a city ${n(p.none)}` +
      (p.sameVenue > 0 ? `; ${n(p.sameVenue)} already given by an earlier file` : "")
    : "";
  const names = r.names > 0 ? ` with ${n(r.names)} other names (aliases, old names, names in other languages)` : "";
  const setlist = (r.setlistIds ?? 0) > 0 ? `; ${n(r.setlistIds ?? 0)} under their setlist.fm id` : "";
  return `  ${r.file} (${r.format}): read ${n(r.read)}, kept ${n(r.kept)}${names}${skipped.length > 0 ? `, skipped ${skipped.join(", ")}` : ""}${placed}${setlist}`;
}

/** Cities served without a state because the admin-1 table lacks their code: how many, per country. */
export function outsideAdmin1Lines(outside: [country: string, cities: number][]): string[] {
  if (outside.length === 0) return [];
  const n = (x: number) => x.toLocaleString("en-US");
  const total = outside.reduce((sum, [, cities]) => sum + cities, 0);
  const shown = outside.slice(0, 12).map(([country, cities]) => `${country} ${n(cities)}`);
  const more = outside.length > shown.length ? `, and ${n(outside.length - shown.length)} more countries` : "";
  return [
    `  ${n(total)} cities in ${n(outside.length)} ${outside.length === 1 ? "country" : "countries"} carry an admin-1 code ` +
      `that the admin-1 table lacks, and are served without a state: ${shown.join(", ")}${more}`,
    `    (an admin-1 table of another GeoNames date than the cities? GeoNames renumbers regions; use the two files of one date)`,
  ];
}
