import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ImportError, Problems } from "../../scripts/import/problems.ts";
import { readAdmin1, readCities, readCountryInfo, type CityReadCounts } from "../../scripts/import/sources/geonames.ts";
import { all, file, problemsOf, venuesOf } from "../support/venue-files.ts";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
async function cities(path: string, problems: Problems, countries: ReadonlySet<string>) {
  const counts: CityReadCounts = { lines: 0, notPopulated: 0, badAlternateNames: 0 };
  const rows = await all(readCities(path, problems, countries, counts));
  return { cities: rows, ...counts };
}

/** A valid 19-column GeoNames row with some fields replaced. */
function cityLine(overrides: Partial<Record<number, string>> = {}): string {
  const cols = [
    "2950159",
    "Berlin",
    "Berlin",
    "Berlín,Berlino",
    "52.52437",
    "13.41053",
    "P",
    "PPLC",
    "DE",
    "",
    "16",
    "00",
    "11000",
    "11000000",
    "3426354",
    "",
    "74",
    "Europe/Berlin",
    "2022-01-01",
  ];
  for (const [i, v] of Object.entries(overrides)) cols[Number(i)] = v ?? "";
  return cols.join("\t");
}

describe("GeoNames countryInfo.txt", () => {
  it("reads codes, names (GeoNames spelling) and languages, skipping comments", async () => {
    const problems = new Problems(false);
    const countries = await readCountryInfo(fixture("countryInfo.txt"), problems);
    expect(problems.count).toBe(0);
    expect(countries.find((c) => c.code === "US")).toEqual({
      code: "US",
      iso3: "USA",
      name: "United States",
      languages: ["en"],
    });
    expect(countries.find((c) => c.code === "TR")?.name).toBe("Turkey");
  });
  it("reports bad rows with file and line", async () => {
    const problems = new Problems(false);
    const path = file(
      "countryInfo.txt",
      "#comment\nUS\tUSA\t840\tUS\tUnited States\nusa\tX\t1\t\tBad\nDE\tDEU\n\nUS\tUSA\t840\tUS\tAgain\n",
    );
    await readCountryInfo(path, problems);
    expect(problemsOf(problems)).toEqual([
      'countryInfo.txt:3: country code "usa" is not two capital letters',
      "countryInfo.txt:4: expected at least 5 tab-separated columns, got 2",
      "countryInfo.txt:6: country US appears twice",
    ]);
  });
});

describe("GeoNames admin1CodesASCII.txt", () => {
  it("reads country, code and name", async () => {
    const problems = new Problems(false);
    const rows = await readAdmin1(fixture("admin1CodesASCII.txt"), problems);
    expect(problems.count).toBe(0);
    expect(rows).toContainEqual({ countryCode: "US", code: "CA", name: "California" });
  });
  it("reports malformed keys and missing names", async () => {
    const problems = new Problems(false);
    await readAdmin1(
      file("admin1.txt", "US.CA\tCalifornia\tCalifornia\t5332921\nUSCA\tX\nUS.NY\t\t\t\nUS.CA\tAgain\n"),
      problems,
    );
    expect(problemsOf(problems)).toEqual([
      'admin1.txt:2: admin-1 key "USCA" is not COUNTRY.CODE',
      "admin1.txt:3: admin-1 US.NY has no name",
      "admin1.txt:4: admin-1 US.CA appears twice",
    ]);
  });
});

