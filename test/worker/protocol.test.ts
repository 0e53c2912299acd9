import { describe, expect, it } from "vitest";
import type { CitiesPage, VenuesPage } from "../../src/shape.ts";
import { call, type ErrorJson, getJson, getXml, parseXml, QUERY_SYNTAX, TIMESTAMP } from "./helpers.ts";

async function errorJson(res: Response, status: number): Promise<ErrorJson> {
  expect(res.status).toBe(status);
  expect(res.headers.get("Content-Type")).toBe("application/json");
  const body = (await res.json()) as ErrorJson;
  expect(Object.keys(body)).toEqual(["code", "status", "message", "timestamp"]);
  expect(body.code).toBe(status);
  expect(body.timestamp).toMatch(TIMESTAMP);
  return body;
}

async function errorXml(res: Response, status: number): Promise<Record<string, string>> {
  expect(res.status).toBe(status);
  expect(res.headers.get("Content-Type")).toBe("application/xml");
  const { declaration, root } = parseXml(await res.text());
  expect(declaration).toBe('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>');
  expect(root.name).toBe("error");
  expect(root.children.map((c) => c.name)).toEqual(["code", "status", "message", "timestamp"]);
  const fields = Object.fromEntries(root.children.map((c) => [c.name, c.text]));
  expect(fields.code).toBe(String(status));
  expect(fields.timestamp).toMatch(TIMESTAMP);
  return fields;
}

describe("paging", () => {
  it("returns the page asked for, 30 venues or 50 cities a page", async () => {
    const one = (await (await getJson("/1.0/search/cities?country=US")).json()) as CitiesPage;
    const two = (await (await getJson("/1.0/search/cities?country=US&p=2")).json()) as CitiesPage;
    expect([one.page, two.page]).toEqual([1, 2]);
    expect(one.cities).toHaveLength(50);
    expect(two.cities).toHaveLength(one.total - 50);
    expect(two.cities.map((c) => c.id)).not.toContain(one.cities[0]?.id);
    const venues = (await (await getJson("/1.0/search/venues?p=3")).json()) as VenuesPage;
    expect([venues.page, venues.itemsPerPage, venues.venue.length]).toEqual([3, 30, 30]);
  });

  it("treats p=001 as page 1 and an empty p as absent", async () => {
    const base = await (await getJson("/1.0/search/cities?country=LI")).json();
    expect(await (await getJson("/1.0/search/cities?country=LI&p=001")).json()).toEqual(base);
    expect(await (await getJson("/1.0/search/cities?country=LI&p=")).json()).toEqual(base);
  });

  it.each(["0", "-1", "1.5", "abc", "1e3", "0x10", "1234567", "+2", "２"])("p=%s is a 400 naming p", async (p) => {
    const body = await errorJson(await getJson(`/1.0/search/venues?p=${encodeURIComponent(p)}`), 400);
    expect(body.message).toMatch(/\bp\b/);
  });

  it("a page past the last one is 404 not found", async () => {
    const body = await errorJson(await getJson("/1.0/search/cities?country=LI&p=2"), 404);
    expect(body.message).toBe("not found");
    await errorJson(await getJson("/1.0/search/venues?p=999999"), 404);
  });
});

describe("content negotiation", () => {
  const cases: [string | null, "json" | "xml" | 406][] = [
    [null, "xml"],
    ["*/*", "xml"],
    ["application/json", "json"],
    ["application/xml", "xml"],
    ["text/xml", "xml"],
    ["application/*", "xml"],
    ["text/*", "xml"],
    ["application/json, application/xml", "json"],
    ["application/xml, application/json", "xml"],
    ["application/xml;q=0.5, application/json;q=0.9", "json"],
    ["application/json;q=0.1, */*;q=0.5", "xml"],
    ["text/html, application/json;q=0.2", "json"],
    ["application/xml;q=0, */*", "json"],
    ["text/html", 406],
    ["image/png, text/plain", 406],
    ["application/json;q=0", 406],
    ["application/json;q=0, application/xml;q=0, text/xml;q=0", 406],
    ["garbage", "xml"],
  ];
  it.each(cases)("Accept: %s → %s", async (accept, expected) => {
    const headers: Record<string, string> = accept === null ? {} : { Accept: accept };
    const res = await call("/1.0/search/cities?name=vaduz", { headers });
    expect(res.headers.get("Vary")).toBe("Accept, Accept-Language");
    if (expected === 406) {
      const body = await errorJson(res, 406);
      expect(body.status).toBe("Not Acceptable");
      return;
    }
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe(expected === "json" ? "application/json" : "application/xml");
    const text = await res.text();
    if (expected === "json") expect(JSON.parse(text)).toMatchObject({ type: "cities" });
    else expect(parseXml(text).root.name).toBe("cities");
  });
});

