import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cityVenues, generateVenues, venueWeight, type GeneratorCity } from "../../scripts/import/generate/venues.ts";
import { VenueIds } from "../../scripts/import/generate/ids.ts";
import { venueCounts } from "../../scripts/import/generate/counts.ts";
import { GENERATOR_CITIES } from "../support/generator-cities.ts";
import { reachKm } from "../../scripts/import/phases/place-rule.ts";
import { haversineKm } from "../../src/data-contract/distance.ts";
import { prefixCandidates, scopedPrefixCounts, type PrefixRecord } from "../../scripts/import/phases/prefix-totals.ts";
import { normalize } from "../../src/data-contract/normalize.ts";

const cities = GENERATOR_CITIES;

/** A section of Berlin and a town within its reach (made up): neither is a generated venue's city. */
const KREUZBERG: GeneratorCity = {
  ...(cities[0] as GeneratorCity),
  id: "2884161",
  name: "Kreuzberg",
  population: 153_135,
  lat: 52.49973,
  lng: 13.40338,
  section: true,
};
const TOWN: GeneratorCity = {
  ...KREUZBERG,
  id: "9999998",
  name: "Neustadt",
  population: 20_000,
  lng: 13.46,
  section: false,
};

describe("venue generator", () => {
  const venues = generateVenues(cities, { count: 5000, seed: "test" });

  it("makes exactly the venues asked for, the same ones for the same seed", () => {
    expect(venues).toHaveLength(5000);
    expect(generateVenues(cities, { count: 5000, seed: "test" })).toEqual(venues);
    expect(generateVenues([...cities].reverse(), { count: 5000, seed: "test" })).toEqual(venues);
    expect(generateVenues(cities, { count: 5000, seed: "other" })).not.toEqual(venues);
  });

  it("gives 8-hex ids, unique, and setlist.fm-style URLs", () => {
    expect(new Set(venues.map((v) => v.id)).size).toBe(venues.length);
    for (const v of venues) {
      expect(v.id).toMatch(/^[0-9a-f]{8}$/);
      expect(v.url).toMatch(new RegExp(`^https://www\\.setlist\\.fm/venue/[a-z0-9-]+-${v.id}\\.html$`));
    }
    const sanJose = venues.find((v) => v.cityId === "5392171");
    expect(sanJose?.url).toMatch(/-san-jose-ca-usa-[0-9a-f]{8}\.html$/);
    const berlin = venues.find((v) => v.cityId === "2950159");
    expect(berlin?.url).toMatch(/-berlin-germany-[0-9a-f]{8}\.html$/);
  });

  it("never repeats a name within a city", () => {
    const byCity = new Map<string | null, Set<string>>();
    for (const v of venues) {
      const names = byCity.get(v.cityId) ?? new Set<string>();
      expect(names.has(normalize(v.name))).toBe(false);
      names.add(normalize(v.name));
      byCity.set(v.cityId, names);
    }
  });

  it("puts more venues in bigger cities, and a few in no city", () => {
    const count = (id: string | null) => venues.filter((v) => v.cityId === id).length;
    expect(count("1850147")).toBeGreaterThan(count("2950159"));
    expect(count("2950159")).toBeGreaterThan(count("5392171"));
    expect(count("5392171")).toBeGreaterThan(count("3042030"));
    expect(count(null)).toBe(10);
  });

  it("names venues in the city's own setting", () => {
    const names = (id: string) => venues.filter((v) => v.cityId === id).map((v) => v.name);
    expect(
      names("2950159").some((n) => /Stadthalle|Brauhaus|Kulturzentrum|Festwiese|Gasthaus|Theater am/.test(n)),
    ).toBe(true);
    expect(names("2988507").some((n) => /Salle|Théâtre|Zénith|Stade|Palais/.test(n))).toBe(true);
    expect(names("1850147").some((n) => /Zepp|Live House|Kaikan|Hall|Gekijo|Dome/.test(n))).toBe(true);
  });
});

describe("where generated venues are", () => {
  const venues = generateVenues(cities, { count: 5000, seed: "test" });

  it("puts each venue at a point within its city's reach", () => {
    const byId = new Map(cities.map((c) => [c.id, c]));
    for (const v of venues) {
      const city = v.cityId === null ? undefined : byId.get(v.cityId);
      if (city === undefined || v.lat === null || v.lng === null) continue;
      expect(haversineKm(v.lat, v.lng, city.lat, city.lng)).toBeLessThanOrEqual(reachKm(city.population));
    }
    expect(venues.filter((v) => v.lat !== null).length).toBe(5000 - 10);
  });

  it("gives a section of a city no venues, and a town's venues within a bigger city's reach to that city", () => {
    const withMore = [...cities, KREUZBERG, TOWN].sort((a, b) => Number(a.id) - Number(b.id));
    const placed = generateVenues(withMore, { count: 5000, seed: "test" });
    const count = (id: string) => placed.filter((v) => v.cityId === id).length;
    const shares = venueCounts(withMore.map(venueWeight), 5000 - 10);
    const share = (c: GeneratorCity) => shares[withMore.indexOf(c)] ?? 0;
    expect(share(KREUZBERG)).toBe(0);
    expect(share(TOWN)).toBeGreaterThan(0);
    expect(count(KREUZBERG.id)).toBe(0);
    expect(count(TOWN.id)).toBe(0);
    expect(count("2950159")).toBe(share(cities[0] as GeneratorCity) + share(TOWN));
    // The town's venues keep their names ("… Neustadt") and say Berlin in their URL.
    const townVenue = placed.find((v) => v.name.includes("Neustadt"));
    expect(townVenue?.cityId).toBe("2950159");
    expect(townVenue?.url).toMatch(/-berlin-germany-[0-9a-f]{8}\.html$/);
  });
});

