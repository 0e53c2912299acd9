import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CitiesPage, CityJson } from "../../src/shape.ts";
import { allPages, getJson, HOLLYWOOD } from "./helpers.ts";
import { classKeys, nameTiers } from "../support/class-keys.ts";
import type { Language } from "../../src/data-contract/languages.ts";

async function page(query: string): Promise<CitiesPage> {
  const res = await getJson(`/1.0/search/cities?${query}`);
  expect(res.status, query).toBe(200);
  return (await res.json()) as CitiesPage;
}

async function status(query: string): Promise<number> {
  const res = await getJson(`/1.0/search/cities?${query}`);
  await res.arrayBuffer();
  return res.status;
}

const ids = (cities: CityJson[]) => cities.map((c) => c.id);

/** City ids matching a SQL condition on cities c, in the contract's order (population, id). */
async function expectedIds(where: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT id FROM cities c WHERE ${where} ORDER BY population DESC, CAST(id AS INTEGER)`,
  ).all<{ id: string }>();
  return results.map((r) => r.id);
}

describe("city search: the page", () => {
  it("has the live key order and the seed's example shape", async () => {
    const body = await page("name=hollywood&stateCode=CA");
    expect(Object.keys(body)).toEqual(["type", "itemsPerPage", "page", "total", "cities"]);
    expect(body.itemsPerPage).toBe(50);
    const hollywood = body.cities.find((c) => c.id === "5357527");
    expect(hollywood).toEqual(HOLLYWOOD);
    expect(Object.keys(hollywood ?? {})).toEqual(["id", "name", "state", "stateCode", "coords", "country"]);
  });

  it("without filters returns every city by population, then id", async () => {
    const all = await expectedIds("1");
    const { total, items } = await allPages<CityJson>("/1.0/search/cities", "cities");
    expect(total).toBe(all.length);
    expect(ids(items)).toEqual(all);
  });

  it("leaves out a state name the admin-1 table does not have", async () => {
    const vaduz = (await page("name=vaduz")).cities.find((c) => c.id === "3042030");
    expect(vaduz).toEqual({
      id: "3042030",
      name: "Vaduz",
      stateCode: "11",
      coords: { lat: 47.14151, long: 9.52154 },
      country: { code: "LI", name: "Liechtenstein" },
    });
  });
});

describe("city search: name", () => {
  it("matches alternate names: München, munchen and Wien", async () => {
    for (const q of ["M%C3%BCnchen", "munchen", "MUNCHEN", "Munich"]) {
      expect((await page(`name=${q}`)).cities[0]?.name, q).toBe("Munich");
    }
    expect((await page("name=wien")).cities[0]?.name).toBe("Vienna");
    expect((await page("name=Wien")).cities.map((c) => c.name)).toContain("Wiener Neustadt");
  });

  it("matches word prefixes in any order, within one name", async () => {
    expect(ids((await page("name=york%20new")).cities)).toContain("5128581");
    expect(ids((await page("name=new%20yo")).cities)).toContain("5128581");
    expect(ids((await page("name=frankfurt%20oder")).cities)).toEqual(["2925535"]);
    expect(await status("name=qxzv")).toBe(404);
  });

  it("takes the words from one name: San Francisco is Yerba Buena and New Albion, not buena new", async () => {
    expect(ids((await page("name=yerba%20buena")).cities)).toContain("5391959");
    expect(ids((await page("name=new%20albion")).cities)).toContain("5391959");
    const strict = await getJson("/1.0/search/cities?name=buena%20new&typos=0&places=0");
    const body = strict.status === 200 ? ((await strict.json()) as CitiesPage) : null;
    if (body === null) await strict.arrayBuffer();
    expect(ids(body?.cities ?? [])).not.toContain("5391959");
    // The total counts what the page lists, no record by words of two names.
    const all = await allPages<CityJson>("/1.0/search/cities?name=san%20s&typos=0&places=0", "cities");
    expect(all.items).toHaveLength(all.total);
  });

  it("orders exact names, then names starting with the query, then the rest; each by population", async () => {
    const paris = (await page("name=paris")).cities;
    expect(ids(paris).slice(0, 2)).toEqual(["2988507", "4717560"]); // Paris, France; then Paris, Texas
    const wien = (await page("name=wien")).cities;
    // Vienna has the exact alternate name "Wien"; Wiener Neustadt only starts with it.
    expect(ids(wien).indexOf("2761369")).toBeLessThan(ids(wien).indexOf("2761353"));
  });

  it("pages a broad name search without repeats", async () => {
    const { total, items } = await allPages<CityJson>("/1.0/search/cities?name=s", "cities");
    expect(items).toHaveLength(total);
    expect(new Set(ids(items)).size).toBe(total);
    expect(total).toBeGreaterThan(50);
  });
});

describe("city search: filters", () => {
  it("state, stateCode and country select the same cities as the data says", async () => {
    const california = await expectedIds("country_code = 'US' AND admin1_code = 'CA'");
    for (const q of [
      "state=california",
      "stateCode=ca",
      "stateCode=CA&country=US",
      "state=California&country=united%20states",
    ]) {
      const { total, items } = await allPages<CityJson>(`/1.0/search/cities?${q}`, "cities");
      expect(total, q).toBe(california.length);
      expect(ids(items), q).toEqual(california);
    }
    const us = await expectedIds("country_code = 'US'");
    expect((await page("country=US")).total).toBe(us.length);
  });

  it("combines name and filters with AND", async () => {
    expect(ids((await page("name=paris&country=FR")).cities)).toEqual(["2988507"]);
    expect(ids((await page("name=paris&country=us")).cities)).toEqual(["4717560"]);
    expect(ids((await page("name=springfield&state=missouri")).cities)).toEqual(["4409896"]);
    expect(await status("name=paris&country=DE")).toBe(404);
  });

  it("ignores cityId and cityName, which the city search does not have", async () => {
    expect(await page("name=vaduz&cityId=1&cityName=nowhere")).toEqual(await page("name=vaduz"));
  });
});

describe("city search: deep pages of broad one-word names (anchored every few matches)", () => {
  const match = async (q: string) =>
    new Set(
      (
        await env.DB.prepare("SELECT rowid FROM cities_fts WHERE cities_fts MATCH ? ORDER BY rowid")
          .bind(q)
          .all<{ rowid: number }>()
      ).results.map((r) => r.rowid),
    );

  it.each<[string, Language]>([
    ["s", "en"],
    ["b", "en"],
    ["sa", "en"],
    ["s", "de"],
    ["m", "fr"],
  ])("name=%s in %s: every page, as FTS5 and the populations order the matches", async (word, language) => {
    const broad = await env.DB.prepare(
      "SELECT count(*) AS n FROM name_tiers WHERE kind = 'city' AND prefix = ? AND lang = ''",
    )
      .bind(word)
      .first<{ n: number }>();
    expect(broad?.n).toBe(1);
    const rows = (
      await env.DB.prepare("SELECT pos, id, population FROM cities").all<{
        pos: number;
        id: string;
        population: number;
      }>()
    ).results;
    const byPos = new Map(rows.map((r) => [r.pos, r]));
    const matches = [...(await match(`"${word}"*`))].sort((a, b) => a - b);
    const tiers = await nameTiers(match, "cities", [word], language);
    const key = classKeys(matches, tiers, (pos) => byPos.get(pos)?.population ?? 0);
    const order = matches.sort((a, b) => key(a) - key(b) || a - b);
    expect(order.some((pos) => key(pos) >= 3)).toBe(true);
    const { total, items } = await allPages<CityJson>(`/1.0/search/cities?name=${word}`, "cities", {
      "Accept-Language": language,
    });
    expect(total).toBe(order.length);
    expect(ids(items)).toEqual(order.map((pos) => byPos.get(pos)?.id));
  });
});
