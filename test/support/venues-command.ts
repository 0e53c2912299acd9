/**
 * `npm run venues` in the tests: a served SQLite file with GeoNames rows to read places over
 * (test/fixtures/cities-places.txt: Berlin, Hamburg, Munich, every Portland …), the command run
 * in-process with its output kept, and what the served file then holds.
 */
import { copyFileSync, mkdtempSync, readFileSync } from "node:fs";
import { Writable } from "node:stream";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Progress } from "../../scripts/import/progress.ts";
import { runImport } from "../../scripts/import/run.ts";
import { storedDataVersion } from "../../scripts/import/target.ts";
import { parseVenuesArgs } from "../../scripts/venues/cli.ts";
import { runVenues } from "../../scripts/venues/run.ts";
import { dir, quiet } from "./import-fixtures.ts";
import { fixture } from "./seed.ts";

export const OVERPASS_ANSWER = fixture("fetch/overpass-berlin.json");
export const PLACE_LINES = readFileSync(fixture("fetch/mbdump-place.jsonl"), "utf8").split("\n");

/** The stand-in's areas: the boxes of Germany and of Oregon. */
export const AREAS = {
  DE: [47.27, 5.87, 55.06, 15.04] as [number, number, number, number],
  "US-OR": [41.99, -124.6, 46.3, -116.46] as [number, number, number, number],
};

let seeded: string | null = null;

/** A fresh copy of a served file holding the fixture's cities and 50 generated venues. */
export async function servedFile(): Promise<string> {
  if (seeded === null) {
    seeded = join(dir, "venues-seed.sqlite");
    const cities = fixture("cities-places.txt");
    await runImport({ cities, venueCount: 50, prefixCountMin: 20, target: { kind: "file", path: seeded } }, quiet);
  }
  const path = join(mkdtempSync(join(tmpdir(), "vcs-venues-")), "served.sqlite");
  copyFileSync(seeded, path);
  return path;
}

export interface Ran {
  output: string;
  error: Error | null;
}

/** Runs `npm run venues -- …args` in-process into `database`, downloads in `downloads`; its output and error. */
export async function venues(args: string[], database: string, downloads: string): Promise<Ran> {
  let output = "";
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  const command = parseVenuesArgs([...args, "--database", database, "--dir", downloads, "--pause", "0"]);
  try {
    await runVenues(command, new Progress(out as unknown as NodeJS.WriteStream));
    return { output, error: null };
  } catch (error) {
    return { output, error: error instanceof Error ? error : new Error(String(error)) };
  }
}

export const newDir = (): string => mkdtempSync(join(tmpdir(), "vcs-downloads-"));

export interface ServedVenue {
  id: string;
  name: string;
  url: string | null;
  city: string | null;
}

/** Every venue the file serves, by id. */
export function servedVenues(path: string): Map<string, ServedVenue> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .prepare("SELECT v.id, v.name, v.url, c.name AS city FROM venues v LEFT JOIN cities c ON c.pos = v.city_pos")
      .all() as ServedVenue[];
    return new Map(rows.map((r) => [r.id, r]));
  } finally {
    db.close();
  }
}

export const versionOf = (path: string): string | null => storedDataVersion(path);