describe("GeoNames cities table", () => {
  const countries = new Set(["DE", "US"]);

  it("reads a valid row", async () => {
    const problems = new Problems(false);
    const result = await cities(file("ok.txt", `${cityLine()}\n`), problems, countries);
    expect(problems.count).toBe(0);
    expect(result.cities).toEqual([
      {
        id: "2950159",
        name: "Berlin",
        asciiName: "Berlin",
        alternateNames: ["Berlín", "Berlino"],
        lat: 52.52437,
        lng: 13.41053,
        countryCode: "DE",
        admin1Code: "16",
        population: 3426354,
        featureCode: "PPLC",
        line: 1,
      },
    ]);
  });

  it("keeps only populated places and drops mis-encoded alternate names", async () => {
    const problems = new Problems(false);
    const text = [cityLine(), cityLine({ 0: "1", 6: "H" }), cityLine({ 0: "2", 3: "Good,Bad\u0085name" })].join("\n");
    const result = await cities(file("mixed.txt", text), problems, countries);
    expect(problems.count).toBe(0);
    expect(result.cities.map((c) => c.id)).toEqual(["2950159", "2"]);
    expect(result.cities[1]?.alternateNames).toEqual(["Good"]);
    expect(result.notPopulated).toBe(1);
    expect(result.badAlternateNames).toBe(1);
  });

  it("reports every kind of bad row with its line", async () => {
    const problems = new Problems(false);
    const lines = [
      cityLine(),
      cityLine({ 0: "12a" }),
      cityLine({ 0: "7", 1: "" }),
      cityLine({ 0: "8", 4: "north" }),
      cityLine({ 0: "3", 5: "181" }),
      cityLine({ 0: "4", 8: "XX" }),
      cityLine({ 0: "5", 14: "-3" }),
      "2950160\tToo\tFew",
      cityLine({ 0: "6", 1: "Bad\u0007Name" }),
    ];
    await cities(file("cities.txt", lines.join("\n")), problems, countries);
    expect(problemsOf(problems)).toEqual([
      'cities.txt:2: geonameid "12a" is not a positive integer',
      "cities.txt:3: city 7 has no name",
      'cities.txt:4: latitude "north" is not a decimal number',
      "cities.txt:5: longitude 181 is outside ±180",
      "cities.txt:6: country code XX is not in the country file",
      'cities.txt:7: population "-3" is not a non-negative integer',
      "cities.txt:8: expected 19 tab-separated columns, got 3",
      "cities.txt:9: name contains a control character",
    ]);
    // (A geonameid given twice is found by the import's database: test/node/import.test.ts.)
  });
});

describe("venue CSV", () => {
  it("reads the fixture file, header and quoted names included", async () => {
    const problems = new Problems(false);
    const rows = await venuesOf(fixture("venues.csv"), problems);
    expect(problems.count).toBe(0);
    expect(rows.find((r) => r.id === "2bd6a3a6")).toMatchObject({ name: 'Bar "El Gato"', cityId: "3530597", at: 6 });
    expect(rows.find((r) => r.id === "3bd6a3d2")).toMatchObject({ cityId: null, url: null });
  });

  it("keeps the starting line of a record that spans lines, and reports bad rows", async () => {
    const problems = new Problems(false);
    const path = file(
      "venues.csv",
      'id,name,cityId,url\naaaa0001,"Two\nLines",5392171,\nbad id,Name,1,\naaaa0002,,1,\naaaa0003,Name,x1,\naaaa0004,Name,1,ftp://x\naaaa0005,Name\naaaa0006,"Open',
    );
    const rows = await venuesOf(path, problems);
    expect(rows.map((r) => [r.id, r.name, r.at])).toEqual([["aaaa0001", "Two Lines", 2]]);
    expect(problemsOf(problems)).toEqual([
      'venues.csv:4: venue id "bad id" is not 1 to 64 letters, digits, - or _',
      "venues.csv:5: venue aaaa0002 has no name",
      'venues.csv:6: venue aaaa0003: cityId "x1" is not a GeoNames id',
      'venues.csv:7: venue aaaa0004: url "ftp://x" is not an http(s) URL',
      "venues.csv:8: expected 3, 4, 6, 7 or 8 comma-separated fields (id,name,cityId,url,lat,long,kind,otherNames), got 2",
      "venues.csv:9: malformed CSV (Quote Not Closed); the rest of the file was not read",
    ]);
  });

  it("reads a venue's own point and kind, in any spelling of the kind, and names a bad kind", async () => {
    const problems = new Problems(false);
    const csv =
      "id,name,cityId,url,lat,long,kind\na1,H,5392171,,37.33,-121.89,Concert_Hall\na2,C,5392171,,,,club\na3,X,1,,,,disco\n";
    const rows = await venuesOf(file("kinds.csv", csv), problems);
    const kinds = "venue, club, concert hall, theatre, stadium, arena, amphitheatre, festival, other";
    expect(rows.map((r) => [r.id, r.kind, r.lat, r.lng])).toEqual([
      ["a1", "concert hall", 37.33, -121.89],
      ["a2", "club", null, null],
    ]);
    expect(problemsOf(problems)).toEqual([`kinds.csv:4: venue a3: kind "disco" is not one of ${kinds}`]);
  });

  it("refuses text after a closing quote, at its line, instead of guessing", async () => {
    const problems = new Problems(false);
    const path = file("quotes.csv", 'aaaa0001,"a"b,5392171,\naaaa0002,Fine,5392171,\n');
    expect(await venuesOf(path, problems)).toEqual([]);
    expect(problemsOf(problems)).toEqual([
      "quotes.csv:1: malformed CSV (Invalid Closing Quote); the rest of the file was not read",
    ]);
  });

  it("reads a long multi-line field, counting its lines", async () => {
    const problems = new Problems(false);
    const long = Array.from({ length: 20_000 }, (_, i) => `line ${i}`).join("\n");
    const path = file("long.csv", `aaaa0001,"${long}",5392171,\naaaa0002,Next,5392171,\n`);
    const rows = await venuesOf(path, problems);
    expect(problemsOf(problems)).toEqual(["long.csv:1: venue aaaa0001: name is longer than 300 characters"]);
    expect(rows.map((r) => [r.id, r.at])).toEqual([["aaaa0002", 20_001]]);
  });
});

