import { describe, expect, it, vi } from "vitest";
import type { CityJson, VenueJson } from "../../src/shape.ts";
import { call, type ErrorJson, getJson, getXml, HOLLYWOOD, parseXml, untilCached } from "./helpers.ts";

describe("GET /1.0/venue/{venueId}", () => {
  it("gives the venue with its city in full, in JSON", async () => {
    const res = await getJson("/1.0/venue/6bd6ca6e");
    expect(res.status).toBe(200);
    expect((await res.json()) as VenueJson).toEqual({
      id: "6bd6ca6e",
      name: "Compaq Center",
      city: {
        id: "5392171",
        name: "San Jose",
        state: "California",
        stateCode: "CA",
        coords: { lat: 37.33939, long: -121.89496 },
        country: { code: "US", name: "United States" },
      },
      url: "https://www.setlist.fm/venue/compaq-center-san-jose-ca-usa-6bd6ca6e.html",
      kind: "venue",
    });
  });

  it("in XML as <venue> with a full <city>", async () => {
    const { root } = parseXml(await (await getXml("/rest/1.0/venue/6bd6ca6e")).text());
    expect(root.name).toBe("venue");
    expect(root.attributes).toEqual({ id: "6bd6ca6e", name: "Compaq Center", kind: "venue" });
    const city = root.children[0];
    expect(city?.name).toBe("city");
    expect(city?.children.map((c) => [c.name, c.attributes])).toEqual([
      ["coords", { lat: "37.33939", long: "-121.89496" }],
      ["country", { code: "US", name: "United States" }],
    ]);
    expect(root.children[1]).toMatchObject({ name: "url" });
  });

  it("a venue without a city or url has neither", async () => {
    expect(await (await getJson("/1.0/venue/3bd6a3d2")).json()).toEqual({
      id: "3bd6a3d2",
      name: "Secret Garden Party Site",
      kind: "venue",
    });
  });

  it("is 404 in the error shape when unknown, and cached like a search", async () => {
    const res = await getJson("/1.0/venue/ffffffff");
    expect(res.status).toBe(404);
    expect(((await res.json()) as ErrorJson).message).toBe("not found");
    expect((await untilCached("/1.0/venue/ffffffff", { Accept: "application/json" })).status).toBe(404);
    await (await getJson("/1.0/venue/0bd6a3e2")).arrayBuffer();
    const hit = await untilCached("/1.0/venue/0bd6a3e2", { Accept: "application/json" });
    expect(hit.status).toBe(200);
    expect(hit.headers.get("ETag")).toMatch(/^"/);
  });
});

describe("GET /1.0/venue/{venueId}", () => {
  it("is 400 naming venueId for a malformed id, before the cache, never cached", async () => {
    const cachePut = vi.spyOn(caches.default, "put");
    const match = vi.spyOn(caches.default, "match");
    for (const id of ["%22%3Cx", "a".repeat(80), "%C3%A9t%C3%A9", "a.b"]) {
      for (const accept of ["application/json", "application/xml"]) {
        const res = await call(`/1.0/venue/${id}`, { headers: { Accept: accept } });
        expect(res.status, id).toBe(400);
        expect(res.headers.get("Cache-Control")).toBe("no-store");
        expect(res.headers.get("X-Cache")).toBeNull();
        const text = await res.text();
        expect(text).toContain("venueId");
      }
    }
    expect(cachePut).not.toHaveBeenCalled();
    expect(match).not.toHaveBeenCalled();
    vi.restoreAllMocks();
  });
});

describe("GET /1.0/city/{geoId}", () => {
  it("gives the city in JSON and as <city> in XML", async () => {
    const json = (await (await getJson("/1.0/city/5357527")).json()) as CityJson;
    expect(json).toEqual(HOLLYWOOD);
    const { root } = parseXml(await (await getXml("/1.0/city/5357527")).text());
    expect(root).toMatchObject({
      name: "city",
      attributes: { id: "5357527", name: "Hollywood", state: "California", stateCode: "CA" },
    });
  });

  it("localizes by Accept-Language", async () => {
    const res = await call("/rest/1.0/city/2867714", {
      headers: { Accept: "application/json", "Accept-Language": "pt" },
    });
    expect(res.headers.get("Content-Language")).toBe("pt");
    expect(((await res.json()) as CityJson).name).toBe("Munique");
  });

  it("is 404 when unknown, 400 naming geoId when not an id; other methods are 405", async () => {
    expect((await getJson("/1.0/city/1")).status).toBe(404);
    for (const id of ["abc", "0", "-1", "01", "1".repeat(13)]) {
      const res = await getJson(`/1.0/city/${id}`);
      expect(res.status, id).toBe(400);
      expect(((await res.json()) as ErrorJson).message).toMatch(/^parameter geoId /);
    }
    const post = await call("/1.0/city/5357527", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
  });
});
