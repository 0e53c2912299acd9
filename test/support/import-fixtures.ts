/** Imports of the small fixture files into scratch SQLite files, and what the tests read back. */
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { FTS_DOCUMENTS, PLAIN_TABLES } from "../../scripts/import/phases/build-file.ts";
import { Progress } from "../../scripts/import/progress.ts";
import { runImport } from "../../scripts/import/run.ts";
import type { ImportOptions } from "../../scripts/import/options.ts";
import { defaultSources } from "../../scripts/import/sources/resolve.ts";
import { fixture } from "./seed.ts";

export const dir = mkdtempSync(join(tmpdir(), "vcs-import-"));
export const quiet = new Progress(process.stderr, true);
export const FIXTURES = {
  cities: fixture("cities.txt"),
  admin1: fixture("admin1CodesASCII.txt"),
  countries: fixture("countryInfo.txt"),
  localized: fixture("localized-names.tsv"),
  regionCodes: defaultSources().regionCodes,
};

export function fixtureImport(path: string, extra: Partial<ImportOptions> = {}) {
  return runImport(
    { ...FIXTURES, venueCount: 2000, prefixCountMin: 20, ...extra, target: { kind: "file", path } },
    quiet,
  );
}

export function open<T>(path: string, read: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** A hash of every row of every table and of the search indexes, and the data version. */
export function snapshot(path: string): { version: string | undefined; rows: string } {
  return open(path, (db) => {
    const hash = createHash("sha256");
    for (const t of PLAIN_TABLES) {
      const columns = db.prepare(`SELECT * FROM ${t} LIMIT 0`).columns().length;
      const order = [1, 2, 3].filter((i) => i <= columns).join(", ");
      hash.update(JSON.stringify(db.prepare(`SELECT * FROM ${t} ORDER BY ${order}`).all()));
    }
    for (const [table, q] of [
      ["venues_fts", '"stadthalle"*'],
      ["venues_fts", '"__c_de"'],
      ["cities_fts", '"_wien"'],
      ["words_fts", '"wien"'],
    ]) {
      hash.update(JSON.stringify(db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ?`).all(q)));
    }
    // The page size that the index was written with (the merge settings differ by path).
    for (const { table } of FTS_DOCUMENTS) {
      hash.update(JSON.stringify(db.prepare(`SELECT v FROM ${table}_config WHERE k = 'pgsz'`).all()));
    }
    const version = (
      db.prepare("SELECT value FROM meta WHERE key = 'data_version'").get() as { value: string } | undefined
    )?.value;
    return { version, rows: hash.digest("hex") };
  });
}

export const count = (path: string, table: string) =>
  open(path, (db) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);

export function fixtureArgs(): string[] {
  return [
    "--cities",
    FIXTURES.cities,
    "--admin1",
    FIXTURES.admin1,
    "--countries",
    FIXTURES.countries,
    "--localized",
    FIXTURES.localized,
  ];
}