describe("XML", () => {
  it("lays out a venue page as setlist.fm does", async () => {
    const res = await getXml("/1.0/search/venues?name=compaq");
    const { declaration, root } = parseXml(await res.text());
    expect(declaration).toBe('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>');
    expect(root).toEqual({
      name: "venues",
      attributes: { itemsPerPage: "30", page: "1", total: "1" },
      text: expect.any(String),
      children: [
        {
          name: "venue",
          attributes: { id: "6bd6ca6e", name: "Compaq Center", kind: "venue" },
          text: expect.any(String),
          children: [
            {
              name: "city",
              attributes: { id: "5392171", name: "San Jose", state: "California", stateCode: "CA" },
              text: "",
              children: [
                { name: "coords", attributes: {}, children: [], text: "" },
                { name: "country", attributes: {}, children: [], text: "" },
              ],
            },
            {
              name: "url",
              attributes: {},
              children: [],
              text: "https://www.setlist.fm/venue/compaq-center-san-jose-ca-usa-6bd6ca6e.html",
            },
          ],
        },
      ],
    });
  });

  it("names each city of a city search `cities`, with coords and country attributes", async () => {
    const { root } = parseXml(await (await getXml("/1.0/search/cities?name=hollywood&stateCode=CA")).text());
    expect(root.name).toBe("cities");
    expect(root.attributes).toEqual({ itemsPerPage: "50", page: "1", total: String(root.children.length) });
    const hollywood = root.children.find((c) => c.attributes.id === "5357527");
    expect(hollywood).toEqual({
      name: "cities",
      attributes: { id: "5357527", name: "Hollywood", state: "California", stateCode: "CA" },
      text: "",
      children: [
        { name: "coords", attributes: { lat: "34.09834", long: "-118.32674" }, children: [], text: "" },
        { name: "country", attributes: { code: "US", name: "United States" }, children: [], text: "" },
      ],
    });
  });
});

describe("XML", () => {
  it("leaves out unknown fields: no city element, no url element", async () => {
    const { root } = parseXml(await (await getXml("/1.0/search/venues?name=secret%20garden")).text());
    expect(root.children[0]).toEqual({
      name: "venue",
      attributes: { id: "3bd6a3d2", name: "Secret Garden Party Site", kind: "venue" },
      children: [],
      text: "",
    });
  });

  it.each([
    ["rock%20roll%20hotel", "Rock & Roll <Hotel>"],
    ["el%20gato", 'Bar "El Gato"'],
    ["o%20brien", "O'Brien's Pub"],
    ["%E6%9D%B1%E4%BA%AC", "東京ドーム"],
    ["%D0%BA%D0%BB%D1%83%D0%B1%20%D0%BA%D0%BE%D1%81%D0%BC%D0%BE%D0%BD%D0%B0%D0%B2%D1%82", "Клуб «Космонавт»"],
  ])("escapes and round-trips name=%s in both formats", async (query, name) => {
    const xmlRes = await getXml(`/1.0/search/venues?name=${query}`);
    const jsonRes = await getJson(`/1.0/search/venues?name=${query}`);
    const xmlNames = parseXml(await xmlRes.text()).root.children.map((v) => v.attributes.name);
    const jsonNames = ((await jsonRes.json()) as VenuesPage).venue.map((v) => v.name);
    expect(xmlNames).toContain(name);
    expect(jsonNames).toEqual(xmlNames);
  });
});

