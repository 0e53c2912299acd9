/** The features of docs/api.md, each checked against the OpenAPI document as it is exercised. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { normalize, words } from "../../src/data-contract/normalize.ts";
import { MAX_RADIUS_KM } from "../../src/params/search-params.ts";
import { call, callWith, untilCached } from "./helpers.ts";
import {
  check,
  declaredHeaders,
  FORMATS,
  get,
  operation,
  records,
  resolve,
  SAMPLE_URLS,
  validate,
  type Json,
} from "./openapi-check.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("searches forgiving typos (docs/api.md#typo-tolerance)", () => {
  const fuzzy: [string, string][] = [
    ["/1.0/search/cities", "/1.0/search/cities?name=zurihc"],
    ["/1.0/search/cities", "/1.0/search/cities?name=berln"],
    ["/1.0/search/venues", "/1.0/search/venues?name=filmore%20aud"],
    ["/1.0/search/venues", "/1.0/search/venues?name=hallenstadoin"],
  ];

  it.each(fuzzy.flatMap(([path, url]) => FORMATS.map((a) => [url, a, path] as const)))(
    "%s as %s: fuzzy, with a corrected name that the first record matches, matches the document",
    async (url, accept, path) => {
      const answer = await check(path, await call(url, get(accept)));
      expect(answer.status).toBe(200);
      expect(answer.headers.get("X-Match")).toBe("fuzzy");
      const query = normalize(new URL(url, "http://x.test").searchParams.get("name") ?? "");
      const corrected = words(decodeURIComponent(answer.headers.get("X-Corrected-Name") ?? ""));
      expect(corrected.length).toBe(words(query).length);
      expect(corrected.join(" ")).not.toBe(query);
      const first = words(normalize(String(records(answer)[0]?.name)));
      expect(corrected.filter((w) => !first.some((n) => n.startsWith(w)))).toEqual([]);

      const strict = await check(path, await call(`${url}&typos=0`, get(accept)));
      expect(strict.status).toBe(404);
    },
  );

  // Readings at one edit and at two (`frankfrut`: `frankfurt` by a swap, `frankfort` by two) make
  // six tier selects: more than D1 allows in one compound SELECT, unless nested (queries/search.ts).
  it("a word of 8+ letters with readings at one and two edits is answered", async () => {
    const url = "/1.0/search/cities?name=frankfrut";
    const answer = await check("/1.0/search/cities", await call(url, get("application/json")));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("X-Match")).toBe("fuzzy");
  });

  it("a strict answer says exact and has no corrected name", async () => {
    for (const accept of FORMATS) {
      const answer = await check("/1.0/search/cities", await call("/1.0/search/cities?name=zurich", get(accept)));
      expect(answer.status).toBe(200);
      expect(answer.headers.get("X-Match")).toBe("exact");
      expect(answer.headers.get("X-Corrected-Name")).toBeNull();
    }
  });
});

describe("searches near a point (docs/api.md#near-a-point)", () => {
  const near: [string, string, number][] = [
    ["/1.0/search/venues", "/1.0/search/venues?lat=47.3769&long=8.5417&radius=50", 50],
    ["/1.0/search/cities", "/1.0/search/cities?lat=47.3769&long=8.5417&radius=50", 50],
    ["/1.0/search/cities", "/1.0/search/cities?lat=47.3769&long=8.5417&radius=150", 150],
    ["/1.0/search/cities", "/1.0/search/cities?lat=34.05&long=-118.24", 25],
    ["/1.0/search/venues", "/1.0/search/venues?lat=48.2&long=16.37&radius=100", 100],
    ["/1.0/search/venues", "/1.0/search/venues?name=stadthalle&lat=48.2&long=16.37&radius=100", 100],
    ["/1.0/search/cities", "/1.0/search/cities?name=frankfurt&lat=50.1&long=8.7&radius=500", 500],
    ["/1.0/search/cities", "/1.0/search/cities?name=berln&lat=52.5&long=13.4&radius=100", 100],
  ];

  it.each(near.flatMap(([path, url, radius]) => FORMATS.map((a) => [url, a, path, radius] as const)))(
    "%s as %s: every record has its distance, within the radius",
    async (url, accept, path, radius) => {
      const answer = await check(path, await call(url, get(accept)));
      expect(answer.status).toBe(200);
      const distances = records(answer).map((r) => r.distance);
      expect(distances.length).toBeGreaterThan(0);
      for (const d of distances) {
        expect(typeof d).toBe("number");
        expect(d as number).toBeLessThanOrEqual(radius);
      }
      // Without a name, nearest first (with a name: see the next test).
      if (!url.includes("name=")) expect(distances).toEqual([...(distances as number[])].sort((a, b) => a - b));

      // Without the point, the same search carries no distance.
      const plain = new URL(url, "http://x.test");
      for (const name of ["lat", "long", "radius"]) plain.searchParams.delete(name);
      if (plain.search !== "") {
        const without = await check(path, await call(`${plain.pathname}${plain.search}`, get(accept)));
        expect(without.status).toBe(200);
        expect(records(without).filter((r) => "distance" in r)).toEqual([]);
      }
    },
  );

  // D1 binds numbers as REAL: the tier key is written into the SQL text so that `k / 3` is an
  // integer division and distance comes before the name tier.
  it("with a name too, nearest first (within the same number of edits)", async () => {
    const url = "/1.0/search/venues?name=stadthalle&lat=48.2&long=16.37&radius=100";
    const answer = await check("/1.0/search/venues", await call(url, get("application/json")));
    expect(answer.status).toBe(200);
    const distances = records(answer).map((r) => r.distance as number);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });

  it("several cities around Zürich, the nearest first", async () => {
    const answer = await check(
      "/1.0/search/cities",
      await call("/1.0/search/cities?lat=47.3769&long=8.5417&radius=150", get("application/json")),
    );
    expect(records(answer).length).toBeGreaterThan(1);
    expect(records(answer)[0]?.name).toBe("Zürich");
  });
});

describe("bad parameters and ids: 400 naming them", () => {
  const bad: [string, string, string][] = [
    ["/1.0/search/venues", "/1.0/search/venues?lat=47.3769", "long"],
    ["/1.0/search/cities", "/1.0/search/cities?long=8.5", "lat"],
    ["/1.0/search/cities", "/1.0/search/cities?lat=91&long=0", "lat"],
    ["/1.0/search/venues", "/1.0/search/venues?lat=1e1&long=0", "lat"],
    ["/1.0/search/venues", "/1.0/search/venues?lat=0&long=180.5", "long"],
    ["/1.0/search/cities", `/1.0/search/cities?lat=0&long=0&radius=${MAX_RADIUS_KM + 1}`, "radius"],
    ["/1.0/search/venues", "/1.0/search/venues?lat=0&long=0&radius=0", "radius"],
    ["/1.0/search/cities", "/1.0/search/cities?radius=10", "radius"],
    ["/1.0/search/venues", "/1.0/search/venues?name=x&typos=2", "typos"],
    ["/1.0/search/cities", "/1.0/search/cities?typos=yes", "typos"],
    ["/1.0/venue/{venueId}", "/1.0/venue/bad!id", "venueId"],
    ["/1.0/venue/{venueId}", `/1.0/venue/${"a".repeat(65)}`, "venueId"],
    ["/1.0/city/{geoId}", "/1.0/city/abc", "geoId"],
    ["/1.0/city/{geoId}", "/1.0/city/0", "geoId"],
  ];

  it.each(bad.flatMap(([path, url, parameter]) => FORMATS.map((a) => [url, a, path, parameter] as const)))(
    "%s as %s",
    async (url, accept, path, parameter) => {
      const answer = await check(path, await call(url, get(accept)));
      expect(answer.status).toBe(400);
      expect(answer.body.message).toMatch(new RegExp(`\\bparameter ${parameter}\\b`));
    },
  );

  it("the ids' declared patterns are the worker's: refused ids break them, served ids keep them", () => {
    const pattern = (path: string) => {
      const parameters = (operation(path)?.parameters ?? []) as Json[];
      const id = parameters.map(resolve).find((p) => p.in === "path");
      return new RegExp(((id?.schema ?? {}) as Json).pattern as string);
    };
    for (const [path, url] of bad.filter(([p]) => !p.startsWith("/1.0/search/"))) {
      expect(decodeURIComponent(url.slice(url.lastIndexOf("/") + 1)), url).not.toMatch(pattern(path));
    }
    for (const [path, url] of SAMPLE_URLS.filter(([p]) => !p.startsWith("/1.0/search/"))) {
      expect(url.slice(url.lastIndexOf("/") + 1), url).toMatch(pattern(path));
    }
  });
});

describe("venue cities by deployment (docs/api.md#venue-cities-in-full, VENUE_CITY_DETAIL)", () => {
  const schemaOf = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const urls = ["/1.0/search/venues?name=stadthalle", "/1.0/search/venues?lat=47.3769&long=8.5417&radius=50"];

  it.each(urls.flatMap((url) => FORMATS.map((a) => [url, a] as const)))(
    "%s as %s: empty coords and country by default, in full with VENUE_CITY_DETAIL=full",
    async (url, accept) => {
      const seed = await check("/1.0/search/venues", await call(url, get(accept)));
      expect(seed.status).toBe(200);
      const seedCities = records(seed).map((v) => v.city as Json);
      expect(seedCities.length).toBeGreaterThan(0);
      for (const city of seedCities) {
        expect(validate(city, schemaOf("VenueCity"))).toEqual([]);
        expect(validate(city, schemaOf("City"))).not.toEqual([]);
      }

      const full = await check("/1.0/search/venues", await callWith({ VENUE_CITY_DETAIL: "full" }, url, get(accept)));
      expect(full.status).toBe(200);
      const fullCities = records(full).map((v) => v.city as Json);
      expect(fullCities.length).toBe(seedCities.length);
      for (const city of fullCities) {
        expect(validate(city, schemaOf("City"))).toEqual([]);
        expect(validate(city, schemaOf("VenueCity"))).not.toEqual([]);
        // Exactly as the city itself is given (lookup), in the same format and language.
        const lookup = await check("/1.0/city/{geoId}", await call(`/1.0/city/${String(city.id)}`, get(accept)));
        expect(city).toEqual(lookup.body);
      }
    },
  );
});

describe("headers of a search answer", () => {
  // Each search, and the declared headers its answer does not send (X-Read-As: only when a place
  // was read at the end of the name).
  const searches: [string, string, string[]][] = [
    // X-Total-Relation only when a total is a lower bound (a search of more candidates than the tests' data holds).
    [
      "/1.0/search/venues",
      "/1.0/search/venues?name=hallenstadoin&lat=47.3769&long=8.5417",
      ["X-Read-As", "X-Total-Relation"],
    ],
    ["/1.0/search/cities", "/1.0/search/cities?name=zurihc&country=CH", ["X-Read-As", "X-Total-Relation"]],
    ["/1.0/search/cities", "/1.0/search/cities?name=zurihc%20switzerland", ["X-Total-Relation"]],
  ];

  it.each(searches.flatMap(([path, url, absent]) => FORMATS.map((a) => [url, a, path, absent] as const)))(
    "%s as %s sends every header the document declares, from the database and from the cache",
    async (url, accept, path, absent) => {
      const declared = Object.keys(declaredHeaders(path, 200));
      expect(declared).toEqual(expect.arrayContaining(["X-Match", "X-Corrected-Name", "X-Read-As", "ETag", "X-Cache"]));
      const miss = await callWith({ EDGE_CACHE: "off" }, url, get(accept));
      expect(miss.headers.get("X-Cache")).toBe("MISS");
      expect(declared.filter((name) => !miss.headers.has(name))).toEqual(absent);
      expect((await check(path, miss)).status).toBe(200);

      // A cached copy keeps them all (but the database timing).
      const hit = await untilCached(url, get(accept).headers);
      expect(declared.filter((name) => !hit.headers.has(name)).sort()).toEqual(["Server-Timing", ...absent].sort());
      expect(hit.headers.get("X-Match")).toBe("fuzzy");
      expect(hit.headers.get("X-Read-As")).toBe(miss.headers.get("X-Read-As"));
      expect((await check(path, hit)).status).toBe(200);
    },
  );
});
