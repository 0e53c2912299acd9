/**
 * The OpenAPI document is kept true: live responses, JSON and XML, success and error, are
 * validated against the schemas it declares for their path, status and content type, JSON keys
 * in the order it declares, and their headers against the headers it declares (every required
 * one sent, every one sent valid). XML is read through the document's own `xml` hints
 * (attributes, element names) before validation.
 */
import { Validator, type Schema } from "@cfworker/json-schema";
import { afterEach, describe, expect, it, vi } from "vitest";
import { normalize, words } from "../../src/format/normalize.ts";
import { MAX_RADIUS_KM, PARAMETERS } from "../../src/params/search.ts";
import { call, callWith, parseXml, untilCached, type XmlElement } from "./helpers.ts";

type Json = Record<string, unknown>;

const document = (await (await call("/1.0/openapi.json")).json()) as Json & {
  paths: Record<string, Record<string, Json>>;
  components: Json & { schemas: Record<string, Json>; responses: Record<string, Json> };
};

const FORMATS = ["application/json", "application/xml"] as const;

function resolve(node: Json): Json {
  let current = node;
  for (let i = 0; i < 10 && typeof current.$ref === "string"; i++) {
    const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(current.$ref as string) ?? [];
    const target = (document.components[section ?? ""] as Record<string, Json> | undefined)?.[name ?? ""];
    if (target === undefined) throw new Error(`unresolved ${String(current.$ref)}`);
    current = target;
  }
  return current;
}

const operation = (path: string) => document.paths[path]?.get as Json | undefined;

/** The response the document declares for a path and status, resolved, or undefined. */
function declaredResponse(path: string, status: number): Json | undefined {
  const response = (operation(path)?.responses as Record<string, Json> | undefined)?.[String(status)];
  return response === undefined ? undefined : resolve(response);
}

/** The schema the document declares for a response, or undefined when it declares none. */
function responseSchema(path: string, status: number, contentType: string): Json | undefined {
  const content = declaredResponse(path, status)?.content as Record<string, { schema: Json }> | undefined;
  return content?.[contentType]?.schema;
}

/** The headers the document declares for a response, resolved. */
function declaredHeaders(path: string, status: number): Record<string, Json> {
  const headers = (declaredResponse(path, status)?.headers ?? {}) as Record<string, Json>;
  return Object.fromEntries(Object.entries(headers).map(([name, header]) => [name, resolve(header)]));
}

/** The query parameters the document declares for a path. */
function queryParameters(path: string): Json[] {
  return ((operation(path)?.parameters ?? []) as Json[]).map(resolve).filter((p) => p.in === "query");
}

