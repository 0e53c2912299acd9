/**
 * The order of suggestions (src/suggest/, docs/api.md#suggestions) on real GeoNames rows
 * (test/fixtures/cities-suggest.txt: cities500's Tokyo and Tok, Alaska; Munich and Münster; six
 * Springfields; Paris and Parmain; Berlin and Bern; York and New York City; Tame and Casablanca; Da
 * Nang and Nanchang; Fuzhou, Mosul, Basrah, Santa Fe and Santa Cruz de la Sierra …), run by the
 * worker's own modules on the imported SQLite file (as npm run sql runs them).
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runImport } from "../../scripts/import/run.ts";
import { localRunner } from "../../scripts/sql/explain.ts";
import { CITIES } from "../../src/query/cities.ts";
import { VENUES } from "../../src/query/venues.ts";
import { parseSuggestParams } from "../../src/suggest/params.ts";
import { runSuggest } from "../../src/suggest/suggest.ts";
import { dir, quiet } from "../support/import-fixtures.ts";
import { fixture } from "../support/seed.ts";

let db: Database.Database;
beforeAll(async () => {
  const path = join(dir, "suggest-order.sqlite");
  const cities = fixture("cities-suggest.txt");
  await runImport({ cities, venueCount: 400, prefixCountMin: 20, target: { kind: "file", path } }, quiet);
  db = new Database(path, { readonly: true });
});
afterAll(() => db.close());

/** The names (with their country and state) suggested for a query string. */
async function cities(query: string): Promise<string[]> {
  const page = await runSuggest(CITIES, localRunner(db), parseSuggestParams("cities", query), "en");
  return page.items.map((c) => `${c.name} ${c.countryCode}${c.stateCode === null ? "" : `-${c.stateCode}`}`);
}

describe("suggested cities", () => {
  it("puts the city a person typing means first: Tokyo before Tok, Alaska", async () => {
    expect((await cities("name=tok")).slice(0, 2)).toEqual(["Tokyo JP-40", "Tokat TR-60"]);
    expect(await cities("name=tok")).toContain("Tok US-AK");
    expect((await cities("name=tokyo"))[0]).toBe("Tokyo JP-40");
  });

  it("lists München for mün, by any of its names", async () => {
    expect((await cities("name=m%C3%BCn"))[0]).toBe("Munich DE-02");
    expect((await cities("name=m%C3%BCnchen"))[0]).toBe("Munich DE-02");
  });

  it("puts a name that starts with the text before a larger one that only has a word starting so", async () => {
    expect((await cities("name=york"))[0]).toBe("York GB-ENG");
    expect((await cities("name=new%20yo"))[0]).toBe("New York City US-NY");
    // Casablanca (3.1M) is also "Tigemmi Tamellalt": a word starting so counts as 1/316 (Tame: 29,099).
    expect((await cities("name=tame")).slice(0, 2)).toEqual(["Tame CO-03", "Casablanca MA-06"]);
  });

  it("puts the largest first without a focus, and blends nearness with size around one", async () => {
    expect((await cities("name=springf"))[0]).toBe("Springfield US-MO");
    expect((await cities("name=springf&lat=41.88&long=-87.63"))[0]).toBe("Springfield US-IL"); // Chicago
    expect((await cities("name=springf&lat=42.36&long=-71.06"))[0]).toBe("Springfield US-MA"); // Boston
    expect((await cities("name=ber&lat=46.95&long=7.45"))[0]).toBe("Bern CH-BE"); // in Bern
    // A metropolis before a hamlet next door: in Parmain, 30 km from Paris.
    expect((await cities("name=par&lat=49.113&long=2.214"))[0]).toBe("Paris FR-11");
  });

  it("reads a place at the end, in full, and keeps the filters", async () => {
    expect((await cities("name=paris%20tx"))[0]).toBe("Paris US-TX");
    expect(await cities("name=springf&country=US&stateCode=OR")).toEqual(["Springfield US-OR"]);
    expect(await cities("name=vienna&limit=1")).toEqual(["Vienna AT-09"]);
  });

  it("forgives a typo before the last word, and in the last once it has four letters", async () => {
    expect((await cities("name=berlinn"))[0]).toBe("Berlin DE-16");
    expect(await cities("name=xqz")).toEqual([]);
  });
});

describe("why each is there, and which name matched counts (issue 55)", () => {
  /** The suggestions of a query string: name, country, and the name that matched when another. */
  async function why(query: string, language: "en" | "de" = "en"): Promise<string[]> {
    const page = await runSuggest(CITIES, localRunner(db), parseSuggestParams("cities", query), language);
    return page.items.map(
      (c) => `${c.name} ${c.countryCode}${c.matched.name === c.name ? "" : ` · ${c.matched.name}`}`,
    );
  }

  it("says the other name that holds the typed words when the shown one does not", async () => {
    const hoChi = await why("name=ho%20chi");
    expect(hoChi[0]).toBe("Ho Chi Minh City VN");
    expect(hoChi).toContain("Fuzhou CN · Hok-chiu-chhī");
    expect((await why("name=al%20maw"))[0]).toBe("Mosul IQ · Al Mawşil");
  });

  it("counts a city's shown name over another of its names, at a similar size", async () => {
    // Da Nang (988,561) before Nanchang (2,357,839), which is "Nàng-chiŏng" in another name.
    expect((await why("name=nang")).slice(0, 2)).toEqual(["Da Nang VN", "Nanchang CN · Nàng-chiŏng"]);
    // In German, a city's German name is its own: Munich, shown as München, starts with münch.
    const page = await runSuggest(CITIES, localRunner(db), parseSuggestParams("cities", "name=m%C3%BCnch"), "de");
    expect(page.items[0]).toMatchObject({ name: "München", matched: { name: "München" } });
  });

  it("never reads one typed word for two words of a name", async () => {
    expect(await why("name=al%20basrah")).toContain("Basrah IQ · Al Başrah");
    expect(await why("name=al%20basrah%20al")).not.toContain("Basrah IQ · Al Başrah");
    expect((await why("name=santa%20cruz%20de%20la%20s"))[0]).toBe("Santa Cruz de la Sierra BO");
    expect((await why("name=santa%20cruz%20de%20la%20s")).some((c) => c.startsWith("Santa Fe "))).toBe(false);
  });
});

describe("suggested venues", () => {
  it("puts the venues of the biggest cities first, and reads a city being typed at the end", async () => {
    const page = await runSuggest(VENUES, localRunner(db), parseSuggestParams("venues", "name=club%20ber"), "en");
    expect(page.items[0]?.city?.name).toBe("Berlin");
    expect(page.items.every((v) => /\bclub\b/i.test(v.name))).toBe(true);
    // One or two letters are not yet a city: `club b` is the clubs with a word starting with b.
    const short = await runSuggest(VENUES, localRunner(db), parseSuggestParams("venues", "name=club%20b"), "en");
    expect(short.items.length).toBeGreaterThan(0);
    expect(short.items.every((v) => /\bclub\b/i.test(v.name) && /\bb/i.test(v.name))).toBe(true);
    const all = await runSuggest(VENUES, localRunner(db), parseSuggestParams("venues", "name=a&limit=20"), "en");
    const populations = all.items.map((v) => v.city?.name ?? "");
    expect(populations[0]).toMatch(/^(Mumbai|New York City|Tokyo)$/);
  });
});
