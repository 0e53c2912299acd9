/**
 * The names a venue shows and keeps (scripts/import/sources/venue-names.ts; docs/api.md#every-name-a-venue-has),
 * a venue row's other names, and the ways of reading a place at the end of a name (src/query/readings.ts).
 */
import { describe, expect, it } from "vitest";
import { Problems } from "../../scripts/import/problems.ts";
import { file, problemsOf, venuesOf } from "../support/venue-files.ts";
import { isLatin, venueNames } from "../../scripts/import/sources/venue-names.ts";
import { textReadings } from "../../src/query/readings.ts";

const names = (
  name: string,
  byLanguage: Record<string, string> = {},
  international: string[] = [],
  others: string[] = [],
) => venueNames({ name, byLanguage: new Map(Object.entries(byLanguage)), international, others });

describe("the name a venue shows", () => {
  it("is its own name in Latin script, whatever its other names", () => {
    expect(
      names("Eventim Apollo", { de: "Eventim Apollo", ja: "イベンティム・アポロ" }, [], ["Hammersmith Odeon"]),
    ).toEqual({
      name: "Eventim Apollo",
      localizedNames: {},
      otherNames: ["イベンティム・アポロ", "Hammersmith Odeon"],
    });
    expect(names("Klub Stodoła").name).toBe("Klub Stodoła");
    expect(names("013").name).toBe("013");
  });

  it("is its English name, else an international one, else its own, when its own is in another script", () => {
    expect(names("日本武道館", { en: "Nippon Budokan" }, ["Nippon Budōkan"]).name).toBe("Nippon Budokan");
    expect(names("日本武道館", {}, ["Nippon Budōkan"]).name).toBe("Nippon Budōkan");
    expect(names("Лужники").name).toBe("Лужники");
  });

  it("is the served language's name where the source has one, else the default", () => {
    const luzhniki = names("Лужники", { en: "Luzhniki Stadium", de: "Luschniki-Stadion", ru: "Лужники" });
    expect(luzhniki.name).toBe("Luzhniki Stadium");
    expect(luzhniki.localizedNames).toEqual({ de: "Luschniki-Stadion" }); // ru is not a served language
    expect(luzhniki.otherNames).toEqual(["Лужники", "Luschniki-Stadion"]);
  });

  it("keeps each other name once, none the same as the name shown when normalized", () => {
    expect(
      names("Tempodrom", {}, [], ["TEMPODROM", "Tempo-drom", "Tempodrom Berlin", "Tempodrom Berlin"]).otherNames,
    ).toEqual(["Tempo-drom", "Tempodrom Berlin"]);
  });

  it("tells Latin script from others by every letter", () => {
    expect(isLatin("Café Ørsted 1999")).toBe(true);
    expect(isLatin("Club Космос")).toBe(false);
    expect(isLatin("Ωδείο")).toBe(false);
  });
});

describe("the readings of a place at the end of a name", () => {
  it("cut the last words into a country, a region and (venues) a city, right to left", () => {
    const read = textReadings(["springfield", "il", "usa"], "cities").map((r) => JSON.stringify(r));
    expect(read).toContain(JSON.stringify({ nameWords: ["springfield", "il"], country: "usa" }));
    expect(read).toContain(JSON.stringify({ nameWords: ["springfield"], region: "il", country: "usa" }));
    expect(read).toContain(JSON.stringify({ nameWords: ["springfield"], region: "il usa" }));
    expect(read.some((r) => r.includes("city"))).toBe(false); // a city search reads no city
    const venues = textReadings(["royal", "albert", "hall", "london", "uk"], "venues");
    expect(venues).toContainEqual({ nameWords: ["royal", "albert", "hall"], city: "london", country: "uk" });
  });

  it("leave at least one word to the name, and read at most four", () => {
    expect(textReadings(["paris"], "cities")).toEqual([]);
    const long = textReadings(["a", "b", "c", "d", "e", "f"], "venues");
    expect(Math.min(...long.map((r) => r.nameWords.length))).toBe(2);
    expect(long.every((r) => [r.city, r.region, r.country].every((part) => (part ?? "").split(" ").length <= 3))).toBe(
      true,
    );
  });
});

describe("other names of a venue row (docs/import.md#every-name-a-venue-has)", () => {
  it("reads them from CSV (;-separated) and NDJSON (text or a list), and reports a bad one by line", async () => {
    const problems = new Problems(false);
    const csv = file(
      "names.csv",
      [
        "id,name,cityId,url,lat,long,kind,otherNames",
        'aaaa0001,Rock & Roll Hotel,5392171,,,,club,"The R&R; R and R ;"',
        "aaaa0002,Quiet Hall,5392171,,,,,",
        'aaaa0003,Bad Names,5392171,,,,,"ok;bell\u0007"',
      ].join("\n"),
    );
    const rows = await venuesOf(csv, problems);
    expect(rows.map((r) => [r.id, r.otherNames])).toEqual([
      ["aaaa0001", ["The R&R", "R and R"]],
      ["aaaa0002", []],
    ]);
    expect(problemsOf(problems)).toEqual([
      'names.csv:4: venue aaaa0003: other name "bell\u0007" is not a name (text, at most 300 characters, no control characters)',
    ]);
    const ndjson = file(
      "names.ndjson",
      [
        JSON.stringify({ id: "aaaa0011", name: "Tempodrom", otherNames: ["Tempodrom Berlin", "Tempo"] }),
        JSON.stringify({ id: "aaaa0012", name: "Columbiahalle", otherNames: "C-Halle;Columbia Halle" }),
        JSON.stringify({ id: "aaaa0013", name: "Bad", otherNames: 7 }),
      ].join("\n"),
    );
    const lines = new Problems(false);
    expect((await venuesOf(ndjson, lines)).map((r) => r.otherNames)).toEqual([
      ["Tempodrom Berlin", "Tempo"],
      ["C-Halle", "Columbia Halle"],
    ]);
    expect(problemsOf(lines)).toEqual([
      "names.ndjson:3: venue aaaa0013: otherNames is neither text nor a list of names",
    ]);
  });
});