describe("venueCounts", () => {
  it("adds up exactly and grows with population", () => {
    const weights = [1_000_000, 10_000, 0, 500_000].map((population) => venueWeight({ population, section: false }));
    const counts = Array.from(venueCounts(weights, 1000));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(counts[0]).toBeGreaterThan(counts[3] ?? 0);
    expect(counts[3]).toBeGreaterThan(counts[1] ?? 0);
  });

  it("gives the extra venues as sorting every remainder would (largest first, ties to the earlier city)", () => {
    const largestRemainder = (populations: number[], total: number) => {
      const weights = populations.map((p) => Math.pow(Math.max(p, 0) + 100, 0.75));
      const sum = weights.reduce((a, b) => a + b, 0);
      const exact = weights.map((w) => (total * w) / sum);
      const counts = exact.map(Math.floor);
      const order = exact.map((_, i) => i).sort((a, b) => ((exact[b] ?? 0) % 1) - ((exact[a] ?? 0) % 1) || a - b);
      const extra = total - counts.reduce((a, b) => a + b, 0);
      for (const i of order.slice(0, extra)) counts[i] = (counts[i] ?? 0) + 1;
      return counts;
    };
    fc.assert(
      fc.property(
        // Many equal populations (villages of 500), so ties are common.
        fc.array(fc.oneof(fc.constant(500), fc.integer({ min: 0, max: 5_000_000 })), { minLength: 1, maxLength: 300 }),
        fc.integer({ min: 0, max: 20_000 }),
        (populations, total) => {
          const weights = populations.map((population) => venueWeight({ population, section: false }));
          expect(Array.from(venueCounts(weights, total))).toEqual(largestRemainder(populations, total));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("VenueIds", () => {
  it("never repeats an id, without remembering them (a permutation of the venue's number)", () => {
    const ids = new VenueIds("test");
    const seen = new Set<string>();
    for (let i = 0; i < 300_000; i++) seen.add(ids.at(i));
    expect(seen.size).toBe(300_000);
    expect([...seen].every((id) => /^[0-9a-f]{8}$/.test(id))).toBe(true);
  });

  it("streams a city's venues as the in-memory generator makes them", () => {
    const ids = new VenueIds("test");
    const tokyo = cities.find((c) => c.name === "Tokyo");
    if (tokyo === undefined) throw new Error("no Tokyo");
    const streamed = [...cityVenues(tokyo, 5, { seed: "test", ids, first: 40, cityAt: () => tokyo })];
    expect(streamed).toHaveLength(5);
    expect(new Set(streamed.map((v) => normalize(v.name))).size).toBe(5);
    expect(streamed.map((v) => v.id)).toEqual([40, 41, 42, 43, 44].map((i) => ids.at(i)));
  });
});

describe("stored totals of name prefixes", () => {
  const records: PrefixRecord[] = [
    { text: "stadthalle wien", countryCode: "AT", admin1Code: "09" },
    { text: "stadium", countryCode: "US", admin1Code: "CA" },
    { text: "star bar", countryCode: "US", admin1Code: "NY" },
    { text: "𝔰tar", countryCode: null, admin1Code: null },
    { text: "bar", countryCode: null, admin1Code: null },
  ];
  /** The vocabulary with record counts, sorted, as the import's words table gives it. */
  const vocabulary = (): [string, number][] => {
    const counts = new Map<string, number>();
    for (const r of records) for (const w of r.text.split(" ")) counts.set(w, (counts.get(w) ?? 0) + 1);
    return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  };
  // Grouped by country and state, records without a country anywhere (the import sorts them so).
  const grouped = [records[3], records[0], records[1], records[2], records[4]] as PrefixRecord[];

  it("counts each record once per prefix and scope, keeping prefixes that reach the minimum", () => {
    const candidates = prefixCandidates(vocabulary(), 2);
    expect([...candidates].sort()).toEqual(["b", "ba", "bar", "s", "st", "sta", "stad"]);
    const counts = new Map(
      scopedPrefixCounts(grouped, candidates, 2).map(([scope, prefix, n]) => [`${scope}|${prefix}`, n]),
    );
    expect(counts.get("|s")).toBe(3);
    expect(counts.get("|st")).toBe(3);
    expect(counts.get("|sta")).toBe(3);
    expect(counts.get("|stad")).toBe(2);
    expect(counts.get("|b")).toBe(2);
    expect(counts.get("|bar")).toBe(2);
    expect(counts.get("c:US|st")).toBe(2);
    expect(counts.has("s:US:CA|st")).toBe(false);
    expect(counts.has("|stadt")).toBe(false);
    expect(counts.has("c:AT|s")).toBe(false);
    expect(counts.has("|w")).toBe(false);
  });

  it("counts characters outside the BMP as one", () => {
    const counts = new Map(
      scopedPrefixCounts(grouped, prefixCandidates(vocabulary(), 1), 1).map(([scope, prefix, n]) => [
        `${scope}|${prefix}`,
        n,
      ]),
    );
    expect(counts.get("|𝔰")).toBe(1);
    expect(counts.get("|𝔰t")).toBe(1);
    expect(counts.get("s:US:NY|star")).toBe(1);
  });
});
