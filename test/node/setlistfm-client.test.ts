/**
 * A real setlist.fm client against the worker over HTTP: setlistfm-js (from npm, pinned, used as
 * published) calls its countries search, in JSON and XML and in three languages, and a city search.
 *
 * The library has no base-URL setting: it fetches https://api.setlist.fm/rest/1.0/… through the
 * global fetch. The test wraps the global fetch to swap that origin (scheme, host, port) for the
 * local `wrangler dev`; the path, query, headers and the handling of the answer are the library's.
 * The worker serves a local D1 state of its own (a temporary --persist-to), imported from the test
 * fixtures, on port 8795 (127.0.0.1 only).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SetlistFmApi from "setlistfm-js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { create } from "xmlbuilder2";
import { Problems } from "../../scripts/import/problems.ts";
import { runImport } from "../../scripts/import/run.ts";
import { FAST } from "../../scripts/import/publish/steps.ts";
import { readCountryInfo } from "../../scripts/import/sources/geonames.ts";
import { startDevServer, type DevServer } from "../../scripts/tools/dev-server.ts";
import { FIXTURES, quiet } from "../support/import-fixtures.ts";

const PORT = 8795;
const SETLIST_FM = "https://api.setlist.fm/";
const STATE = mkdtempSync(join(tmpdir(), "vcs-client-"));

let server: DevServer | undefined;
/** The fixture's country codes, sorted. */
let codes: string[] = [];
/** Every URL the library asked for, as it asked. */
const asked: { url: string; headers: Headers }[] = [];

beforeAll(async () => {
  await runImport({ ...FIXTURES, venueCount: 100, target: { kind: "local", persistTo: STATE }, pacing: FAST }, quiet);
  server = await startDevServer({ port: PORT, args: ["--persist-to", STATE], probe: "/1.0/openapi.json" });
  codes = (await readCountryInfo(FIXTURES.countries, new Problems(false))).map((c) => c.code).sort();
  const realFetch = globalThis.fetch;
  const local = `${server.base}/`;
  vi.stubGlobal("fetch", (input: string, init?: RequestInit) => {
    asked.push({ url: input, headers: new Headers(init?.headers) });
    if (!input.startsWith(SETLIST_FM)) throw new Error(`the library asked for ${input}`);
    return realFetch(local + input.slice(SETLIST_FM.length), init);
  });
}, 300_000);

afterAll(() => {
  vi.unstubAllGlobals();
  server?.stop();
  rmSync(STATE, { recursive: true, force: true });
});

interface CountriesJson {
  type: string;
  itemsPerPage: number;
  page: number;
  total: number;
  country: { code: string; name: string }[];
}

const sortedBy = (language: string, names: string[]) => [...names].sort(new Intl.Collator(language).compare);

describe("setlistfm-js against the worker", () => {
  it("searchCountries() in JSON gets every country of the data, in English", async () => {
    const client = new SetlistFmApi({ key: "any-key", format: "json" });
    const body = (await client.searchCountries()) as CountriesJson;
    expect(asked.at(-1)?.url).toBe("https://api.setlist.fm/rest/1.0/search/countries?");
    expect(asked.at(-1)?.headers.get("x-api-key")).toBe("any-key");
    expect(body).toMatchObject({ type: "countries", itemsPerPage: codes.length, page: 1, total: codes.length });
    expect(body.country.map((c) => c.code).sort()).toEqual(codes);
    expect(body.country).toContainEqual({ code: "US", name: "United States" });
    const names = body.country.map((c) => c.name);
    expect(names).toEqual(sortedBy("en", names));
  });

  it.each([
    ["de", "AT", "Österreich"],
    ["tr", "SE", "İsveç"],
  ])(
    "searchCountries() in JSON, language %s: localized names in that language's order",
    async (language, code, name) => {
      const client = new SetlistFmApi({ key: "any-key", format: "json", language });
      const body = (await client.searchCountries()) as CountriesJson;
      expect(asked.at(-1)?.headers.get("Accept-Language")).toBe(language);
      expect(body.total).toBe(codes.length);
      expect(body.country).toContainEqual({ code, name });
      const names = body.country.map((c) => c.name);
      expect(names).toEqual(sortedBy(language, names));
    },
  );

  it("searchCountries() in XML gets <countries> of <country code name/>, in French", async () => {
    const client = new SetlistFmApi({ key: "any-key", format: "xml", language: "fr" });
    const response = (await client.searchCountries()) as Response; // not JSON: the library hands it over
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Language")).toBe("fr");
    const xml = create(await response.text()).end({ format: "object" }) as {
      countries: { "@total": string; country: { "@code": string; "@name": string }[] };
    };
    expect(Number(xml.countries["@total"])).toBe(codes.length);
    expect(xml.countries.country.map((c) => c["@code"]).sort()).toEqual(codes);
    expect(xml.countries.country).toContainEqual({ "@code": "US", "@name": "États-Unis d'Amérique" });
  });

  it("searchCities() finds a city by name, as setlist.fm would", async () => {
    const client = new SetlistFmApi({ key: "any-key", format: "json", language: "de" });
    const body = (await client.searchCities({ name: "vienna" })) as { cities: { id: string; name: string }[] };
    expect(asked.at(-1)?.url).toBe("https://api.setlist.fm/rest/1.0/search/cities?name=vienna");
    expect(body.cities[0]).toMatchObject({ id: "2761369", name: "Wien" });
  });
});