describe("venue NDJSON", () => {
  it("reads rows and reports bad ones by line", async () => {
    const problems = new Problems(false);
    const path = file(
      "venues.ndjson",
      [
        JSON.stringify({ id: "aaaa0001", name: "Club", cityId: 5392171, url: "https://example.com/v" }),
        "",
        "{not json",
        JSON.stringify(["array"]),
        JSON.stringify({ id: "aaaa0002", name: "No City", cityId: null }),
      ].join("\n"),
    );
    const rows = await venuesOf(path, problems);
    expect(rows.map((r) => [r.id, r.cityId, r.url, r.at])).toEqual([
      ["aaaa0001", "5392171", "https://example.com/v", 1],
      ["aaaa0002", null, null, 5],
    ]);
    expect(problemsOf(problems)).toEqual([
      "venues.ndjson:3: not valid JSON",
      "venues.ndjson:4: expected a JSON object",
    ]);
  });
});

describe("saved setlist.fm venue search pages", () => {
  it("reads venues with their city ids, pointing bad ones at their line", async () => {
    const problems = new Problems(false);
    const page = {
      type: "venues",
      itemsPerPage: 30,
      page: 1,
      total: 3,
      venue: [
        {
          id: "6bd6ca6e",
          name: "Compaq Center",
          city: { id: "5392171", name: "San Jose", coords: {}, country: {} },
          url: "https://www.setlist.fm/venue/compaq-center-san-jose-ca-usa-6bd6ca6e.html",
        },
        { id: "1bd6b4c0", name: "", city: { id: "5391959" } },
        { id: "2bd6b4c0", name: "No City Venue" },
      ],
    };
    const path = file("page1.json", JSON.stringify(page, null, 2));
    const rows = await venuesOf(path, problems);
    expect(rows.map((r) => [r.id, r.cityId])).toEqual([
      ["6bd6ca6e", "5392171"],
      ["2bd6b4c0", null],
    ]);
    expect(problemsOf(problems)).toEqual(["page1.json:venue[1]: venue 1bd6b4c0 has no name"]);
  });

  it("rejects a file that is not a search page", async () => {
    const problems = new Problems(false);
    await venuesOf(file("other.json", '{"setlist": []}'), problems);
    await venuesOf(file("broken.json", '{"venue": [\n{"id": "a1", "name": "A"},\n{"id": 1,\n'), problems);
    expect(problemsOf(problems)[0]).toMatch(/^other\.json:1: not a venue: expected a row/);
    expect(problemsOf(problems)[1]).toMatch(
      /^broken\.json:venue\[1\]: malformed or truncated JSON \(.*\); the rest was not read$/,
    );
  });
});

describe("Problems", () => {
  it("stops the import with the rows listed, unless invalid rows are skipped", () => {
    const strict = new Problems(false);
    strict.add("a.csv", 3, "bad");
    expect(() => strict.check()).toThrow(ImportError);
    expect(() => strict.check()).toThrow(/a\.csv:3: bad/);
    const lenient = new Problems(true);
    lenient.add("a.csv", 3, "bad");
    expect(() => lenient.check()).not.toThrow();
    expect(lenient.count).toBe(1);
  });
});
