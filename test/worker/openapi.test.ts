/** The OpenAPI document is kept true: every route, parameter, status and header it declares, live. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { COUNTRIES_PARAMETERS, PARAMETERS } from "../../src/params/search-params.ts";
import { SUGGEST_PARAMETERS } from "../../src/suggest/params.ts";
import { call, callWith, parseXml } from "./helpers.ts";
import {
  check,
  declaredResponses,
  document,
  failingDb,
  FORMATS,
  fromXml,
  get,
  headerProblems,
  orderProblems,
  queryParameters,
  SAMPLE_URLS,
  responseSchema,
  validate,
  type Json,
} from "./openapi-check.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and describes every route", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        "/1.0/city/{geoId}",
        "/1.0/openapi.json",
        "/1.0/search/cities",
        "/1.0/search/countries",
        "/1.0/search/venues",
        "/1.0/suggest/cities",
        "/1.0/suggest/venues",
        "/1.0/venue/{venueId}",
      ].sort(),
    );
  });

  it("declares exactly the query parameters each search reads", () => {
    for (const resource of ["venues", "cities"] as const) {
      const names = queryParameters(`/1.0/search/${resource}`).map((p) => p.name as string);
      expect(names.sort(), resource).toEqual([...PARAMETERS[resource]].sort());
    }
    for (const resource of ["venues", "cities"] as const) {
      const names = queryParameters(`/1.0/suggest/${resource}`).map((p) => p.name as string);
      expect(names.sort(), `suggest ${resource}`).toEqual([...SUGGEST_PARAMETERS[resource]].sort());
    }
    const countries = queryParameters("/1.0/search/countries").map((p) => p.name as string);
    expect(countries).toEqual([...COUNTRIES_PARAMETERS]);
  });

  it.each(SAMPLE_URLS.flatMap(([path, url]) => FORMATS.map((accept) => [url, accept, path] as const)))(
    "%s as %s matches the document",
    async (url, accept, path) => {
      const { status } = await check(path, await call(url, get(accept)));
      expect([200, 400, 404]).toContain(status);
    },
  );

  it("documents the other errors: 405, 406, 401, 403, 429", async () => {
    const del = await call("/1.0/search/venues", { method: "DELETE", headers: { Accept: "application/xml" } });
    expect((await check("/1.0/search/venues", del)).status).toBe(405);
    const html = await call("/1.0/search/cities", { headers: { Accept: "text/html" } });
    expect((await check("/1.0/search/cities", html)).status).toBe(406);
    const keys = { API_KEY_HASHES: "0".repeat(64) };
    const missing = await callWith(keys, "/1.0/city/5357527", get("application/json"));
    expect((await check("/1.0/city/{geoId}", missing)).status).toBe(401);
    const unknown = await callWith(keys, "/1.0/city/5357527", {
      headers: { Accept: "application/xml", "x-api-key": "x" },
    });
    expect((await check("/1.0/city/{geoId}", unknown)).status).toBe(403);
    const limited = { RATE_LIMIT: "on", RATE_LIMITER: { limit: () => Promise.resolve({ success: false }) } };
    for (const accept of FORMATS) {
      const res = await callWith(limited, "/1.0/search/venues?name=compaq", get(accept));
      expect((await check("/1.0/search/venues", res)).status).toBe(429);
    }
  });
});

describe("the OpenAPI document", () => {
  it("documents a database failure: 503 with Retry-After when transient, 500 otherwise", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    for (const accept of FORMATS) {
      const transient = failingDb("D1_ERROR: Network connection lost.");
      const unavailable = await callWith(
        { DB: transient, EDGE_CACHE: "off" },
        "/1.0/search/cities?name=bern",
        get(accept),
      );
      expect(unavailable.headers.get("Retry-After"), "the 503 of a transient failure has Retry-After").not.toBeNull();
      expect((await check("/1.0/search/cities", unavailable)).status).toBe(503);
      const broken = failingDb("D1_ERROR: no such table: venues_fts: SQLITE_ERROR");
      const fault = await callWith({ DB: broken, EDGE_CACHE: "off" }, "/1.0/venue/6bd6ca6e", get(accept));
      expect((await check("/1.0/venue/{venueId}", fault)).status).toBe(500);
    }
  }, 15_000); // a transient failure is retried for 3 s
});

describe("the OpenAPI document", () => {
  it("the check does catch a response that breaks the document", () => {
    const schema = responseSchema("/1.0/search/venues", 200, "application/json") ?? {};
    const venue = {
      id: "1",
      name: "x",
      city: { id: "2", name: "y", coords: {}, country: {} },
      url: "https://x.test/",
      kind: "venue",
    };
    const page = (v: Json) => ({ type: "venues", itemsPerPage: 30, page: 1, total: 1, venue: [v] });
    expect(validate(page(venue), schema)).toEqual([]);
    expect(orderProblems(page(venue), schema)).toEqual([]);
    expect(validate(page({ ...venue, id: 1 }), schema)).not.toEqual([]);
    // A venue city of neither shape: coords filled, country empty.
    const mixed = { ...venue, city: { ...venue.city, coords: { lat: 1, long: 2 } } };
    expect(validate(page(mixed), schema)).not.toEqual([]);
    expect(validate(page({ ...venue, distance: 1.25 }), schema)).not.toEqual([]);
    expect(validate(page({ ...venue, distance: "1.2" }), schema)).not.toEqual([]);
    // distance after url, not before it.
    const { url, ...withoutUrl } = venue;
    expect(orderProblems(page({ ...withoutUrl, distance: 1.2, url }), schema)).not.toEqual([]);

    const xmlSchema = responseSchema("/1.0/search/cities", 200, "application/xml") ?? {};
    const { root } = parseXml('<cities itemsPerPage="50" page="1" total="1"><city id="1" name="x"/></cities>');
    expect(validate(fromXml(root, xmlSchema), xmlSchema)).not.toEqual([]);
    const venues = responseSchema("/1.0/search/venues", 200, "application/xml") ?? {};
    const xml = (city: string) =>
      parseXml(
        `<venues itemsPerPage="30" page="1" total="1"><venue id="1" name="x" kind="venue">${city}</venue></venues>`,
      ).root;
    const full = '<coords lat="1" long="2"/><country code="CH" name="Schweiz"/>';
    expect(validate(fromXml(xml(`<city id="2" name="y"><coords/><country/></city>`), venues), venues)).toEqual([]);
    expect(validate(fromXml(xml(`<city id="2" name="y">${full}</city>`), venues), venues)).toEqual([]);
    const half = '<city id="2" name="y"><coords lat="1" long="2"/><country/></city>';
    expect(validate(fromXml(xml(half), venues), venues)).not.toEqual([]);

    const good = {
      ETag: '"v1-0123"',
      "X-Cache": "MISS",
      "Content-Language": "de",
      "Cache-Control": "public, max-age=300, s-maxage=604800",
      "X-Match": "exact",
    };
    const problems = (headers: Record<string, string>) =>
      headerProblems("/1.0/search/venues", 200, new Headers(headers));
    expect(problems(good)).toEqual([]);
    expect(problems(Object.fromEntries(Object.entries(good).filter(([name]) => name !== "X-Match")))).not.toEqual([]);
    expect(problems({ ...good, "X-Match": "maybe" })).not.toEqual([]);
    expect(problems({ ...good, "X-Match": "fuzzy", "X-Corrected-Name": "z%C3%BCrich" })).toEqual([]);
    expect(problems({ ...good, "X-Match": "fuzzy", "X-Corrected-Name": "z rich" })).not.toEqual([]);
    expect(problems({ ...good, "Cache-Control": "no-store" })).not.toEqual([]);
    expect(headerProblems("/1.0/search/cities", 503, new Headers({ "Retry-After": "soon" }))).not.toEqual([]);
  });
});

describe("the OpenAPI document", () => {
  it("every response it declares (path, status, content type) is sent as declared", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const declared = declaredResponses();
    expect(declared.length).toBeGreaterThan(40);
    // In parallel: each 503 is a transient failure retried for 3 s first.
    const answers = await Promise.all(
      declared.map(async (r) => ({ ...r, res: await provoke(r.path, r.status, r.type) })),
    );
    for (const { path, status, type, res } of answers) {
      const what = `${path} ${status} ${type}`;
      expect(`${res.status} ${res.headers.get("Content-Type")}`, what).toBe(`${status} ${type}`);
      await check(path, res);
    }
  }, 20_000);
});

/** A request of each documented path that answers 200. */
const FOUND: Record<string, string> = {
  "/1.0/search/venues": "/1.0/search/venues?name=compaq",
  "/1.0/search/cities": "/1.0/search/cities?name=paris",
  "/1.0/search/countries": "/1.0/search/countries",
  "/1.0/suggest/venues": "/1.0/suggest/venues?name=the%20fill&lat=37.7&long=-122.4",
  "/1.0/suggest/cities": "/1.0/suggest/cities?name=san",
  "/1.0/venue/{venueId}": "/1.0/venue/6bd6ca6e",
  "/1.0/city/{geoId}": "/1.0/city/5357527",
  "/1.0/openapi.json": "/1.0/openapi.json",
};
const NOT_FOUND: Record<string, string> = {
  "/1.0/search/venues": "/1.0/search/venues?name=qxzvqxzv",
  "/1.0/search/cities": "/1.0/search/cities?name=qxzvqxzv",
  "/1.0/search/countries": "/1.0/search/countries?p=2",
  "/1.0/venue/{venueId}": "/1.0/venue/ffffffff",
  "/1.0/city/{geoId}": "/1.0/city/1",
};
const BAD: Record<string, string> = {
  "/1.0/search/venues": "/1.0/search/venues?p=0",
  "/1.0/search/cities": "/1.0/search/cities?lat=91&long=0",
  "/1.0/search/countries": "/1.0/search/countries?p=0",
  "/1.0/suggest/venues": "/1.0/suggest/venues?name=a&limit=0",
  "/1.0/suggest/cities": "/1.0/suggest/cities",
  "/1.0/venue/{venueId}": "/1.0/venue/bad!id",
  "/1.0/city/{geoId}": "/1.0/city/abc",
};

/** A live response of `path` with `status`, asked for in `type` (406: asked for HTML). */
async function provoke(path: string, status: number, type: string): Promise<Response> {
  const url = (status === 404 ? NOT_FOUND : status === 400 ? BAD : FOUND)[path] ?? path;
  const init = { headers: { Accept: status === 406 ? "text/html" : type, "Accept-Language": "de" } };
  const keys = { API_KEY_HASHES: "0".repeat(64) };
  switch (status) {
    case 401:
      return callWith(keys, url, init);
    case 403:
      return callWith(keys, url, { headers: { ...init.headers, "x-api-key": "x" } });
    case 405:
      return call(url, { ...init, method: "DELETE" });
    case 429:
      return callWith(
        { RATE_LIMIT: "on", RATE_LIMITER: { limit: () => Promise.resolve({ success: false }) } },
        url,
        init,
      );
    case 500:
      return callWith(
        { DB: failingDb("D1_ERROR: no such table: venues_fts: SQLITE_ERROR"), EDGE_CACHE: "off" },
        url,
        init,
      );
    case 503:
      return callWith({ DB: failingDb("D1_ERROR: Network connection lost."), EDGE_CACHE: "off" }, url, init);
    default:
      return call(url, init);
  }
}
