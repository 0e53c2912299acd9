import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { buildDataset } from "../../scripts/lib/dataset.ts";
import { readAdmin1, readCities, readCountryInfo } from "../../scripts/lib/geonames.ts";
import { ImportError, Problems } from "../../scripts/lib/problems.ts";
import { Progress } from "../../scripts/lib/progress.ts";
import { ensureSchema, runImport, type ImportOptions } from "../../scripts/lib/run-import.ts";
import { MAX_STATEMENT_BYTES } from "../../scripts/lib/sql-text.ts";
import { readVenueFiles } from "../../scripts/lib/venue-files.ts";
import { remoteImportFiles } from "../../scripts/lib/write-remote.ts";
import { ROOT } from "../../scripts/lib/wrangler.ts";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "vcs-import-"));
const quiet = new Progress(process.stderr, true);
const FIXTURES = {
  cities: fixture("cities.txt"),
  admin1: fixture("admin1CodesASCII.txt"),
  countries: fixture("countryInfo.txt"),
  localized: fixture("localized-names.tsv"),
};

function fixtureImport(path: string, extra: Partial<ImportOptions> = {}) {
  return runImport({ ...FIXTURES, venueCount: 2000, ...extra, target: { kind: "file", path } }, quiet);
}

const TABLES = ["countries", "admin1", "cities", "city_names", "venues"];

/** A hash of every row of every table, and the data version. */
function snapshot(path: string): { version: string | undefined; rows: string } {
  const db = new Database(path, { readonly: true });
  try {
    const hash = createHash("sha256");
    for (const t of TABLES) hash.update(JSON.stringify(db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()));
    hash.update(JSON.stringify(db.prepare("SELECT rowid FROM venues_fts WHERE venues_fts MATCH 'stadthalle*'").all()));
    const version = (
      db.prepare("SELECT value FROM meta WHERE key = 'data_version'").get() as { value: string } | undefined
    )?.value;
    return { version, rows: hash.digest("hex") };
  } finally {
    db.close();
  }
}

