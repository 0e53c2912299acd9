/**
 * The suggestion endpoints (docs/api.md#suggestions) over fetch, on the seeded D1: every parameter
 * and each bad input, the shapes in JSON and XML, the cache, `/rest`, languages, a focus, filters.
 */
import { describe, expect, it } from "vitest";
import type { CitiesPage, VenuesPage } from "../../src/shape.ts";
import { call, getJson, getXml, parseXml, untilCached, type ErrorJson } from "./helpers.ts";

async function cities(query: string, headers: Record<string, string> = {}): Promise<CitiesPage> {
  const res = await getJson(`/1.0/suggest/cities?${query}`, headers);
  expect(res.status, query).toBe(200);
  return (await res.json()) as CitiesPage;
}

async function venues(query: string): Promise<VenuesPage> {
  const res = await getJson(`/1.0/suggest/venues?${query}`);
  expect(res.status, query).toBe(200);
  return (await res.json()) as VenuesPage;
}

async function refusal(path: string): Promise<ErrorJson> {
  const res = await getJson(path);
  expect(res.status, path).toBe(400);
  return (await res.json()) as ErrorJson;
}

describe("suggestions: the answer", () => {
  it("is the first `limit` records in the searches' shape, the largest city first", async () => {
    const body = await cities("name=san");
    expect(Object.keys(body)).toEqual(["type", "itemsPerPage", "page", "total", "cities"]);
    expect(body).toMatchObject({ type: "cities", itemsPerPage: 8, page: 1, total: 8 });
    expect(body.cities.map((c) => c.name).slice(0, 3)).toEqual(["San Diego", "San Jose", "San Francisco"]);
    expect(Object.keys(body.cities[0] ?? {})).toEqual([
      "id",
      "name",
      "state",
      "stateCode",
      "coords",
      "country",
      "matched",
    ]);
    const three = await cities("name=san&limit=3");
    expect(three).toMatchObject({ itemsPerPage: 3, total: 3 });
  });

  it("gives venues as the venue search does, and XML when asked", async () => {
    const body = await venues("name=the%20fill");
    expect(body.venue.map((v) => v.name)).toEqual(expect.arrayContaining(["The Fillmore", "The Fillmore Auditorium"]));
    expect(Object.keys(body.venue[0] ?? {})).toEqual(expect.arrayContaining(["id", "name", "city", "url", "kind"]));
    const res = await getXml("/rest/1.0/suggest/venues?name=fill&limit=2");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/xml");
    const { root } = parseXml(await res.text());
    expect(root.name).toBe("venues");
    expect(root.attributes).toMatchObject({ itemsPerPage: "2", page: "1", total: "2" });
    expect(root.children.map((c) => c.name)).toEqual(["venue", "venue"]);
  });

  it("is an empty list, not a 404, for a text that matches nothing yet", async () => {
    expect(await cities("name=zzqx")).toMatchObject({ total: 0, cities: [] });
  });

  it("carries the distance from a focus, which orders but does not filter", async () => {
    const near = await cities("name=san&lat=37.77&long=-122.42");
    expect(near.cities[0]?.name).toBe("San Francisco");
    expect(near.cities[0]?.distance).toBeLessThan(5);
    expect(near.cities.map((c) => c.name)).toContain("San Diego");
  });

  it("keeps the filters, and names in the caller's language", async () => {
    const body = await cities("name=m&country=DE");
    expect(body.cities.every((c) => c.country.code === "DE")).toBe(true);
    const de = await cities("name=vien", { "Accept-Language": "de" });
    expect(de.cities[0]?.name).toBe("Wien");
  });
});

describe("suggestions: words of one name, one list at every limit (issue 49)", () => {
  it("never lists a city whose words come from two of its names; lists it by one", async () => {
    // San Francisco is "New Albion" and "Yerba Buena" in GeoNames.
    const ids = async (query: string) => (await cities(query)).cities.map((c) => c.id);
    expect(await ids("name=new%20y&limit=20")).not.toContain("5391959");
    expect(await ids("name=buena%20ne&limit=20")).not.toContain("5391959");
    expect(await ids("name=yerba%20bu")).toContain("5391959");
    expect(await ids("name=new%20alb")).toContain("5391959");
  });

  it("gives the first `limit` of one list, whatever the limit", async () => {
    for (const text of ["s", "san", "la", "ber", "new%20y"]) {
      const all = (await cities(`name=${text}&limit=20`)).cities.map((c) => c.id);
      for (const limit of [1, 3, 8, 13]) {
        expect(
          (await cities(`name=${text}&limit=${limit}`)).cities.map((c) => c.id),
          `${text} ${limit}`,
        ).toEqual(all.slice(0, limit));
      }
    }
  });
});