function validate(value: unknown, schema: Json): string[] {
  const root = { ...schema, components: document.components } as unknown as Schema;
  const result = new Validator(root, "2020-12", false).validate(value);
  return result.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** The branch of a oneOf that a value matches (the first when none does), or the schema itself. */
function concrete(value: unknown, node: Json): Json {
  const schema = resolve(node);
  const branches = schema.oneOf as Json[] | undefined;
  if (!Array.isArray(branches)) return schema;
  return resolve(branches.find((b) => validate(value, b).length === 0) ?? branches[0] ?? {});
}

/** An XML element read into the JSON shape of a schema, following its `xml` hints. */
function fromXml(element: XmlElement, schemaNode: Json): unknown {
  let schema = resolve(schemaNode);
  // A oneOf: the reading that its own branch accepts (the first when none does, to fail validation).
  if (Array.isArray(schema.oneOf)) {
    const branches = schema.oneOf as Json[];
    const readings = branches.map((b) => fromXml(element, b));
    return readings.find((r, i) => validate(r, branches[i] ?? {}).length === 0) ?? readings[0];
  }
  if (Array.isArray(schema.allOf)) schema = { ...resolve(schema.allOf[0] as Json), ...schema, allOf: undefined };
  const properties = schema.properties as Record<string, Json> | undefined;
  // An object without declared properties: its attributes, so that unexpected ones fail validation.
  if (properties === undefined) return schema.type === "object" ? { ...element.attributes } : element.text;
  const out: Json = {};
  for (const [name, node] of Object.entries(properties)) {
    const property = resolve(node);
    const xml = { ...(property.xml as Json | undefined), ...(node.xml as Json | undefined) };
    if (xml.attribute === true) {
      const value = element.attributes[name];
      if (value !== undefined) out[name] = scalar(value, property);
    } else if (property.type === "array") {
      const items = resolve(property.items as Json);
      const childName = ((items.xml as Json | undefined)?.name as string | undefined) ?? name;
      const children = element.children.filter((c) => c.name === childName);
      if (children.length > 0) out[name] = children.map((c) => fromXml(c, property.items as Json));
    } else {
      const childName = (xml.name as string | undefined) ?? name;
      const child = element.children.find((c) => c.name === childName);
      const structured = [property.properties, property.allOf, property.oneOf].some((k) => k !== undefined);
      if (child !== undefined)
        out[name] = structured || property.type === "object" ? fromXml(child, node) : scalar(child.text, property);
    }
  }
  return out;
}

function scalar(text: string, schema: Json): unknown {
  const numeric = schema.type === "integer" || schema.type === "number" || typeof schema.const === "number";
  return numeric ? Number(text) : text;
}

/** JSON objects whose keys are not in the order the document declares (the live order, SPEC §4). */
function orderProblems(value: unknown, node: Json, at = ""): string[] {
  const schema = concrete(value, node);
  if (Array.isArray(value)) {
    const items = schema.items as Json | undefined;
    return items === undefined ? [] : value.flatMap((v, i) => orderProblems(v, items, `${at}/${i}`));
  }
  const properties = schema.properties as Record<string, Json> | undefined;
  if (value === null || typeof value !== "object" || properties === undefined) return [];
  const declared = Object.keys(properties);
  const keys = Object.keys(value);
  const expected = [...keys].sort((a, b) => declared.indexOf(a) - declared.indexOf(b));
  const problems = keys.join() === expected.join() ? [] : [`${at}/: keys ${keys.join()}, declared ${expected.join()}`];
  for (const key of keys) {
    const property = properties[key];
    if (property !== undefined) problems.push(...orderProblems((value as Json)[key], property, `${at}/${key}`));
  }
  return problems;
}

/** Headers that break the document: a required one missing, or one whose value its schema refuses. */
function headerProblems(path: string, status: number, headers: Headers): string[] {
  const problems: string[] = [];
  for (const [name, header] of Object.entries(declaredHeaders(path, status))) {
    const value = headers.get(name);
    if (value === null) {
      if (header.required === true) problems.push(`${name}: missing`);
      continue;
    }
    const schema = (header.schema ?? {}) as Json;
    problems.push(...validate(scalar(value, schema), schema).map((e) => `${name}: ${e}`));
  }
  return problems;
}

interface Checked {
  status: number;
  headers: Headers;
  /** The body in its JSON shape (XML read through the document's hints). */
  body: Json;
}

/** Validates one response (body and headers) against the document. */
async function check(documentPath: string, response: Response): Promise<Checked> {
  const { status, headers } = response;
  const type = headers.get("Content-Type") ?? "";
  const schema = responseSchema(documentPath, status, type);
  expect(schema, `${documentPath} ${status} ${type} is documented`).toBeDefined();
  expect(headerProblems(documentPath, status, headers), `${documentPath} ${status} headers`).toEqual([]);
  if (documentPath.startsWith("/1.0/search/") && status === 200) {
    // X-Corrected-Name comes with a fuzzy answer, and only with one.
    expect(headers.has("X-Corrected-Name"), "X-Corrected-Name iff X-Match is fuzzy").toBe(
      headers.get("X-Match") === "fuzzy",
    );
  }
  if (schema === undefined) return { status, headers, body: {} };
  const text = await response.text();
  if (type === "application/json") {
    const body = JSON.parse(text) as Json;
    expect(validate(body, schema), `${documentPath} ${status} JSON`).toEqual([]);
    expect(orderProblems(body, schema), `${documentPath} ${status} JSON key order`).toEqual([]);
    return { status, headers, body };
  }
  const { root } = parseXml(text);
  const rootName = (resolve(schema).xml as Json | undefined)?.name;
  if (rootName !== undefined) expect(root.name).toBe(rootName);
  const body = fromXml(root, schema) as Json;
  expect(validate(body, schema), `${documentPath} ${status} XML`).toEqual([]);
  return { status, headers, body };
}

/** The records of a checked search page. */
const records = (checked: Checked) => (checked.body.venue ?? checked.body.cities ?? []) as Json[];

const get = (accept: string) => ({ headers: { Accept: accept, "Accept-Language": "de" } });

/** A D1 binding whose every batch fails with `message`. */
function failingDb(message: string): D1Database {
  const statement = { bind: () => statement };
  const session = { prepare: () => statement, batch: () => Promise.reject(new Error(message)) };
  return { withSession: () => session } as unknown as D1Database;
}

afterEach(() => {
  vi.restoreAllMocks();
});

const cases: [string, string][] = [
  ["/1.0/search/venues", "/1.0/search/venues?name=compaq"],
  ["/1.0/search/venues", "/1.0/search/venues?name=secret%20garden"],
  ["/1.0/search/venues", "/1.0/search/venues?country=US&p=2"],
  ["/1.0/search/venues", "/1.0/search/venues?p=0"],
  ["/1.0/search/venues", "/1.0/search/venues?name=qxzvqxzv"],
  ["/1.0/search/cities", "/1.0/search/cities?name=paris"],
  ["/1.0/search/cities", "/1.0/search/cities?name=vaduz"],
  ["/1.0/search/cities", "/1.0/search/cities?state=%zz"],
  ["/1.0/venue/{venueId}", "/1.0/venue/6bd6ca6e"],
  ["/1.0/venue/{venueId}", "/1.0/venue/6bd6a3ce"],
  ["/1.0/venue/{venueId}", "/1.0/venue/ffffffff"],
  ["/1.0/city/{geoId}", "/1.0/city/5357527"],
  ["/1.0/city/{geoId}", "/1.0/city/3042030"],
  ["/1.0/city/{geoId}", "/1.0/city/1"],
];

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and describes every route", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths).sort()).toEqual(
      [
        "/1.0/city/{geoId}",
        "/1.0/openapi.json",
        "/1.0/search/cities",
        "/1.0/search/venues",
        "/1.0/venue/{venueId}",
      ].sort(),
    );
  });

  it("declares exactly the query parameters each search reads", () => {
    for (const resource of ["venues", "cities"] as const) {
      const names = queryParameters(`/1.0/search/${resource}`).map((p) => p.name as string);
      expect(names.sort(), resource).toEqual([...PARAMETERS[resource]].sort());
    }
  });

  it.each(cases.flatMap(([path, url]) => FORMATS.map((accept) => [url, accept, path] as const)))(
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

  it("the check does catch a response that breaks the document", () => {
    const schema = responseSchema("/1.0/search/venues", 200, "application/json") ?? {};
    const venue = {
      id: "1",
      name: "x",
      city: { id: "2", name: "y", coords: {}, country: {} },
      url: "https://x.test/",
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
      parseXml(`<venues itemsPerPage="30" page="1" total="1"><venue id="1" name="x">${city}</venue></venues>`).root;
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

describe("searches forgiving typos (SPEC §10.1)", () => {
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

describe("searches near a point (SPEC §10.2)", () => {
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
    for (const [path, url] of cases.filter(([p]) => !p.startsWith("/1.0/search/"))) {
      expect(url.slice(url.lastIndexOf("/") + 1), url).toMatch(pattern(path));
    }
  });
});

describe("venue cities by deployment (SPEC §10.4, VENUE_CITY_DETAIL)", () => {
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
  const searches: [string, string][] = [
    ["/1.0/search/venues", "/1.0/search/venues?name=hallenstadoin&lat=47.3769&long=8.5417"],
    ["/1.0/search/cities", "/1.0/search/cities?name=zurihc&country=CH"],
  ];

  it.each(searches.flatMap(([path, url]) => FORMATS.map((a) => [url, a, path] as const)))(
    "%s as %s sends every header the document declares, from the database and from the cache",
    async (url, accept, path) => {
      const declared = Object.keys(declaredHeaders(path, 200));
      expect(declared).toEqual(expect.arrayContaining(["X-Match", "X-Corrected-Name", "ETag", "X-Cache"]));
      const miss = await callWith({ EDGE_CACHE: "off" }, url, get(accept));
      expect(miss.headers.get("X-Cache")).toBe("MISS");
      expect(declared.filter((name) => !miss.headers.has(name))).toEqual([]);
      expect((await check(path, miss)).status).toBe(200);

      // A cached copy keeps them all (but the database timing).
      const hit = await untilCached(url, get(accept).headers);
      expect(declared.filter((name) => !hit.headers.has(name))).toEqual(["Server-Timing"]);
      expect(hit.headers.get("X-Match")).toBe("fuzzy");
      expect((await check(path, hit)).status).toBe(200);
    },
  );
});