describe("errors", () => {
  it.each([
    ["/1.0/search/venues?p=0", 400, /\bp\b/],
    ["/1.0/search/venues?name=a&name=b", 400, /name.*more than once/],
    ["/1.0/search/venues?cityName=" + "x".repeat(101), 400, /cityName.*100 characters/],
    ["/1.0/search/cities?state=%E0%A4%A", 400, /state.*percent-encoding/],
    ["/1.0/search/cities?country=%zz", 400, /country.*percent-encoding/],
    ["/1.0/search/venues?stateCode=%ED%A0%80", 400, /stateCode/],
    ["/1.0/search/venues?name=qxzvqxzv", 404, /^not found$/],
    ["/1.0/search/venue", 404, /not found/],
    ["/1.0/search/venues//", 404, /not found/],
    ["/1.0/search/../search/venues2", 404, /not found/],
    ["/2.0/search/venues", 404, /not found/],
  ])("%s → %i in both formats", async (path, status, message) => {
    const json = await errorJson(await getJson(path), status);
    expect(json.message).toMatch(message);
    const xml = await errorXml(await getXml(path), status);
    expect(xml.message).toMatch(message);
    expect(xml.status).toBe(json.status);
  });

  it("a value of exactly 100 characters is fine", async () => {
    expect((await getJson(`/1.0/search/venues?cityName=${"x".repeat(100)}`)).status).toBe(404);
    expect((await getJson(`/1.0/search/venues?cityName=${"é".repeat(100)}`)).status).toBe(404);
  });

  it("other methods get 405 with Allow", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const res = await call("/1.0/search/venues", { method, headers: { Accept: "application/xml" } });
      expect(res.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
      const body = await errorXml(res, 405);
      expect(body.status).toBe("Method Not Allowed");
    }
  });

  it("406 errors are JSON whatever was asked", async () => {
    const body = await errorJson(await call("/1.0/search/venues", { headers: { Accept: "text/html" } }), 406);
    expect(body.message).toMatch(/application\/json/);
  });
});

describe("methods, aliases and CORS", () => {
  it("serves /rest/1.0 and one trailing slash the same", async () => {
    const base = await (await getJson("/1.0/search/venues?name=compaq")).json();
    expect(await (await getJson("/rest/1.0/search/venues?name=compaq")).json()).toEqual(base);
    expect(await (await getJson("/1.0/search/venues/?name=compaq")).json()).toEqual(base);
    expect(await (await getJson("/rest/1.0/search/venues/?name=compaq")).json()).toEqual(base);
  });

  it("HEAD has the GET headers and no body", async () => {
    const get = await getXml("/1.0/search/cities?name=vienna");
    const head = await call("/1.0/search/cities?name=vienna", {
      method: "HEAD",
      headers: { Accept: "application/xml" },
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    for (const h of ["Content-Type", "Cache-Control", "ETag", "Vary", "Access-Control-Allow-Origin"]) {
      expect(head.headers.get(h), h).toBe(get.headers.get(h));
    }
    const missing = await call("/1.0/search/cities?name=qxzvqxzv", { method: "HEAD" });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe("");
  });

  it("OPTIONS answers the CORS preflight with 204", async () => {
    const res = await call("/rest/1.0/search/cities", {
      method: "OPTIONS",
      headers: { Origin: "https://app.example", "Access-Control-Request-Method": "GET" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Access-Control-Allow-Methods")).toBe("GET, HEAD");
    expect(res.headers.get("Access-Control-Allow-Headers")).toBe("Accept, Accept-Language, If-None-Match, x-api-key");
    expect(await res.text()).toBe("");
  });

  it("every response allows any origin and exposes ETag, X-Cache, X-Match, X-Corrected-Name, X-Read-As and X-Total-Relation", async () => {
    for (const res of [
      await getJson("/1.0/search/cities?name=vaduz"),
      await getJson("/1.0/search/cities?p=0"),
      await getJson("/nowhere"),
      await call("/1.0/search/cities", { method: "POST" }),
    ]) {
      expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(res.headers.get("Access-Control-Expose-Headers")).toBe(
        "ETag, X-Cache, X-Match, X-Corrected-Name, X-Read-As, X-Total-Relation",
      );
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
      await res.arrayBuffer();
    }
  });
});

describe("hostile input stays plain text", () => {
  it.each([...QUERY_SYNTAX, "NOT a", "%00", "🎸🎸", "(", "{a b}"])("name=%s is 200 or 404, never 500", async (name) => {
    for (const resource of ["venues", "cities"]) {
      for (const get of [getJson, getXml]) {
        const res = await get(
          `/1.0/search/${resource}?name=${encodeURIComponent(name)}&country=${encodeURIComponent(name)}`,
        );
        expect([200, 404], `${resource} ${name}`).toContain(res.status);
        await res.arrayBuffer();
      }
    }
  });

  it("finds the venue literally named with FTS syntax", async () => {
    const body = (await (
      await getJson(`/1.0/search/venues?name=${encodeURIComponent('NEAR(a b) AND "x"*')}`)
    ).json()) as VenuesPage;
    expect(body.venue.map((v) => v.id)).toContain("7bd6a3f6");
  });

  it("the tables are still there", async () => {
    expect((await getJson("/1.0/search/venues?name=compaq")).status).toBe(200);
  });
});
