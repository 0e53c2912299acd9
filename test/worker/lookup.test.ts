import { describe, expect, it } from "vitest";
import type { CityJson, VenueJson } from "../../src/shape";
import { call, type ErrorJson, getJson, getXml, parseXml, untilCached } from "./helpers";

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
    });
  });

  it("in XML as <venue> with a full <city>", async () => {
    const { root } = parseXml(await (await getXml("/rest/1.0/venue/6bd6ca6e")).text());
    expect(root.name).toBe("venue");
    expect(root.attributes).toEqual({ id: "6bd6ca6e", name: "Compaq Center" });
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
    });
  });

  it("is 404 in the error shape when unknown, and cached like a search", async () => {
    for (const id of ["ffffffff", "%22%3Cx", "a".repeat(80)]) {
      const res = await getJson(`/1.0/venue/${id}`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as ErrorJson).message).toBe("not found");
    }
    await (await getJson("/1.0/venue/0bd6a3e2")).arrayBuffer();
    const hit = await untilCached("/1.0/venue/0bd6a3e2", { Accept: "application/json" });
    expect(hit.status).toBe(200);
    expect(hit.headers.get("ETag")).toMatch(/^"/);
  });
});

describe("GET /1.0/city/{geoId}", () => {
  it("gives the city in JSON and as <city> in XML", async () => {
    const json = (await (await getJson("/1.0/city/5357527")).json()) as CityJson;
    expect(json).toEqual({
      id: "5357527",
      name: "Hollywood",
      state: "California",
      stateCode: "CA",
      coords: { lat: 34.09834, long: -118.32674 },
      country: { code: "US", name: "United States" },
    });
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

  it("is 404 when unknown or not an id; other methods are 405", async () => {
    for (const id of ["1", "abc", "0"]) expect((await getJson(`/1.0/city/${id}`)).status).toBe(404);
    const post = await call("/1.0/city/5357527", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
  });
});
