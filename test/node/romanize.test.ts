/**
 * Generated venues named in another script (scripts/import/generate/romanize.ts): shown in Latin
 * letters by the rule of a real venue's names, the local name kept as another name.
 */
import { describe, expect, it } from "vitest";
import { romanized } from "../../scripts/import/generate/romanize.ts";
import { generateVenues, type GeneratorCity } from "../../scripts/import/generate/venues.ts";
import { TOKYO } from "../support/generator-cities.ts";

const MOSCOW: GeneratorCity = {
  ...TOKYO,
  id: "524901",
  name: "Moscow",
  countryCode: "RU",
  countryName: "Russia",
  admin1Code: "48",
  language: "ru",
  lat: 55.75222,
  lng: 37.61556,
};

describe("romanized", () => {
  it.each([
    ["Клуб «Космонавт»", "Klub «Kosmonavt»"],
    ["Дворец спорта «Юбилейный»", "Dvorets sporta «Yubileynyy»"],
    ["青葉ホール", "Aoba Hall"],
    ["月光ライブハウス", "Gekko Live House"],
    ["Zepp Tokyo", null],
    ["東京ドーム", null], // not the generator's words: not guessed
  ])("%s → %s", (name, latin) => {
    expect(romanized(name)).toBe(latin);
  });
});

describe("generated venues named in another script", () => {
  const venues = generateVenues([TOKYO, MOSCOW], { count: 600, seed: "test" });
  it.each([
    ["Tokyo", "1850147", /[\p{Script=Han}\p{Script=Katakana}]/u],
    ["Moscow", "524901", /\p{Script=Cyrillic}/u],
  ])("in %s show Latin letters, and keep the local name as another name", (city, id, script) => {
    const local = venues.filter((v) => v.cityId === id && v.otherNames.length > 0);
    expect(local.length).toBeGreaterThan(10);
    for (const v of local) {
      expect(v.name).not.toMatch(script);
      expect(v.otherNames).toEqual([expect.stringMatching(script)]);
      expect(romanized(v.otherNames[0] ?? "")).toBe(v.name);
      expect(v.url).toMatch(
        new RegExp(
          `^https://www\\.setlist\\.fm/venue/[a-z0-9]+(-[a-z0-9]+)*-${city.toLowerCase()}-[a-z]+-${v.id}\\.html$`,
        ),
      );
    }
  });
});
