/**
 * The OpenAPI document is kept true: live responses, JSON and XML, success and error, are
 * validated against the schemas it declares for their path, status and content type. XML is
 * read through the document's own `xml` hints (attributes, element names) before validation.
 */
import { Validator, type Schema } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { call, callWith, parseXml, type XmlElement } from "./helpers.ts";

type Json = Record<string, unknown>;

const document = (await (await call("/1.0/openapi.json")).json()) as Json & {
  paths: Record<string, Record<string, Json>>;
  components: Json & { schemas: Record<string, Json>; responses: Record<string, Json> };
};

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

/** The schema the document declares for a response, or undefined when it declares none. */
function responseSchema(path: string, status: number, contentType: string): Json | undefined {
  const operation = document.paths[path]?.get as Json | undefined;
  const responses = operation?.responses as Record<string, Json> | undefined;
  const response = responses?.[String(status)];
  if (response === undefined) return undefined;
  const content = resolve(response).content as Record<string, { schema: Json }> | undefined;
  return content?.[contentType]?.schema;
}

function validate(value: unknown, schema: Json): string[] {
  const root = { ...schema, components: document.components } as unknown as Schema;
  const result = new Validator(root, "2020-12", false).validate(value);
  return result.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** An XML element read into the JSON shape of a schema, following its `xml` hints. */
function fromXml(element: XmlElement, schemaNode: Json): unknown {
  let schema = resolve(schemaNode);
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
      if (child !== undefined)
        out[name] =
          property.properties === undefined && property.allOf === undefined && property.type !== "object"
            ? scalar(child.text, property)
            : fromXml(child, node);
    }
  }
  return out;
}

function scalar(text: string, schema: Json): unknown {
  const numeric = schema.type === "integer" || schema.type === "number" || typeof schema.const === "number";
  return numeric ? Number(text) : text;
}

/** Fetches and validates one response against the document; returns its status. */
async function check(documentPath: string, response: Response): Promise<number> {
  const type = response.headers.get("Content-Type") ?? "";
  const schema = responseSchema(documentPath, response.status, type);
  expect(schema, `${documentPath} ${response.status} ${type} is documented`).toBeDefined();
  if (schema === undefined) return response.status;
  const text = await response.text();
  if (type === "application/json") {
    expect(validate(JSON.parse(text), schema), `${documentPath} ${response.status} JSON`).toEqual([]);
  } else {
    const { root } = parseXml(text);
    const resolved = resolve(schema);
    const rootName = (resolved.xml as Json | undefined)?.name;
    if (rootName !== undefined) expect(root.name).toBe(rootName);
    expect(validate(fromXml(root, schema), schema), `${documentPath} ${response.status} XML`).toEqual([]);
  }
  return response.status;
}

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

  it.each(
    cases.flatMap(([path, url]) =>
      (["application/json", "application/xml"] as const).map((accept) => [url, accept, path] as const),
    ),
  )("%s as %s matches the document", async (url, accept, path) => {
    const status = await check(path, await call(url, { headers: { Accept: accept, "Accept-Language": "de" } }));
    expect([200, 400, 404]).toContain(status);
  });

  it("documents the other errors: 405, 406, 401, 403", async () => {
    expect(
      await check(
        "/1.0/search/venues",
        await call("/1.0/search/venues", { method: "DELETE", headers: { Accept: "application/xml" } }),
      ),
    ).toBe(405);
    expect(
      await check("/1.0/search/cities", await call("/1.0/search/cities", { headers: { Accept: "text/html" } })),
    ).toBe(406);
    const keys = { API_KEY_HASHES: "0".repeat(64) };
    expect(
      await check(
        "/1.0/city/{geoId}",
        await callWith(keys, "/1.0/city/5357527", { headers: { Accept: "application/json" } }),
      ),
    ).toBe(401);
    expect(
      await check(
        "/1.0/city/{geoId}",
        await callWith(keys, "/1.0/city/5357527", { headers: { Accept: "application/xml", "x-api-key": "x" } }),
      ),
    ).toBe(403);
  });

  it("the check does catch a response that breaks the document", () => {
    const schema = responseSchema("/1.0/search/venues", 200, "application/json") ?? {};
    expect(validate({ type: "venues", itemsPerPage: 30, page: 1, total: 1, venue: [{ id: 1 }] }, schema)).not.toEqual(
      [],
    );
    const xmlSchema = responseSchema("/1.0/search/cities", 200, "application/xml") ?? {};
    const { root } = parseXml('<cities itemsPerPage="50" page="1" total="1"><city id="1" name="x"/></cities>');
    expect(validate(fromXml(root, xmlSchema), xmlSchema)).not.toEqual([]);
  });
});
