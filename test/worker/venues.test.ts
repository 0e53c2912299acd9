import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { normalize } from "../../src/data-contract/normalize.ts";
import type { VenueJson } from "../../src/shape.ts";
import { allPages } from "./helpers.ts";

import { expected, expectedIds, ids, page, status, venueOrder } from "./venue-search.ts";

describe("venue search: the page", () => {
  it("has the live key order and the seed's example shape", async () => {
    const body = await page("name=compaq%20center");
    expect(Object.keys(body)).toEqual(["type", "itemsPerPage", "page", "total", "venue"]);
    expect(body).toEqual({
      type: "venues",
      itemsPerPage: 30,
      page: 1,
      total: 1,
      venue: [
        {
          id: "6bd6ca6e",
          name: "Compaq Center",
          city: { id: "5392171", name: "San Jose", state: "California", stateCode: "CA", coords: {}, country: {} },
          url: "https://www.setlist.fm/venue/compaq-center-san-jose-ca-usa-6bd6ca6e.html",
          kind: "venue",
        },
      ],
    });
    expect(Object.keys(body.venue[0] ?? {})).toEqual(["id", "name", "city", "url", "kind"]);
    expect(Object.keys(body.venue[0]?.city ?? {})).toEqual(["id", "name", "state", "stateCode", "coords", "country"]);
  });

  it("leaves out what is unknown: no city, no url, no state name", async () => {
    const worthy = (await page("name=worthy%20farm")).venue[0];
    expect(worthy).toEqual({
      id: "6bd6a3ce",
      name: "Worthy Farm",
      url: "https://www.setlist.fm/venue/worthy-farm-6bd6a3ce.html",
      kind: "venue",
    });
    const secret = (await page("name=secret%20garden%20party")).venue[0];
    expect(secret).toEqual({ id: "3bd6a3d2", name: "Secret Garden Party Site", kind: "venue" });
    const vaduz = (await page("name=vaduzer%20saal")).venue[0];
    expect(vaduz?.city).toEqual({ id: "3042030", name: "Vaduz", stateCode: "11", coords: {}, country: {} });
  });

  it("without filters returns every venue, paged", async () => {
    const { count } = (await env.DB.prepare("SELECT count(*) AS count FROM venues").first<{ count: number }>()) ?? {
      count: 0,
    };
    const first = await page("");
    expect(first.total).toBe(count);
    expect(first.venue).toHaveLength(30);
    expect(ids(first.venue)).toEqual((await expectedIds("1")).slice(0, 30));
  });
});

