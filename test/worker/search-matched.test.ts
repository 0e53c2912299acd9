/**
 * `matched=1` (docs/api.md#which-name-matched): a search's records say which of their names holds
 * the words, as suggestions do, in JSON and XML; without it, setlist.fm's shape. On the fixture
 * data: Vienna's GeoNames name is "Vienna", its German name "Wien", one of its alternate names "Vindobona".
 */
import { describe, expect, it } from "vitest";
import type { CitiesPage, VenuesPage } from "../../src/shape.ts";
import { getJson, getXml, parseXml } from "./helpers.ts";

const VIENNA = "2761369";

describe("which name matched (matched=1)", () => {
  it("gives each city the name that holds the words, the shown one when it does", async () => {
    const alias = (await (await getJson("/1.0/search/cities?name=vindob&matched=1")).json()) as CitiesPage;
    const vienna = alias.cities.find((c) => c.id === VIENNA);
    expect(vienna?.name).toBe("Vienna");
    expect(vienna?.matched).toEqual({ name: "Vindobona", spans: [{ offset: 0, length: 6 }] });
    expect(Object.keys(vienna ?? {}).at(-1)).toBe("matched");
    const own = (await (await getJson("/1.0/search/cities?name=vienna&matched=1")).json()) as CitiesPage;
    expect(own.cities.find((c) => c.id === VIENNA)?.matched).toEqual({
      name: "Vienna",
      spans: [{ offset: 0, length: 6 }],
    });
  });

  it("follows the answer's language: in German, Wien is the name shown and the one that matched", async () => {
    const res = await getJson("/1.0/search/cities?name=wien&matched=1", { "Accept-Language": "de" });
    const vienna = ((await res.json()) as CitiesPage).cities.find((c) => c.id === VIENNA);
    expect(vienna).toMatchObject({ name: "Wien", matched: { name: "Wien", spans: [{ offset: 0, length: 4 }] } });
  });

  it("says the place read at the end of the text, for venues too", async () => {
    const res = await getJson("/1.0/search/venues?name=hallenstadion%20zurich&matched=1");
    expect(res.headers.get("X-Match")).toBe("place");
    const venue = ((await res.json()) as VenuesPage).venue[0];
    expect(venue?.matched).toEqual({ name: "Hallenstadion", spans: [{ offset: 0, length: 13 }], place: "Zürich" });
  });

  it("is the last child in XML", async () => {
    const xml = parseXml(await (await getXml("/1.0/search/cities?name=vindob&matched=1")).text()).root;
    const vienna = xml.children.find((c) => c.attributes.id === VIENNA);
    const last = vienna?.children.at(-1);
    expect(last?.name).toBe("matched");
    expect(last?.attributes).toEqual({ name: "Vindobona" });
    expect(last?.children.map((s) => s.attributes)).toEqual([{ offset: "0", length: "6" }]);
  });

  it("is setlist.fm's shape without it, a cache key of its own, and a 400 for another value", async () => {
    const plain = (await (await getJson("/1.0/search/cities?name=vindob")).json()) as CitiesPage;
    expect(plain.cities.every((c) => !("matched" in c))).toBe(true);
    const off = (await (await getJson("/1.0/search/cities?name=vindob&matched=0")).json()) as CitiesPage;
    expect(off).toEqual(plain);
    const bad = await getJson("/1.0/search/cities?name=vindob&matched=yes");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/^parameter matched must be 1/);
    // Without a name there is nothing to say.
    const browse = (await (await getJson("/1.0/search/cities?country=AT&matched=1")).json()) as CitiesPage;
    expect(browse.cities.every((c) => !("matched" in c))).toBe(true);
  });
});