function count(path: string, table: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe("import", () => {
  it("loads the fixture sources with pos order, names and search indexes", async () => {
    const path = join(dir, "fresh.sqlite");
    const summary = await fixtureImport(path);
    expect(summary.skippedAsCurrent).toBe(false);
    expect(summary.counts).toMatchObject({ cities: 134, venues: 2000 });
    const db = new Database(path, { readonly: true });
    try {
      const first = db.prepare("SELECT name, population FROM cities ORDER BY pos LIMIT 2").all();
      expect(first).toEqual([
        { name: "Istanbul", population: 14804116 },
        { name: "São Paulo", population: 12400232 },
      ]);
      const vienna = db
        .prepare("SELECT rowid AS pos FROM cities_fts WHERE cities_fts MATCH '{words}: \"wien\"*'")
        .all() as { pos: number }[];
      const viennaPos = (db.prepare("SELECT pos FROM cities WHERE id = '2761369'").get() as { pos: number }).pos;
      expect(vienna.map((r) => r.pos)).toContain(viennaPos);
      const names = db.prepare("SELECT name_norm FROM venues ORDER BY pos").all() as { name_norm: string }[];
      expect(names.map((n) => n.name_norm)).toEqual(
        [...names.map((n) => n.name_norm)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
      );
    } finally {
      db.close();
    }
  });

  it("is idempotent: the same sources give the same rows and data version", async () => {
    const a = join(dir, "a.sqlite");
    const b = join(dir, "b.sqlite");
    const first = await fixtureImport(a);
    await fixtureImport(b);
    expect(snapshot(a)).toEqual(snapshot(b));
    expect(snapshot(a).version).toBe(first.dataVersion);

    const again = await fixtureImport(a);
    expect(again.skippedAsCurrent).toBe(true);
    const forced = await fixtureImport(a, { force: true });
    expect(forced.dataVersion).toBe(first.dataVersion);
    expect(snapshot(a)).toEqual(snapshot(b));

    const other = await fixtureImport(a, { seed: "another seed" });
    expect(other.dataVersion).not.toBe(first.dataVersion);
    expect(snapshot(a).rows).not.toBe(snapshot(b).rows);
  });

  it("leaves the previous data when a source has bad rows, and names them", async () => {
    const path = join(dir, "bad.sqlite");
    await fixtureImport(path);
    const before = snapshot(path);
    const badCities = join(dir, "bad-cities.txt");
    writeFileSync(
      badCities,
      "2950159\tBerlin\tBerlin\t\t52.5\t13.4\tP\tPPLC\tDE\t\t16\t\t\t\t100\t\t74\tEurope/Berlin\t2022-01-01\n1\tNowhere\n",
    );
    await expect(fixtureImport(path, { cities: badCities })).rejects.toThrow(
      /bad-cities\.txt:2: expected 19 tab-separated columns/,
    );
    await expect(fixtureImport(path, { cities: badCities })).rejects.toBeInstanceOf(ImportError);
    expect(snapshot(path)).toEqual(before);

    const skipped = await fixtureImport(path, { cities: badCities, skipInvalid: true });
    expect(skipped.invalidSkipped).toBe(1);
    expect(skipped.counts.cities).toBe(1);
  });

  it("reports a venue whose city was not imported, with its line", async () => {
    const path = join(dir, "venues.sqlite");
    const venues = join(dir, "venues.csv");
    writeFileSync(venues, "id,name,cityId,url\nabcd0001,Compaq Center,5392171,\nabcd0002,Nowhere Hall,1234567,\n");
    await expect(fixtureImport(path, { venues: [venues] })).rejects.toThrow(
      "venues.csv:3: venue abcd0002: city 1234567 is not among the imported cities",
    );
    const ok = await fixtureImport(path, { venues: [venues], skipInvalid: true });
    expect(ok.counts.venues).toBe(1);
  });

  it("keeps the previous data complete when the import process is killed mid-write", async () => {
    const path = join(dir, "killed.sqlite");
    await fixtureImport(path);
    const before = snapshot(path);

    // A bigger import into the same file, killed while it is writing rows.
    const child = spawn(
      join(ROOT, "node_modules", ".bin", "tsx"),
      ["scripts/import.ts", "--database", path, "--venue-count", "20000"],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    const killed = await new Promise<boolean>((resolve) => {
      child.stderr.on("data", (d: Buffer) => {
        output += d.toString();
        if (output.includes("writing city_names")) child.kill("SIGKILL");
      });
      child.on("exit", (_code, signal) => resolve(signal === "SIGKILL"));
    });
    expect(killed, output).toBe(true);
    expect(snapshot(path)).toEqual(before);
    expect(count(path, "venues")).toBe(2000);

    const after = await fixtureImport(path, { venueCount: 2500 });
    expect(after.counts.venues).toBe(2500);
    expect(count(path, "venues")).toBe(2500);
  }, 120_000);
});

describe("the import command", () => {
  it("takes --venues N as a number of generated venues, and a path as a venue file", async () => {
    const path = join(dir, "cli.sqlite");
    const run = (...args: string[]) =>
      new Promise<number>((resolve) => {
        const child = spawn(
          join(ROOT, "node_modules", ".bin", "tsx"),
          ["scripts/import.ts", "--database", path, "-q", ...args],
          {
            cwd: ROOT,
            stdio: "ignore",
          },
        );
        child.on("exit", (code) => resolve(code ?? -1));
      });
    const fixtures = ["--cities", FIXTURES.cities, "--admin1", FIXTURES.admin1, "--countries", FIXTURES.countries];
    expect(await run(...fixtures, "--venues", "321")).toBe(0);
    expect(count(path, "venues")).toBe(321);
    expect(await run(...fixtures, "--venues", fixture("venues.csv"))).toBe(0);
    expect(count(path, "venues")).toBe(26);
    expect(await run(...fixtures, "--venues", "5", "--venue-count", "6")).toBe(1);
    expect(count(path, "venues")).toBe(26);
  }, 60_000);
});

describe("remote import files", () => {
  it("stay within D1's statement limit and load the same rows as the local writer", async () => {
    const problems = new Problems(false);
    const countries = await readCountryInfo(FIXTURES.countries, problems);
    const admin1 = await readAdmin1(FIXTURES.admin1, problems);
    const { cities } = await readCities(FIXTURES.cities, problems, {
      countries: new Set(countries.map((c) => c.code)),
    });
    const venues = await readVenueFiles([fixture("venues.csv")], problems);
    const dataset = buildDataset({ countries, admin1, cities, venues }, problems);
    const files = remoteImportFiles(dataset, "v-remote", "test");

    const remote = join(dir, "remote.sqlite");
    ensureSchema(remote);
    const db = new Database(remote);
    // Something served before the upload, which must survive until the swap file runs.
    db.exec("INSERT INTO meta (key, value) VALUES ('data_version', 'old')");
    for (const [i, sql] of files.entries()) {
      for (const statement of sql.split(/;\n/))
        expect(Buffer.byteLength(statement)).toBeLessThan(MAX_STATEMENT_BYTES + 100);
      if (i === files.length - 1) {
        expect(db.prepare("SELECT value FROM meta WHERE key = 'data_version'").get()).toEqual({ value: "old" });
      }
      db.exec(sql);
    }
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'stage_%'").all()).toEqual([]);
    db.close();

    const local = join(dir, "local.sqlite");
    await runImport({ ...FIXTURES, venues: [fixture("venues.csv")], target: { kind: "file", path: local } }, quiet);
    expect(snapshot(remote).rows).toBe(snapshot(local).rows);
    expect(snapshot(remote).version).toBe("v-remote");
  });
});