describe("venue search: name", () => {
  it("matches every word as a prefix of some word, in any order", async () => {
    expect(ids((await page("name=fill%20aud")).venue)).toEqual(["3bd6b4b4"]);
    expect(ids((await page("name=aud%20fill")).venue)).toEqual(["3bd6b4b4"]);
    const fillmore = (await page("name=fillmore")).venue;
    expect(ids(fillmore)).toEqual(expect.arrayContaining(["1bd6b4c0", "3bd6b4b4"]));
    expect(
      fillmore.every((v) =>
        normalize(v.name)
          .split(" ")
          .some((w) => w.startsWith("fillmore")),
      ),
    ).toBe(true);
    expect(await status("name=illmore&typos=0")).toBe(404); // a prefix of a word, not a substring
  });

  it("ignores case, accents and punctuation", async () => {
    for (const q of ["ZENITH", "zénith", "le-zenith", "Le%20Z%C3%A9nith"]) {
      expect(ids((await page(`name=${q}`)).venue), q).toContain("0bd6a3e2");
    }
    expect(ids((await page("name=rock%20%26%20roll%20hotel")).venue)).toContain("4bd6a3a2");
    expect(await status("name=obrien&typos=0")).toBe(404); // the apostrophe separates words
    expect(ids((await page("name=o%27brien")).venue)).toContain("5bd6a3aa");
    expect(ids((await page("name=zak%20KLUB")).venue)).toContain("3bd6a3ea"); // Klub Żak
  });

  it("finds non-Latin names", async () => {
    expect(ids((await page("name=%E6%9D%B1%E4%BA%AC")).venue)).toEqual(["0bd6a3b2"]); // 東京
    expect(ids((await page("name=%D0%BA%D0%BE%D1%81%D0%BC%D0%BE")).venue)).toContain("6bd6a3b6"); // космо
  });

  it("orders exact matches, then names starting with the query, then the rest; each by city size, name, id", async () => {
    const { total, items } = await allPages<VenueJson>("/1.0/search/venues?name=stadthalle", "venue");
    expect(items).toHaveLength(total);
    expect(new Set(ids(items)).size).toBe(items.length);
    expect(items[0]?.name).toBe("Stadthalle");
    const all = await expected("1");
    const tier = (name: string) =>
      normalize(name) === "stadthalle" ? 0 : normalize(name).startsWith("stadthalle") ? 1 : 2;
    const matches = all.filter((v) =>
      normalize(v.name)
        .split(" ")
        .some((w) => w.startsWith("stadthalle")),
    );
    const sorted = matches.sort((a, b) => tier(a.name) - tier(b.name) || venueOrder(a, b));
    expect(ids(items)).toEqual(sorted.map((v) => v.id));
    expect(items.findIndex((v) => v.name === "Wiener Stadthalle")).toBeGreaterThan(
      items.findIndex((v) => v.name === "Stadthalle Wiener Neustadt"),
    );
  });
});

describe("venue search: name", () => {
  it("lists the venues of big cities first (§10.3), across pages, venues without a city last", async () => {
    const { total, items } = await allPages<VenueJson>("/1.0/search/venues?name=arena", "venue");
    expect(total).toBeGreaterThan(60); // more than two pages
    const all = await expected("1");
    const byId = new Map(all.map((v) => [v.id, v]));
    const arenas = all.filter((v) =>
      normalize(v.name)
        .split(" ")
        .some((w) => w.startsWith("arena")),
    );
    const tier = (name: string) => (normalize(name) === "arena" ? 0 : normalize(name).startsWith("arena") ? 1 : 2);
    expect(ids(items)).toEqual(arenas.sort((a, b) => tier(a.name) - tier(b.name) || venueOrder(a, b)).map((v) => v.id));
    const populations = items.filter((v) => tier(v.name) === 2).map((v) => byId.get(v.id)?.population ?? -1);
    expect(populations).toEqual([...populations].sort((a, b) => b - a));
    const everything = await allPages<VenueJson>("/1.0/search/venues?country=DE", "venue");
    expect(ids(everything.items)).toEqual(await expectedIds("c.country_code = 'DE'"));
  });

  it("seeks every page of all venues, a country and a state through the blocks of cities (venue_blocks)", async () => {
    const withoutCity = await expectedIds("v.city_pos IS NULL");
    expect(withoutCity.length).toBeGreaterThan(0);
    const all = await allPages<VenueJson>("/1.0/search/venues?", "venue");
    expect(ids(all.items)).toEqual(await expectedIds("1"));
    expect(ids(all.items).slice(-withoutCity.length)).toEqual(withoutCity);
    for (const [query, where] of [
      ["country=US", "c.country_code = 'US'"],
      ["country=US&stateCode=CA", "c.country_code = 'US' AND c.admin1_code = 'CA'"],
    ] as const) {
      const pages = await allPages<VenueJson>(`/1.0/search/venues?${query}`, "venue");
      expect(pages.items.length, query).toBeGreaterThan(60);
      expect(ids(pages.items), query).toEqual(await expectedIds(where));
    }
  });
});

