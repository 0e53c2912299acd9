import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { negotiateLanguage } from "../../src/http/language.ts";
import type { CitiesPage, VenuesPage } from "../../src/shape.ts";
import { call, getJson, getXml, parseXml, untilCached } from "./helpers.ts";

describe("negotiateLanguage", () => {
  it.each([
    [null, "en"],
    ["", "en"],
    ["de", "de"],
    ["de-AT", "de"],
    ["DE-at", "de"],
    ["pt-BR,pt;q=0.9", "pt"],
    ["fr;q=0.5, de;q=0.8", "de"],
    ["en-US,de;q=0.9", "en"],
    ["zz, pl;q=0.1", "pl"],
    ["*", "en"],
    ["de;q=0, fr", "fr"],
    ["ja, zh", "en"],
    ["tr;q=abc, it", "it"],
  ])("%s → %s", (header, expected) => {
    expect(negotiateLanguage(header)).toBe(expected);
  });
});

describe("localized names", () => {
  it("localizes city, state and country names in a city search, in JSON", async () => {
    const res = await getJson("/1.0/search/cities?name=vienna", { "Accept-Language": "de-AT,de;q=0.9,en;q=0.5" });
    expect(res.headers.get("Content-Language")).toBe("de");
    expect(res.headers.get("Vary")).toBe("Accept, Accept-Language");
    const vienna = ((await res.json()) as CitiesPage).cities.find((c) => c.id === "2761369");
    expect(vienna).toMatchObject({
      name: "Wien",
      state: "Wien",
      stateCode: "09",
      country: { code: "AT", name: "Österreich" },
    });
  });

  it("localizes in XML too, and falls back to English field by field", async () => {
    const res = await getXml("/1.0/search/cities?name=hollywood&stateCode=CA", { "Accept-Language": "fr" });
    const { root } = parseXml(await res.text());
    const hollywood = root.children.find((c) => c.attributes.id === "5357527");
    expect(hollywood?.attributes).toEqual({ id: "5357527", name: "Hollywood", state: "Californie", stateCode: "CA" });
    expect(hollywood?.children.find((c) => c.name === "country")?.attributes).toEqual({
      code: "US",
      name: (await countryName("US", "fr")) ?? "United States",
    });
  });

  it("localizes the city of each venue", async () => {
    const res = await getJson("/1.0/search/venues?name=stadthalle&cityName=vienna", { "Accept-Language": "pl" });
    const body = (await res.json()) as VenuesPage;
    expect(body.venue.length).toBeGreaterThan(0);
    for (const v of body.venue) expect(v.city?.name).toBe("Wiedeń");
  });

  it("finds a city by a localized name whatever the language asked for", async () => {
    for (const name of ["Wiede%C5%84", "Viyana", "wien", "M%C3%BCnchen", "Monachium"]) {
      const body = (await (await getJson(`/1.0/search/cities?name=${name}`)).json()) as CitiesPage;
      expect(["2761369", "2867714"], name).toContain(body.cities[0]?.id);
    }
  });

  it("keeps languages apart in the cache", async () => {
    const path = "/1.0/search/cities?name=munich";
    await (await getJson(path, { "Accept-Language": "en" })).arrayBuffer();
    const english = await untilCached(path, { Accept: "application/json", "Accept-Language": "en" });
    expect(((await english.json()) as CitiesPage).cities[0]?.name).toBe("Munich");
    const italian = await getJson(path, { "Accept-Language": "it-IT" });
    expect(italian.headers.get("X-Cache")).toBe("MISS");
    expect(((await italian.json()) as CitiesPage).cities[0]?.name).toBe("Monaco di Baviera");
    expect(italian.headers.get("ETag")).not.toBe(english.headers.get("ETag"));
  });

  it("answers English for a language it does not have", async () => {
    const res = await call("/1.0/search/cities?name=munich", {
      headers: { Accept: "application/json", "Accept-Language": "ja" },
    });
    expect(res.headers.get("Content-Language")).toBe("en");
    expect(((await res.json()) as CitiesPage).cities[0]?.name).toBe("Munich");
  });
});

async function countryName(code: string, lang: string): Promise<string | undefined> {
  const row = await env.DB.prepare("SELECT name FROM localized_names WHERE lang = ? AND kind = 'country' AND key = ?")
    .bind(lang, code)
    .first<{ name: string }>();
  return row?.name;
}
