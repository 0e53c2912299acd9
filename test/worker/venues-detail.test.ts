import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { nameForms } from "../../src/data-contract/spellings.ts";
import type { CityJson, VenueJson, VenuesPage } from "../../src/shape.ts";
import { allPages, callWith, getJson, getXml, parseXml } from "./helpers.ts";

import { expected, ids, venueOrder } from "./venue-search.ts";

describe("VENUE_CITY_DETAIL = full (docs/api.md#venue-cities-in-full)", () => {
  const full = (path: string, accept = "application/json") =>
    callWith({ VENUE_CITY_DETAIL: "full" }, path, { headers: { Accept: accept } });

  it("fills every venue city's coords and country, as a city search does, in JSON", async () => {
    const body = (await (await full("/1.0/search/venues?country=CH")).json()) as VenuesPage;
    expect(body.venue.length).toBeGreaterThan(0);
    for (const v of body.venue) {
      const city = v.city as CityJson;
      expect(typeof city.coords.lat).toBe("number");
      expect(typeof city.coords.long).toBe("number");
      expect(city.country).toEqual({ code: "CH", name: "Switzerland" });
      const lookup = (await (await getJson(`/1.0/city/${city.id}`)).json()) as CityJson;
      expect(city).toEqual(lookup);
    }
  });

  it("and in XML, with the default still empty", async () => {
    const { root } = parseXml(await (await full("/1.0/search/venues?name=compaq", "application/xml")).text());
    const city = root.children[0]?.children.find((c) => c.name === "city");
    expect(city?.children.find((c) => c.name === "coords")?.attributes).toEqual({
      lat: "37.33939",
      long: "-121.89496",
    });
    expect(city?.children.find((c) => c.name === "country")?.attributes).toEqual({ code: "US", name: "United States" });
    const plain = parseXml(await (await getXml("/1.0/search/venues?name=compaq")).text()).root;
    const plainCity = plain.children[0]?.children.find((c) => c.name === "city");
    expect(plainCity?.children.find((c) => c.name === "coords")?.attributes).toEqual({});
  });

  it("is part of the cache key: a full answer never serves a default request, nor the reverse", async () => {
    const path = "/1.0/search/venues?cityId=5391959";
    for (let i = 0; i < 20; i++) await (await full(path)).arrayBuffer();
    const plain = (await (await getJson(path)).json()) as VenuesPage;
    expect(plain.venue[0]?.city?.coords).toEqual({});
    const again = (await (await full(path)).json()) as VenuesPage;
    expect((again.venue[0]?.city as CityJson).coords.lat).toBeTypeOf("number");
  });
});

describe("deep pages of broad one-word names (anchored every few matches)", () => {
  it.each(["s", "the", "club", "sa"])(
    "name=%s: every page in order, the same as with a filter that keeps all",
    async (word) => {
      const anchored = await env.DB.prepare("SELECT count(*) AS n FROM name_tiers WHERE kind = 'venue' AND prefix = ?")
        .bind(word)
        .first<{ n: number }>();
      expect(anchored?.n).toBe(1); // broad in the fixture: its pages start from anchors
      const { total, items } = await allPages<VenueJson>(`/1.0/search/venues?name=${word}`, "venue");
      const all = await expected("1");
      // A name is found under each of its spellings (St and Saint, &, umlauts written out).
      const tier = (name: string) => {
        const forms = nameForms(name);
        return forms.includes(word) ? 0 : forms.some((f) => f.startsWith(word)) ? 1 : 2;
      };
      const matches = all.filter((v) =>
        nameForms(v.name)
          .flatMap((f) => f.split(" "))
          .some((w) => w.startsWith(word)),
      );
      expect(total).toBe(matches.length);
      expect(ids(items)).toEqual(
        matches.sort((a, b) => tier(a.name) - tier(b.name) || venueOrder(a, b)).map((v) => v.id),
      );
    },
  );
});