describe("venue search: filters", () => {
  it("cityId: the venue's city id exactly", async () => {
    const body = await page("cityId=5392171");
    expect(ids(body.venue)).toEqual((await expectedIds("c.id = ?", "5392171")).slice(0, 30));
    expect(body.venue.every((v) => v.city?.id === "5392171")).toBe(true);
    expect(await status("cityId=539217")).toBe(404);
  });

  it("cityName: the city's name or ASCII name after normalization", async () => {
    const zurich = await expectedIds("c.id = ?", "2657896");
    expect(ids((await page("cityName=Z%C3%BCrich")).venue)).toEqual(zurich.slice(0, 30));
    expect(ids((await page("cityName=ZURICH")).venue)).toEqual(zurich.slice(0, 30));
    expect(await status("cityName=Zuri")).toBe(404); // exact, not a prefix
    const springfields = await allPages<VenueJson>("/1.0/search/venues?cityName=springfield", "venue");
    expect(new Set(springfields.items.map((v) => v.city?.id))).toEqual(new Set(["4250542", "4951788", "4409896"]));
  });

  it("state: the admin-1 name after normalization; stateCode: the code in any case", async () => {
    const california = await expectedIds("c.country_code = 'US' AND c.admin1_code = 'CA'");
    for (const q of ["state=California", "state=CALIFORNIA", "stateCode=CA", "stateCode=ca"]) {
      const body = await page(q);
      expect(body.total, q).toBe(california.length);
      expect(ids(body.venue), q).toEqual(california.slice(0, 30));
    }
    const zurichCanton = await page("stateCode=zh");
    expect(zurichCanton.venue.every((v) => v.city?.stateCode === "ZH")).toBe(true);
  });

  it("country: ISO code in any case, or the English name", async () => {
    const us = await expectedIds("c.country_code = 'US'");
    for (const q of ["country=US", "country=us", "country=United%20States", "country=united%20states"]) {
      const body = await page(q);
      expect(body.total, q).toBe(us.length);
      expect(ids(body.venue), q).toEqual(us.slice(0, 30));
    }
    // GeoNames spells it "The Netherlands"; the fixture has one Dutch city, 's-Hertogenbosch.
    const dutch = await expectedIds("c.country_code = 'NL'");
    expect(dutch.length).toBeGreaterThan(0);
    expect(ids((await page("country=The%20Netherlands")).venue)).toEqual(dutch.slice(0, 30));
    expect(await status("country=Netherlands")).toBe(404);
    expect(await status("country=Atlantis")).toBe(404);
    expect(await status("country=XX")).toBe(404);
  });
});

describe("venue search: filters", () => {
  it("combines filters with AND", async () => {
    const body = await page("cityName=springfield&stateCode=IL");
    expect(new Set(body.venue.map((v) => v.city?.id))).toEqual(new Set(["4250542"]));
    const both = await page("name=springfield&cityName=springfield&country=us&state=massachusetts");
    expect(ids(both.venue)).toContain("5bd6a3da");
    expect(both.venue.every((v) => v.city?.id === "4951788" && normalize(v.name).includes("springfield"))).toBe(true);
    expect(await status("name=compaq&country=DE")).toBe(404);
    const expected = await expectedIds(
      "c.country_code = 'AT' AND v.pos IN (SELECT rowid FROM venues_fts WHERE venues_fts MATCH '\"stadthalle\"*')",
    );
    const { items } = await allPages<VenueJson>("/1.0/search/venues?name=stadthalle&country=Austria", "venue");
    expect(ids(items).sort()).toEqual([...expected].sort());
  });

  it("ignores unknown parameters and treats empty values as absent", async () => {
    const plain = await page("cityId=5392171");
    expect(await page("cityId=5392171&foo=bar&NAME=x")).toEqual(plain);
    expect(await page("cityId=5392171&name=&state=")).toEqual(plain);
    expect(await page("cityId=5392171&name=%20%20")).toEqual(plain);
  });

  it("a value with no letters or digits matches nothing", async () => {
    expect(await status("name=!!!")).toBe(404);
    expect(await status("cityName=%F0%9F%8E%B8")).toBe(404);
  });
});
