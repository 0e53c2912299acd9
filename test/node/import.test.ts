/**
 * The import end to end on small fixture files: order and blocks, idempotence, bad rows, a killed
 * import, streaming more rows than a batch, the data version's inputs, and the remote path —
 * its files applied to SQLite, resumed after a failure, giving the same rows as the local path.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { normalize } from "../../src/data-contract/normalize.ts";
import { FTS_DOCUMENTS } from "../../scripts/import/phases/build-file.ts";
import { ImportError } from "../../scripts/import/problems.ts";
import { FTS_PAGE_BYTES } from "../../scripts/import/publish/stage.ts";
import { ROOT } from "../../scripts/tools/project.ts";
import { expectBlocks, expectEveryBroadPrefixCounted, expectNumberedInCities } from "../support/venue-blocks.ts";
import { count, dir, FIXTURES, fixtureArgs, fixtureImport, open, snapshot } from "../support/import-fixtures.ts";

describe("import", () => {
  it("loads the fixture: cities by population, venues by city size, ranks, search documents", async () => {
    const path = join(dir, "fresh.sqlite");
    const summary = await fixtureImport(path);
    expect(summary.skippedAsCurrent).toBe(false);
    expect(summary.counts).toMatchObject({ cities: 134, venues: 2000 });
    open(path, (db) => {
      expect(db.prepare("SELECT name, population FROM cities ORDER BY pos LIMIT 2").all()).toEqual([
        { name: "Istanbul", population: 14804116 },
        { name: "São Paulo", population: 12400232 },
      ]);
      // Venues: city population (largest first), then normalized name (code points), then id.
      const venues = db
        .prepare(
          `SELECT v.pos, v.id, v.name, c.population, c.id AS city FROM venues v LEFT JOIN cities c ON c.pos = v.city_pos ORDER BY v.pos`,
        )
        .all() as { pos: number; id: string; name: string; population: number | null; city: string | null }[];
      const expected = [...venues].sort(
        (a, b) =>
          (b.population ?? -1) - (a.population ?? -1) ||
          Number(a.city ?? 0) - Number(b.city ?? 0) ||
          Buffer.compare(Buffer.from(normalize(a.name)), Buffer.from(normalize(b.name))) ||
          Buffer.compare(Buffer.from(a.id), Buffer.from(b.id)),
      );
      expect(venues.map((v) => v.id)).toEqual(expected.map((v) => v.id));
      expectNumberedInCities(
        db,
        venues.map((v) => v.pos),
      );
      expectBlocks(db);
      expectEveryBroadPrefixCounted(db);
      // Search documents: Vienna by its German name, as a word and as a name token.
      const vienna = (db.prepare("SELECT pos FROM cities WHERE id = '2761369'").get() as { pos: number }).pos;
      for (const q of ['"wien"*', '"_wien"', '"__c_at"']) {
        expect(db.prepare("SELECT rowid FROM cities_fts WHERE cities_fts MATCH ?").pluck().all(q), q).toContain(vienna);
      }
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name GLOB 'stage_*' OR name GLOB 'old_*'").all()).toEqual(
        [],
      );
      // Every FTS table keeps its index in small pages (FTS5 fills a leaf to the page size, then
      // starts the next: a leaf may pass it by one entry). The structure record (id 10) is not a leaf.
      for (const { table } of FTS_DOCUMENTS) {
        const pgsz = db.prepare(`SELECT v FROM ${table}_config WHERE k = 'pgsz'`).pluck().get();
        expect(pgsz, table).toBe(FTS_PAGE_BYTES);
        const pages = db
          .prepare(`SELECT count(*) AS n, max(length(block)) AS largest FROM ${table}_data WHERE id > 10`)
          .get() as { n: number; largest: number };
        expect(pages.n, table).toBeGreaterThan(10);
        expect(pages.largest, table).toBeLessThan(2 * FTS_PAGE_BYTES);
        // FTS5's own check of an index (the cities' and venues' were built beside the build and copied).
        const writable = new Database(path);
        expect(
          () => writable.prepare(`INSERT INTO ${table} (${table}) VALUES ('integrity-check')`).run(),
          table,
        ).not.toThrow();
        writable.close();
      }
    });
  });
});

describe("import", () => {
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
    const berlin =
      "2950159\tBerlin\tBerlin\t\t52.5\t13.4\tP\tPPLC\tDE\t\t16\t\t\t\t100\t\t74\tEurope/Berlin\t2022-01-01";
    writeFileSync(badCities, `${berlin}\n1\tNowhere\n${berlin}\n`);
    await expect(fixtureImport(path, { cities: badCities })).rejects.toThrow(
      /bad-cities\.txt:2: expected 19 tab-separated columns[\s\S]*bad-cities\.txt:3: geonameid 2950159 appears twice \(first on line 1\)/,
    );
    await expect(fixtureImport(path, { cities: badCities })).rejects.toBeInstanceOf(ImportError);
    expect(snapshot(path)).toEqual(before);

    const skipped = await fixtureImport(path, { cities: badCities, skipInvalid: true });
    expect(skipped.invalidSkipped).toBe(2);
    expect(skipped.counts.cities).toBe(1);
  });
});

describe("import", () => {
  it("reports a venue whose city was not imported, and an id used twice, with their lines", async () => {
    const path = join(dir, "venues.sqlite");
    const venues = join(dir, "venues.csv");
    writeFileSync(
      venues,
      [
        "id,name,cityId,url",
        "abcd0001,Compaq Center,5392171,",
        "abcd0002,Nowhere Hall,1234567,",
        "abcd0001,Compaq Center,5392171,",
        "abcd0001,Another Center,5392171,",
      ].join("\n"),
    );
    await expect(fixtureImport(path, { venues: [venues] })).rejects.toThrow(
      /venues\.csv:5: venue id abcd0001 was already used \(venues\.csv:2\)[\s\S]*venues\.csv:3: venue abcd0002: city 1234567 is not among the imported cities/,
    );
    const ok = await fixtureImport(path, { venues: [venues], skipInvalid: true });
    expect(ok.counts.venues).toBe(1);
    expect(ok.counts.duplicateVenues).toBe(1);
  });

  it("streams a venue file larger than a batch, and reports a bad row far into it by its line", async () => {
    const path = join(dir, "big.sqlite");
    const venues = join(dir, "big.csv");
    const cities = readFileSync(FIXTURES.cities, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split("\t")[0]);
    const rows = Array.from({ length: 50_000 }, (_, i) => `v${i},"Hall ""${i}""",${cities[i % cities.length]},`);
    rows[45_000] = "v45000,,1,"; // no name, on line 45,002
    writeFileSync(venues, `id,name,cityId,url\n${rows.join("\n")}\n`);
    await expect(fixtureImport(path, { venues: [venues] })).rejects.toThrow("big.csv:45002: venue v45000 has no name");
    const summary = await fixtureImport(path, { venues: [venues], skipInvalid: true });
    expect(summary.counts.venues).toBe(49_999);
    expect(count(path, "venues")).toBe(49_999);
    const hall = open(path, (db) => db.prepare("SELECT name FROM venues WHERE id = 'v49999'").pluck().get());
    expect(hall).toBe('Hall "49999"');
  }, 120_000);
});

describe("import", () => {
  it("writes a venue's city's point into its row where it has none of its own, and says so", async () => {
    const path = join(dir, "points.sqlite");
    const venues = join(dir, "points.csv");
    writeFileSync(
      venues,
      [
        "id,name,cityId,url,lat,long",
        "abcd0011,Konzerthaus,2761369,,48.2008,16.3779",
        "abcd0012,Arena Wien,2761369,,,",
      ].join("\n"),
    );
    await fixtureImport(path, { venues: [venues] });
    const rows = open(path, (db) =>
      db
        .prepare(
          `SELECT v.id, v.lat, v.lng, v.city_point, c.lat AS city_lat, c.lng AS city_lng
           FROM venues v JOIN cities c ON c.pos = v.city_pos ORDER BY v.id`,
        )
        .all(),
    );
    // Vienna's point, from the fixture's cities.txt; a search in an area reads it from the venue's row.
    const vienna = { city_lat: 48.20849, city_lng: 16.37208 };
    expect(rows).toEqual([
      { id: "abcd0011", lat: 48.2008, lng: 16.3779, city_point: null, ...vienna },
      { id: "abcd0012", lat: vienna.city_lat, lng: vienna.city_lng, city_point: 1, ...vienna },
    ]);
  });
});

describe("import", () => {
  it("publishes the same rows and indexes in short paced steps (a server reading) as in one go", async () => {
    const alone = join(dir, "alone.sqlite");
    const paced = join(dir, "paced.sqlite");
    await fixtureImport(alone);
    await fixtureImport(paced, { pacing: { transactionMs: 2, pauseMs: 1 } });
    expect(snapshot(paced)).toEqual(snapshot(alone));
    // The prebuilt indexes copied in steps of a few rows are whole: FTS5's own check.
    const writable = new Database(paced);
    for (const { table } of FTS_DOCUMENTS)
      expect(
        () => writable.prepare(`INSERT INTO ${table} (${table}) VALUES ('integrity-check')`).run(),
        table,
      ).not.toThrow();
    writable.close();
    // The served tables' indexes, as the migrations define them, under this import's names.
    const indexes = (path: string) =>
      open(path, (db) =>
        (
          db
            .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY tbl_name, name")
            .pluck()
            .all() as string[]
        ).map((sql) => sql.replace(/^CREATE (UNIQUE )?INDEX (\w+)_[0-9a-z]+ ON "?(\w+)"?/, "CREATE $1INDEX $2 ON $3")),
      );
    const expected = [
      "CREATE UNIQUE INDEX cities_by_ascii_name ON cities (ascii_norm, pos)",
      "CREATE INDEX cities_by_cell ON cities (cell, cell_rank, lat, lng)",
      "CREATE UNIQUE INDEX cities_by_country_rank ON cities (country_code, country_rank)",
      "CREATE UNIQUE INDEX cities_by_id ON cities (id)",
      "CREATE UNIQUE INDEX cities_by_name ON cities (name_norm, pos)",
      "CREATE INDEX cities_by_population ON cities (population)",
      "CREATE UNIQUE INDEX cities_by_state_rank ON cities (country_code, admin1_code, state_rank)",
      "CREATE INDEX name_anchors_by_pos ON name_anchors (kind, prefix, lang, tier, pos)",
      "CREATE INDEX venues_by_cell ON venues (cell, cell_rank, lat, lng, city_pos)",
      "CREATE INDEX venues_by_country ON venues (country_code, pos)",
      "CREATE UNIQUE INDEX venues_by_id ON venues (id)",
      "CREATE INDEX venues_by_state ON venues (country_code, admin1_code, pos)",
      "CREATE INDEX words_by_word ON words (word)",
    ];
    expect(indexes(alone)).toEqual(expected);
    expect(indexes(paced)).toEqual(expected);
    // Another import names its indexes apart from the served ones, and leaves no stage or old table,
    // whether the old tables are emptied in steps first (large ones) or dropped at once (small ones).
    for (const [venueCount, dropAtOncePages] of [
      [2100, 0],
      [2200, undefined],
    ] as const) {
      await fixtureImport(paced, { venueCount, pacing: { transactionMs: 2, pauseMs: 1, dropAtOncePages } });
      expect(indexes(paced)).toEqual(expected);
      expect(count(paced, "venues")).toBe(venueCount);
      expect(
        open(paced, (db) =>
          db.prepare("SELECT count(*) FROM sqlite_master WHERE name GLOB 'stage_*' OR name GLOB 'old_*'").pluck().get(),
        ),
      ).toBe(0);
    }
  }, 120_000);
});

describe("import", () => {
  it("keeps the previous data complete when the import process is killed while publishing", async () => {
    const path = join(dir, "killed.sqlite");
    await fixtureImport(path);
    const before = snapshot(path);

    // A bigger import into the same file, killed while it indexes the stage tables. One process
    // (node with tsx's loader, not the tsx launcher, which runs the script in a child of its own),
    // so that the kill reaches the import itself.
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "scripts/import.ts",
        "--database",
        path,
        "--venue-count",
        "20000",
        "--prefix-count-min",
        "20",
        ...fixtureArgs(),
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
    );
    let output = "";
    const killed = await new Promise<boolean>((resolve) => {
      child.stderr.on("data", (d: Buffer) => {
        output += d.toString();
        if (/indexing venues_fts|copying venues_fts/.test(output)) child.kill("SIGKILL");
      });
      child.on("exit", (_code, signal) => resolve(signal === "SIGKILL"));
    });
    expect(killed, output).toBe(true);
    expect(snapshot(path)).toEqual(before);
    expect(count(path, "venues")).toBe(2000);
    expect(
      open(path, (db) => db.prepare("SELECT count(*) FROM sqlite_master WHERE name GLOB 'stage_*'").pluck().get()),
    ).toBeGreaterThan(0);

    const after = await fixtureImport(path, { venueCount: 2500 });
    expect(after.counts.venues).toBe(2500);
    expect(count(path, "venues")).toBe(2500);
    expect(
      open(path, (db) =>
        db.prepare("SELECT count(*) FROM sqlite_master WHERE name GLOB 'stage_*' OR name GLOB 'old_*'").pluck().get(),
      ),
    ).toBe(0);
  }, 120_000);
});
