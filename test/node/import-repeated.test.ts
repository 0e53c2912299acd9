/**
 * Reading a geoname table in the import's workers (scripts/import/phases/city-rows-worker.ts): each
 * writes its jobs' rows, in either order; a geonameid on two lines keeps the earlier line's row.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { dir, fixtureImport } from "../support/import-fixtures.ts";

describe("import", () => {
  it("keeps the city of the earlier line when jobs of two workers hold one geonameid", async () => {
    const path = join(dir, "repeated.sqlite");
    const cities = join(dir, "repeated-cities.txt");
    // 4,100 cities: three jobs of the reading's workers (city-rows-worker.ts), the repeats in the second and third.
    const city = (gid: number, name: string) =>
      `${gid}\t${name}\t${name}\t\t52.${gid % 1000}\t13.4\tP\tPPL\tDE\t\t16\t\t\t\t${gid}\t\t74\tEurope/Berlin\t2022-01-01`;
    const lines = Array.from({ length: 4100 }, (_, i) => city(9_000_000 + i, `Town ${i + 1}`));
    lines[2499] = city(9_000_004, "Later Town");
    lines[4049] = city(9_000_004, "Last Town");
    writeFileSync(cities, `${lines.join("\n")}\n`);
    await expect(fixtureImport(path, { cities })).rejects.toThrow(
      /repeated-cities\.txt:2500: geonameid 9000004 appears twice \(first on line 5\)\n.*repeated-cities\.txt:4050: geonameid 9000004 appears twice \(first on line 5\)/,
    );
    const skipped = await fixtureImport(path, { cities, skipInvalid: true });
    expect(skipped.invalidSkipped).toBe(2);
    expect(skipped.counts.cities).toBe(4098);
    const db = new Database(path, { readonly: true });
    expect(db.prepare("SELECT name FROM cities WHERE id = '9000004'").pluck().get()).toBe("Town 5");
    db.close();
  });
});
