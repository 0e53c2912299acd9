import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CityJson, VenueJson } from "../../src/shape.ts";
import { allPages } from "./helpers.ts";

/** Venue ids in pos order for a condition on venues v, straight from D1. */
async function venueIds(where: string): Promise<string[]> {
  const { results } = await env.DB.prepare(`SELECT id FROM venues v WHERE ${where} ORDER BY pos`).all<{ id: string }>();
  return results.map((r) => r.id);
}

describe("stored totals and ranks agree with the rows", () => {
  it("the fixtures exercise stored name totals, in all and per country and state", async () => {
    const { results } = await env.DB.prepare(
      "SELECT DISTINCT kind, substr(scope, 1, 2) AS scope FROM name_prefix_counts",
    ).all();
    expect(results).toEqual(
      expect.arrayContaining([
        { kind: "venue", scope: "" },
        { kind: "venue", scope: "c:" },
        { kind: "venue", scope: "s:" },
        { kind: "city", scope: "" },
        { kind: "city", scope: "c:" },
      ]),
    );
  });

  it.each([
    "name=s",
    "name=st",
    "name=the",
    "name=arena",
    "name=s&country=US",
    "name=s&country=United%20States",
    "name=c&stateCode=CA&country=US",
    "name=the&country=AT",
    "name=s&state=California",
    "name=s&cityName=vienna",
  ])("venues %s: total = matches across all pages = FTS count", async (query) => {
    const { total, items } = await allPages<VenueJson>(`/1.0/search/venues?${query}`, "venue");
    expect(items).toHaveLength(total);
    expect(new Set(items.map((v) => v.id)).size).toBe(total);
  });

  it.each(["name=s", "name=sa", "name=san&country=US", "name=s&stateCode=CA&country=us", "name=a&country=LI"])(
    "cities %s: total = matches across all pages",
    async (query) => {
      const { total, items } = await allPages<CityJson>(`/1.0/search/cities?${query}`, "cities");
      expect(items).toHaveLength(total);
      expect(new Set(items.map((c) => c.id)).size).toBe(total);
    },
  );

  it.each([
    ["country=AT", "v.country_code = 'AT'"],
    ["country=Austria", "v.country_code = 'AT'"],
    ["stateCode=CA&country=US", "v.country_code = 'US' AND v.admin1_code = 'CA'"],
    ["cityId=2761369", "v.city_pos = (SELECT pos FROM cities WHERE id = '2761369')"],
    ["cityId=2761369&country=AT", "v.city_pos = (SELECT pos FROM cities WHERE id = '2761369')"],
    ["cityId=2761369&country=DE", "0"],
    ["stateCode=09", "v.admin1_code = '09'"],
    ["state=Vienna", "v.country_code = 'AT' AND v.admin1_code = '09'"],
    ["cityName=vienna&stateCode=09", "v.city_pos IN (SELECT pos FROM cities WHERE name_norm = 'vienna')"],
  ])("venues %s pages through exactly the venues of the scope, in order", async (query, where) => {
    const expected = await venueIds(where);
    if (where !== "0") expect(expected.length).toBeGreaterThan(0);
    const { total, items } = await allPages<VenueJson>(`/1.0/search/venues?${query}`, "venue");
    expect(total).toBe(expected.length);
    expect(items.map((v) => v.id)).toEqual(expected);
  });
});