describe("suggestions: why each is there (issue 55)", () => {
  it("says the name that holds the typed words and where they are in it, the shown name when it does", async () => {
    const body = await cities("name=san%20d");
    expect(body.cities[0]?.matched).toEqual({
      name: "San Diego",
      spans: [
        { offset: 0, length: 3 },
        { offset: 4, length: 1 },
      ],
    });
    expect(body.cities.every((c) => c.matched !== undefined)).toBe(true);
  });

  it("names the other name that holds them when the shown one does not, in the caller's language too", async () => {
    const vienna = (await cities("name=wien&limit=20")).cities.find((c) => c.id === "2761369");
    expect(vienna?.name).toBe("Vienna");
    expect(vienna?.matched).toEqual({ name: "Wien", spans: [{ offset: 0, length: 4 }] });
    // In German, Vienna is shown as Wien: that is the name that holds `wien`.
    const de = (await cities("name=wien&limit=20", { "Accept-Language": "de" })).cities.find((c) => c.id === "2761369");
    expect(de?.matched).toEqual({ name: "Wien", spans: [{ offset: 0, length: 4 }] });
    const munich = (await cities("name=munich", { "Accept-Language": "de" })).cities[0];
    expect(munich).toMatchObject({ name: "München", matched: { name: "Munich" } });
  });

  it("names the place read at the end of the text, as the data names it", async () => {
    const body = await venues("name=club%20ber");
    const first = body.venue[0];
    expect(first?.city?.name).toBe("Berlin");
    expect(first?.matched?.place).toBe("Berlin");
    expect(first?.matched?.name).toBe(first?.name);
    expect(first?.matched?.spans).toEqual([{ offset: first?.name.toLowerCase().indexOf("club") ?? -1, length: 4 }]);
  });

  it("is in XML what it is in JSON: a <matched> element with a <span> per typed word", async () => {
    const json = await cities("name=san%20d&limit=2");
    const res = await getXml("/1.0/suggest/cities?name=san%20d&limit=2");
    const { root } = parseXml(await res.text());
    const matched = root.children.map((c) => c.children.find((m) => m.name === "matched"));
    expect(
      matched.map((m) => ({
        name: m?.attributes.name,
        spans: m?.children.map((s) => ({ offset: Number(s.attributes.offset), length: Number(s.attributes.length) })),
      })),
    ).toEqual(json.cities.map((c) => c.matched));
  });

  it("never carries `matched` in a search", async () => {
    const res = await getJson("/1.0/search/cities?name=san%20d");
    const body = (await res.json()) as CitiesPage;
    expect(body.cities.some((c) => "matched" in c)).toBe(false);
  });
});

describe("suggestions: the request", () => {
  it("needs a name, and a limit from 1 to 20", async () => {
    expect((await refusal("/1.0/suggest/cities")).message).toBe("parameter name is required: the text typed so far");
    for (const limit of ["0", "21", "abc", "1.5"]) {
      expect((await refusal(`/1.0/suggest/venues?name=a&limit=${limit}`)).message).toBe(
        "parameter limit must be a whole number from 1 to 20",
      );
    }
    expect((await refusal("/1.0/suggest/cities?name=a&lat=91&long=0")).message).toMatch(/parameter lat/);
    expect((await refusal("/1.0/suggest/venues?name=a&kind=opera")).message).toMatch(/parameter kind/);
  });

  it("is cached per canonical query, whatever the order and case of its parameters", async () => {
    const first = await untilCached("/1.0/suggest/cities?name=San&limit=4", { Accept: "application/json" });
    expect(first.headers.get("X-Cache")).toBe("HIT");
    const same = await call("/1.0/suggest/cities?limit=4&name=san", { headers: { Accept: "application/json" } });
    expect(same.headers.get("X-Cache")).toBe("HIT");
    expect(await same.text()).toBe(await first.text());
  });
});
