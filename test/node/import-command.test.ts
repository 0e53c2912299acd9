/** The import command line and the data version's inputs. */
import Database from "better-sqlite3";
import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bin, ROOT } from "../../scripts/tools/project.ts";
import { parseImportArgs } from "../../scripts/import/cli.ts";
import { readDir } from "../../scripts/import/shards/import.ts";
import { dataCodeFiles } from "../../scripts/import/version.ts";
import { fixture } from "../support/seed.ts";
import { shardFile } from "../../src/data-contract/shards.ts";
import { count, dir, fixtureArgs } from "../support/import-fixtures.ts";
import { importCommand } from "../support/import-command.ts";

describe("the import command", () => {
  it("takes --venues N as a number of generated venues, and a path as a venue file", async () => {
    const path = join(dir, "cli.sqlite");
    const run = (...args: string[]) =>
      new Promise<number>((resolve) => {
        const child = spawn(bin("tsx"), ["scripts/import.ts", "--database", path, "-q", ...fixtureArgs(), ...args], {
          cwd: ROOT,
          stdio: "ignore",
        });
        child.on("exit", (code) => resolve(code ?? -1));
      });
    expect(await run("--venues", "321")).toBe(0);
    expect(count(path, "venues")).toBe(321);
    expect(await run("--venues", fixture("venues.csv"))).toBe(0);
    expect(count(path, "venues")).toBe(26);
    expect(await run("--venues", "5", "--venue-count", "6")).toBe(1);
    expect(count(path, "venues")).toBe(26);
  }, 60_000);
});

describe("a failed import", () => {
  it("says so in one line, and shows where with --verbose", async () => {
    const notSqlite = join(dir, "not-sqlite.sqlite");
    writeFileSync(notSqlite, "this is not a SQLite file, but long enough to have a header of one\n".repeat(10));
    const fail = async (...args: string[]) => (await importCommand(["--database", notSqlite, "-q", ...args])).stderr;
    const line =
      "import failed: SqliteError: file is not a database (--verbose, or DEBUG=1, shows where); the data that was there before is unchanged";
    expect(await fail()).toBe(`${line}\n`);
    const verbose = await fail("--verbose");
    expect(verbose.split("\n")[0]).toBe(line.replace(" (--verbose, or DEBUG=1, shows where)", ""));
    expect(verbose).toMatch(/^\s+at /m);
    expect(await fail("--venues", "5", "--venue-count", "6")).toBe(
      "import failed: give the number of generated venues once; the data that was there before is unchanged\n",
    );
  }, 60_000);
});

describe("a failed import of a venue database", () => {
  it("names the database and says what each one holds, in its last line", async () => {
    const main = join(dir, "sharded-failing.sqlite");
    const second = shardFile(main, 2);
    const garbage = "this is not a SQLite file, but long enough to have a header of one\n".repeat(10);
    writeFileSync(second, garbage);
    const failed = await importCommand(["--database", main, "-q", "--shards", "2", ...fixtureArgs()]);
    expect(failed.code).toBe(1);
    expect(failed.stderr.trimEnd().split("\n").at(-1)).toBe(
      `import failed: venue database 2 (${second}): SqliteError: file is not a database (--verbose, or DEBUG=1, shows where); ` +
        "it and the venue databases after it still hold their previous data, and the main database (imported anew, with " +
        "every venue) answers their searches until the same command imports them",
    );
    expect(count(main, "venues")).toBeGreaterThan(0);
    expect(count(shardFile(main, 1), "venues")).toBeGreaterThan(0);
    expect(readFileSync(second, "utf8")).toBe(garbage);
    // Without venues in the main database, every database is staged before any swaps: none swapped in, and it says so.
    const served = [main, shardFile(main, 1)].map((file) => [versionOf(file), count(file, "venues")]);
    const hollow = await importCommand([
      "--database",
      main,
      "-q",
      "--shards",
      "2",
      "--main-venues",
      "none",
      ...fixtureArgs(),
    ]);
    expect(hollow.code).toBe(1);
    expect(hollow.stderr.trim().split("\n").at(-1)).toMatch(
      /: SqliteError: file is not a database .*; no database was swapped in, so each still serves its previous data until the same command imports them$/,
    );
    expect([main, shardFile(main, 1)].map((file) => [versionOf(file), count(file, "venues")])).toEqual(served);
    expect([main, shardFile(main, 1)].map(stageTables)).toEqual([[], []]);
    // The reading kept for the same command to go on with (shards/read-once.ts): this test's to drop.
    rmSync(readDir({ kind: "file", path: main }), { recursive: true, force: true });
  }, 180_000);
});

/** A SQLite file's data version. */
const versionOf = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT value FROM meta WHERE key = 'data_version'").pluck().get();
  } finally {
    db.close();
  }
};

/** The stage tables a SQLite file holds (publish/stage.ts). */
const stageTables = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'stage\\_%' ESCAPE '\\'")
      .pluck()
      .all();
  } finally {
    db.close();
  }
};

describe("the main database's venues", () => {
  it("--main-venues takes every or none, with --shards alone", () => {
    expect(parseImportArgs(["--shards", "2", "--main-venues", "none"]).options.mainVenues).toBe("none");
    expect(parseImportArgs(["--shards", "2", "--main-venues", "every"]).options.mainVenues).toBe("every");
    expect(parseImportArgs(["--shards", "2"]).options.mainVenues).toBeUndefined();
    expect(() => parseImportArgs(["--shards", "2", "--main-venues", "some"])).toThrow(
      '--main-venues wants every or none, got "some"',
    );
    expect(() => parseImportArgs(["--main-venues", "none"])).toThrow("--main-venues goes with --shards");
  });
});

describe("the import's tuning options", () => {
  it("keeps --cell-count-min within what the counter can hold, and says so", () => {
    expect(parseImportArgs(["--cell-count-min", "65535"]).options.cellCountMin).toBe(65535);
    expect(() => parseImportArgs(["--cell-count-min", "65536"])).toThrow(
      '--cell-count-min wants a positive integer up to 65535, got "65536"',
    );
    expect(() => parseImportArgs(["--cell-count-min", "0"])).toThrow("--cell-count-min wants a positive integer");
    expect(() => parseImportArgs(["--prefix-count-min", "x"])).toThrow(
      '--prefix-count-min wants a positive integer, got "x"',
    );
  });
});

describe("the data version", () => {
  it("hashes the code that decides the rows, and nothing else", async () => {
    const files = await dataCodeFiles();
    for (const f of [
      "src/data-contract/normalize.ts",
      "src/data-contract/languages.ts",
      "src/data-contract/tokens.ts",
      "src/data-contract/typo-keys.ts",
      "scripts/import/phases/build.ts",
      "scripts/import/phases/stored-totals.ts",
      "scripts/import/sources/geonames.ts",
      "migrations/0004_search_v2.sql",
    ]) {
      expect(files, f).toContain(f);
    }
    for (const f of files)
      expect(f).not.toMatch(/bench|dev-server|query-classes|load-test|src\/endpoints|src\/cache|src\/query/);
  });
});
