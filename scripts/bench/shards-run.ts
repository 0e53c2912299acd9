/**
 * `npm run bench -- --shards`: what the venues cost spread over several D1 databases by the shard
 * plan (scripts/import/shards/plan.ts), at 2, 3, 4 and 8 venue databases: per database its
 * venues and its bytes, after an import and during a re-import of it alone (its old and new data
 * at once). The default data and 1,000,000 venues are counted on their imported states (as
 * `--dearest` leaves them; imported when not current); 10,000,000 and 30,000,000 venues are the
 * 1,000,000 venues' places scaled, said as such (the generator gives each city venues in
 * proportion to its weight, so a place's share does not change with the total). Bytes per venue
 * are the venue tables' of the 1,000,000-venue state, measured by SQLite's dbstat.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { shardCell } from "../../src/data-contract/shards.ts";
import { d1Database, localD1File } from "../import/wrangler.ts";
import { planShards, type PlaceCount } from "../import/shards/plan.ts";
import { PAID_BYTES } from "../import/publish/remote-plan.ts";
import { DEFAULT_DATA_STATE, importDefaultDataState } from "../tools/default-data-state.ts";
import { log, machine, timedImport, TMP } from "./common.ts";
import { writeDocSection } from "./docs-section.ts";
import { tableSizes } from "./sizes.ts";

/** The tables a venue database holds whole (each resource's share of the shared ones is counted apart). */
const VENUE_TABLES = ["venues", "venues_fts", "venue_name_words_fts", "venue_name_texts", "venue_blocks"];
/** The venue databases of each plan. */
const SHARDS = [2, 3, 4, 8];

/** The venues of a state's file per place (country, state, cell at SHARD_CELL_LEVEL). */
function placesOf(db: Database.Database): PlaceCount[] {
  const rows = db.prepare(
    // A venue's place is its city's, as the import places it (scripts/import/shards/venues.ts).
    `SELECT coalesce(c.country_code, '') AS country, coalesce(c.admin1_code, '') AS state,
            coalesce(c.lat, v.lat) AS lat, coalesce(c.lng, v.lng) AS lng
     FROM venues v LEFT JOIN cities c ON c.pos = v.city_pos`,
  );
  const counts = new Map<string, PlaceCount>();
  for (const row of rows.iterate() as Iterable<{
    country: string;
    state: string;
    lat: number | null;
    lng: number | null;
  }>) {
    const cell = row.country === "" || row.lat === null || row.lng === null ? 0 : shardCell(row.lat, row.lng);
    const key = `${row.country}/${row.state}/${cell}`;
    const place = counts.get(key) ?? { country: row.country, state: row.state, cell, venues: 0 };
    place.venues++;
    counts.set(key, place);
  }
  return [...counts.values()];
}

/** Bytes a venue takes in its database: the venue tables, and the venues' share of the cell counts. */
function bytesPerVenue(path: string, db: Database.Database, venues: number): number {
  const { tables } = tableSizes(path);
  const mib = (t: string) => tables.find((x) => x.table === t)?.mib ?? 0;
  const share = db.prepare("SELECT avg(kind = 'venue') FROM cell_counts").pluck().get() as number;
  return ((VENUE_TABLES.reduce((n, t) => n + mib(t), 0) + share * mib("cell_counts")) * 2 ** 20) / venues;
}

const mb = (bytes: number): string =>
  bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(0)} MB`;

/** The table of one size: per number of databases, the largest and smallest database. */
function sizeTable(label: string, places: readonly PlaceCount[], scale: number, perVenue: number): string {
  const lines = [
    `${label}:`,
    "",
    "| venue databases | regions | countries split by state (states by cell) | most venues in one | fewest | largest database after | during its re-import | within 10 GB |",
    "|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const n of SHARDS) {
    const plan = planShards(places, n);
    const venues = plan.map((s) => Math.round(s.venues * scale));
    const most = Math.max(...venues);
    const regions = plan.flatMap((s) => s.regions);
    const split = new Set(regions.filter((r) => r.state !== undefined).map((r) => r.country)).size;
    const byCell = new Set(regions.filter((r) => r.cell !== undefined).map((r) => `${r.country}/${r.state ?? ""}`))
      .size;
    const fits = 2 * most * perVenue <= PAID_BYTES ? "yes" : "no";
    lines.push(
      `| ${n} | ${regions.length} | ${split} (${byCell}) | ${most.toLocaleString("en-US")} | ${Math.min(...venues).toLocaleString("en-US")} | ${mb(most * perVenue)} | ${mb(2 * most * perVenue)} | ${fits} |`,
    );
  }
  return lines.join("\n");
}

export async function benchShards(): Promise<void> {
  const started = Date.now();
  await importDefaultDataState();
  const state = join(TMP, "state");
  await timedImport(1_000_000, ["--persist-to", state]);
  const open = (dir: string) => {
    const path = localD1File(d1Database().id, dir);
    return { path, db: new Database(path, { readonly: true }) };
  };
  const small = open(DEFAULT_DATA_STATE);
  const large = open(state);
  try {
    log("counting the venues per place");
    const [defaultPlaces, millionPlaces] = [placesOf(small.db), placesOf(large.db)];
    const perVenue = bytesPerVenue(large.path, large.db, 1_000_000);
    const date = new Date().toISOString().slice(0, 10);
    const text = [
      `Measured ${date} on ${machine()} with \`npm run bench -- --shards\` (${Math.round((Date.now() - started) / 1000)} s); ${perVenue.toFixed(0)} bytes a venue in its database (the venue tables of 1,000,000 venues).`,
      sizeTable("The default data (250,000 venues), counted", defaultPlaces, 1, perVenue),
      sizeTable("1,000,000 venues, counted", millionPlaces, 1, perVenue),
      sizeTable("10,000,000 venues, the 1,000,000 venues' places scaled (extrapolated)", millionPlaces, 10, perVenue),
      sizeTable("30,000,000 venues, the same (extrapolated)", millionPlaces, 30, perVenue),
    ].join("\n\n");
    console.log(`\n${text}\n`);
    if (await writeDocSection("shards", text, join("docs", "deploy.md")))
      log("wrote the tables into docs/deploy.md (shards)");
  } finally {
    small.db.close();
    large.db.close();
  }
}
