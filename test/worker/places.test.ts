/**
 * A place in the text (docs/api.md#a-place-in-the-text) through the worker, on the fixture data:
 * the answer, its headers in both formats, the cache, `places=0`, filters given beside the text,
 * and the typo fallback that overrules a strict answer whose names only start with the text's words.
 * Readings on real GeoNames rows, end to end: test/node/names-and-places.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { CitiesPage, VenuesPage } from "../../src/shape.ts";
import { getJson, getXml, parseXml, untilCached } from "./helpers.ts";

const cities = (query: string) => getJson(`/1.0/search/cities?${query}`);
const venues = (query: string) => getJson(`/1.0/search/venues?${query}`);

describe("a place at the end of the name", () => {
  it.each([
    ["name=Paris,%20TX", "4717560", "country=US&name=paris&stateCode=TX"],
    ["name=paris%20texas", "4717560", "country=US&name=paris&stateCode=TX"],
    ["name=London%20Ontario", "6058560", "country=CA&name=london&stateCode=08"],
    ["name=London,%20ON", "6058560", "country=CA&name=london&stateCode=08"],
    ["name=london%20uk", "2643743", "country=GB&name=london"],
    ["name=springfield%20missouri", "4409896", "country=US&name=springfield&stateCode=MO"],
    ["name=new%20york%20city%20usa", "5128581", "country=US&name=new%20york%20city"],
  ])("cities?%s answers city %s, read as %s", async (query, id, readAs) => {
    const res = await cities(query);
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Match")).toBe("place");
    expect(res.headers.get("X-Read-As")).toBe(readAs);
    const body = (await res.json()) as CitiesPage;
    expect(body.cities[0]?.id).toBe(id);
    // The reading's answer is the answer of the search it names.
    const read = (await (await cities(readAs)).json()) as CitiesPage;
    expect(body).toEqual(read);
  });

  it("reads a venue's city, and says so in XML too", async () => {
    const res = await getXml("/1.0/search/venues?name=hallenstadion%20zurich");
    expect(res.headers.get("X-Match")).toBe("place");
    expect(res.headers.get("X-Read-As")).toBe("cityId=2657896&name=hallenstadion");
    const xml = parseXml(await res.text()).root;
    expect(xml.children[0]?.attributes).toMatchObject({ id: "7bd6a3ae", name: "Hallenstadion" });
    // The country by its name in a served language (Österreich), as by its English one.
    const country = await venues("name=stadthalle%20%C3%B6sterreich");
    expect(country.headers.get("X-Read-As")).toBe("country=AT&name=stadthalle");
    expect(((await country.json()) as VenuesPage).venue[0]?.id).toBe("1bd6a3be");
  });

  it("reads the place near a point and in a box as without them, and answers in the area (issue 62)", async () => {
    const near = "lat=47.41&long=8.55&radius=10";
    for (const area of [near, "bbox=8.4,47.3,8.7,47.5"]) {
      const res = await venues(`name=hallenstadion%20zurich&${area}`);
      expect(res.headers.get("X-Match"), area).toBe("place");
      const readAs = res.headers.get("X-Read-As") ?? "";
      expect(readAs, area).toContain("cityId=2657896");
      expect(readAs, area).toContain("name=hallenstadion");
      const body = (await res.json()) as VenuesPage;
      expect(body.venue.map((v) => v.id)).toEqual(["7bd6a3ae"]);
      expect(body).toEqual(await (await venues(readAs)).json());
      // The place in the text and the same search with the city given: one answer.
      expect(body).toEqual(await (await venues(`name=hallenstadion&cityId=2657896&${area}`)).json());
    }
    // Far from the point, the place is still read, and nothing there is the answer.
    expect((await venues("name=hallenstadion%20zurich&lat=52.52&long=13.4&radius=10&typos=0")).status).toBe(404);
  });

  it("keeps the name as typed when a record's name is it, and reads nothing with places=0", async () => {
    // "Stadthalle Wien" and the generated "Stadthalle Vienna" are names: no city is read off them.
    const typed = await venues("name=stadthalle%20wien");
    expect(typed.headers.get("X-Match")).toBe("exact");
    expect(((await typed.json()) as VenuesPage).venue[0]?.id).toBe("5bd6a3c2");
    expect((await venues("name=stadthalle%20vienna")).headers.get("X-Match")).toBe("exact");
    expect((await venues("name=hallenstadion%20zurich&places=0&typos=0")).status).toBe(404);
    expect((await cities("name=Paris,%20TX&places=0&typos=0")).status).toBe(404);
  });

  it("is cached under the text's own key, the reading's headers with it", async () => {
    const cached = await untilCached("/1.0/search/cities?name=Paris%2C%20TX", { Accept: "application/json" });
    expect(cached.headers.get("X-Cache")).toBe("HIT");
    expect(cached.headers.get("X-Read-As")).toBe("country=US&name=paris&stateCode=TX");
    const off = await cities("name=Paris,%20TX&places=0");
    expect(off.headers.get("X-Read-As")).toBeNull();
  });
});

describe("a place at the end of the name, with other parameters", () => {
  it("adds the place to the filters given, never replaces one", async () => {
    // Texas is in the United States: the same reading.
    expect((await cities("name=paris%20tx&country=US")).headers.get("X-Read-As")).toBe(
      "country=US&name=paris&stateCode=TX",
    );
    // A Paris in Texas and in France at once: nothing.
    expect((await cities("name=paris%20tx&country=FR&typos=0")).status).toBe(404);
  });

  it("forgives a typo in the name within the place, never elsewhere", async () => {
    const res = await cities("name=Parsi,%20TX");
    expect(res.headers.get("X-Match")).toBe("fuzzy");
    expect(res.headers.get("X-Read-As")).toBe("country=US&name=parsi&stateCode=TX");
    expect(res.headers.get("X-Corrected-Name")).toBe("paris");
    expect(((await res.json()) as CitiesPage).cities.map((c) => c.id)).toEqual(["4717560"]);
    // "Springfeld" in Missouri is Springfield, Missouri: not the bigger one in Massachusetts.
    const mo = await cities("name=springfeld%20mo");
    expect(((await mo.json()) as CitiesPage).cities.map((c) => c.id)).toEqual(["4409896"]);
  });

  it("forgives a typo in the place: its words read as the words of a place's name", async () => {
    const res = await cities("name=paris%20texsa");
    expect(res.headers.get("X-Match")).toBe("fuzzy");
    expect(res.headers.get("X-Read-As")).toBe("country=US&name=paris&stateCode=TX");
    expect(res.headers.get("X-Corrected-Name")).toBe("paris%20texas");
    expect(((await res.json()) as CitiesPage).cities[0]?.id).toBe("4717560");
    const ontario = await cities("name=London,%20Ontaro");
    expect(ontario.headers.get("X-Read-As")).toBe("country=CA&name=london&stateCode=08");
    // No typos with typos=0: nothing is London, Ontaro.
    expect((await cities("name=London,%20Ontaro&typos=0")).status).toBe(404);
  });

  it("answers 400 for a bad places value, naming it", async () => {
    const res = await cities("name=paris&places=yes");
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^parameter places must be 0 .* or 1 /);
  });
});

describe("a correction that is a whole name, against a strict answer that only starts words", () => {
  it.each([
    ["mejico", "3530597", "mexico"], // "Méjico" starts a word of Mexico City's alternate names; "mexico" is one of them
    ["malno", "2692969", "malmo"], // a word of some alternate name starts with "malno"; Malmö is "malmo"
  ])("%s answers city %s as %s, forgiving the typo", async (name, id, corrected) => {
    const strict = await cities(`name=${name}&typos=0`);
    expect(strict.status).toBe(200); // the strict search does match
    const res = await cities(`name=${name}`);
    expect(res.headers.get("X-Match")).toBe("fuzzy");
    expect(res.headers.get("X-Corrected-Name")).toBe(corrected);
    expect(((await res.json()) as CitiesPage).cities[0]?.id).toBe(id);
  });

  it("leaves a strict answer whose name starts with the text as it is", async () => {
    // "Pari" starts "Paris": the strict answer stands, though "paru" or "part" may be names somewhere.
    expect((await cities("name=pari")).headers.get("X-Match")).toBe("exact");
  });
});
