/**
 * Live responses checked against the OpenAPI document: validated against the schemas it declares
 * for their path, status and content type, JSON keys in the order it declares, and their headers
 * against the headers it declares (every required one sent, every one sent valid). XML is read
 * through the document's own `xml` hints (attributes, element names) before validation.
 */
import { Validator, type Schema } from "@cfworker/json-schema";
import { expect } from "vitest";
import { call, parseXml, type XmlElement } from "./helpers.ts";

export type Json = Record<string, unknown>;

export const document = (await (await call("/1.0/openapi.json")).json()) as Json & {
  paths: Record<string, Record<string, Json>>;
  components: Json & { schemas: Record<string, Json>; responses: Record<string, Json> };
};

export const FORMATS = ["application/json", "application/xml"] as const;

export function resolve(node: Json): Json {
  let current = node;
  for (let i = 0; i < 10 && typeof current.$ref === "string"; i++) {
    const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(current.$ref as string) ?? [];
    const target = (document.components[section ?? ""] as Record<string, Json> | undefined)?.[name ?? ""];
    if (target === undefined) throw new Error(`unresolved ${String(current.$ref)}`);
    current = target;
  }
  return current;
}

export const operation = (path: string) => document.paths[path]?.get as Json | undefined;

/** The response the document declares for a path and status, resolved, or undefined. */
function declaredResponse(path: string, status: number): Json | undefined {
  const response = (operation(path)?.responses as Record<string, Json> | undefined)?.[String(status)];
  return response === undefined ? undefined : resolve(response);
}

/** The schema the document declares for a response, or undefined when it declares none. */
export function responseSchema(path: string, status: number, contentType: string): Json | undefined {
  const content = declaredResponse(path, status)?.content as Record<string, { schema: Json }> | undefined;
  return content?.[contentType]?.schema;
}

/** The headers the document declares for a response, resolved. */
export function declaredHeaders(path: string, status: number): Record<string, Json> {
  const headers = (declaredResponse(path, status)?.headers ?? {}) as Record<string, Json>;
  return Object.fromEntries(Object.entries(headers).map(([name, header]) => [name, resolve(header)]));
}

/** The query parameters the document declares for a path. */
export function queryParameters(path: string): Json[] {
  return ((operation(path)?.parameters ?? []) as Json[]).map(resolve).filter((p) => p.in === "query");
}

export function validate(value: unknown, schema: Json): string[] {
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
export function fromXml(element: XmlElement, schemaNode: Json): unknown {
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
    const value = propertyFromXml(element, name, node);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** One declared property of an element: an attribute, a list of child elements, or one child. */
function propertyFromXml(element: XmlElement, name: string, node: Json): unknown {
  const property = resolve(node);
  const xml = { ...(property.xml as Json | undefined), ...(node.xml as Json | undefined) };
  if (xml.attribute === true) {
    const value = element.attributes[name];
    return value === undefined ? undefined : scalar(value, property);
  }
  if (property.type === "array") {
    const items = resolve(property.items as Json);
    const childName = ((items.xml as Json | undefined)?.name as string | undefined) ?? name;
    const children = element.children.filter((c) => c.name === childName);
    return children.length > 0 ? children.map((c) => fromXml(c, property.items as Json)) : undefined;
  }
  const childName = (xml.name as string | undefined) ?? name;
  const child = element.children.find((c) => c.name === childName);
  if (child === undefined) return undefined;
  const structured = [property.properties, property.allOf, property.oneOf].some((k) => k !== undefined);
  return structured || property.type === "object" ? fromXml(child, node) : scalar(child.text, property);
}

function scalar(text: string, schema: Json): unknown {
  const numeric = schema.type === "integer" || schema.type === "number" || typeof schema.const === "number";
  return numeric ? Number(text) : text;
}

/** JSON objects whose keys are not in the order the document declares (the live order, docs/api.md#result-pages). */
export function orderProblems(value: unknown, node: Json, at = ""): string[] {
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
export function headerProblems(path: string, status: number, headers: Headers): string[] {
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

export interface Checked {
  status: number;
  headers: Headers;
  /** The body in its JSON shape (XML read through the document's hints). */
  body: Json;
}

/** Every response the document declares: its path, status and content type. */
export function declaredResponses(): { path: string; status: number; type: string }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries((item.get?.responses ?? {}) as Record<string, Json>).flatMap(([status, node]) =>
      Object.keys((resolve(node).content ?? {}) as Json).map((type) => ({ path, status: Number(status), type })),
    ),
  );
}

/** Validates one response (body and headers) against the document. */
export async function check(documentPath: string, response: Response): Promise<Checked> {
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
export const records = (checked: Checked) => (checked.body.venue ?? checked.body.cities ?? []) as Json[];

export const get = (accept: string) => ({ headers: { Accept: accept, "Accept-Language": "de" } });

/** A D1 binding whose every batch fails with `message`. */
export function failingDb(message: string): D1Database {
  const statement = { bind: () => statement };
  const session = { prepare: () => statement, batch: () => Promise.reject(new Error(message)) };
  return { withSession: () => session } as unknown as D1Database;
}

/** Sample requests per documented path: found and not found, each kind of id. */
export const SAMPLE_URLS: [string, string][] = [
  ["/1.0/search/venues", "/1.0/search/venues?name=compaq"],
  ["/1.0/search/venues", "/1.0/search/venues?name=secret%20garden"],
  ["/1.0/search/venues", "/1.0/search/venues?country=US&p=2"],
  ["/1.0/search/venues", "/1.0/search/venues?p=0"],
  ["/1.0/search/venues", "/1.0/search/venues?name=qxzvqxzv"],
  ["/1.0/search/cities", "/1.0/search/cities?name=paris"],
  ["/1.0/search/cities", "/1.0/search/cities?name=vaduz"],
  ["/1.0/search/cities", "/1.0/search/cities?state=%zz"],
  ["/1.0/search/cities", "/1.0/search/cities?name=vindob&matched=1"],
  ["/1.0/search/cities", "/1.0/search/cities?name=x&matched=2"],
  ["/1.0/search/venues", "/1.0/search/venues?name=hallenstadion%20zurich&matched=1"],
  ["/1.0/search/countries", "/1.0/search/countries"],
  ["/1.0/search/countries", "/rest/1.0/search/countries?p=1&name=x"],
  ["/1.0/search/countries", "/1.0/search/countries?p=2"],
  ["/1.0/search/countries", "/1.0/search/countries?p=x"],
  ["/1.0/venue/{venueId}", "/1.0/venue/6bd6ca6e"],
  ["/1.0/venue/{venueId}", "/1.0/venue/6bd6a3ce"],
  ["/1.0/venue/{venueId}", "/1.0/venue/ffffffff"],
  ["/1.0/city/{geoId}", "/1.0/city/5357527"],
  ["/1.0/city/{geoId}", "/1.0/city/3042030"],
  ["/1.0/city/{geoId}", "/1.0/city/1"],
];
