/**
 * The smaller data set of `--min-population N` (docs/deploy.md#workers-free): only the cities of at
 * least N people, the venues in them, and of each city its own, ASCII and localized names (not
 * GeoNames' other alternate names), so that the import fits Workers Free's 100,000 rows written a day.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseImportArgs } from "../../scripts/import/cli.ts";
import { count, dir, fixtureImport, open } from "../support/import-fixtures.ts";

const MIN = 140_000;

describe("--min-population", () => {
  it("imports the cities of at least that many people, their venues, and their own, ASCII and localized names", async () => {
    const all = join(dir, "every-city.sqlite");
    const some = join(dir, "big-cities.sqlite");
    const full = await fixtureImport(all);
    const small = await fixtureImport(some, { minPopulation: MIN });
    expect(small.dataVersion).not.toBe(full.dataVersion);

    const below = open(all, (db) => db.prepare("SELECT count(*) FROM cities WHERE population < ?").pluck().get(MIN));
    expect(small.counts.belowMinPopulation).toBe(below);
    expect(small.counts.cities).toBe(full.counts.cities - Number(below));
    expect(open(some, (db) => db.prepare("SELECT min(population) FROM cities").pluck().get())).toBeGreaterThanOrEqual(
      MIN,
    );
    // The generated venues are in the cities imported.
    expect(count(some, "venues")).toBe(2000);
    expect(open(some, (db) => db.prepare("SELECT count(*) FROM venues WHERE city_pos IS NULL").pluck().get())).toBe(
      open(all, (db) => db.prepare("SELECT count(*) FROM venues WHERE city_pos IS NULL").pluck().get()),
    );

    // Every word of the vocabulary is one of a served name's (no other alternate names).
    const words = open(some, (db) => db.prepare("SELECT word FROM words").pluck().all() as string[]);
    expect(words.length).toBeLessThan(count(all, "words") / 2);
    expect(words).toContain("wien");
    // An alternate name of Vienna's in another script, and in no other name: searched in the whole
    // data, left out of the smaller one (its localized names kept: Wiedeń is Polish).
    const finds = (file: string, word: string) =>
      open(file, (db) =>
        db.prepare("SELECT count(*) FROM cities_fts WHERE cities_fts MATCH ?").pluck().get(`"${word}"`),
      );
    expect([finds(all, "вена"), finds(some, "вена")]).toEqual([1, 0]);
    expect(words).not.toContain("вена");
    expect(finds(some, "wieden")).toBe(1);
  }, 120_000);

  it("is an option of the command: a positive number", () => {
    expect(parseImportArgs(["--min-population", "200000"]).options.minPopulation).toBe(200_000);
    expect(() => parseImportArgs(["--min-population", "many"])).toThrow(
      '--min-population wants a positive integer, got "many"',
    );
  });
});
