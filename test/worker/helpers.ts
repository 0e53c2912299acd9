import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import worker from "../../src/index.ts";
import { RESULT_WINDOW } from "../../src/params/window.ts";
import type { Env } from "../../src/env.ts";
import { expect } from "vitest";
import { create } from "xmlbuilder2";

const ORIGIN = "http://search.test";

/** Calls the worker as a client would, over fetch. */
export function call(path: string, init: RequestInit = {}): Promise<Response> {
  return exports.default.fetch(new Request(`${ORIGIN}${path}`, init));
}

export function getJson(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, { headers: { Accept: "application/json", ...headers } });
}

export function getXml(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, { headers: { Accept: "application/xml", ...headers } });
}

/** A parsed XML element: name, attributes, child elements, text. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** The parts of xmlbuilder2's DOM nodes that the tests read. */
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  attributes?: ArrayLike<{ name: string; value: string }>;
}

/** Parses an XML document (with xmlbuilder2's parser) into plain elements. */
export function parseXml(xml: string): { declaration: string; root: XmlElement } {
  const declaration = /^<\?xml[^>]*\?>/.exec(xml)?.[0] ?? "";
  const doc = create(xml).root().node as unknown as DomNode;
  return { declaration, root: toElement(doc) };
}

function toElement(node: DomNode): XmlElement {
  const attributes: Record<string, string> = {};
  for (const a of Array.from(node.attributes ?? [])) attributes[a.name] = a.value;
  const children = Array.from(node.childNodes)
    .filter((c) => c.nodeType === 1)
    .map(toElement);
  return { name: node.nodeName, attributes, children, text: node.textContent ?? "" };
}

export interface ErrorJson {
  code: number;
  status: string;
  message: string;
  timestamp: string;
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/;

/** Every page of a JSON search, in order (the list field of each page concatenated). */
export async function allPages<T>(
  path: string,
  list: "venue" | "cities",
  headers: Record<string, string> = {},
): Promise<{ total: number; items: T[]; windowed: boolean }> {
  const items: T[] = [];
  let total = 0;
  for (let p = 1; ; p++) {
    const sep = path.includes("?") ? "&" : "?";
    const res = await getJson(`${path}${sep}p=${p}`, headers);
    if (res.status === 404) break;
    if (res.status === 400) {
      // A search that cannot seek serves its first RESULT_WINDOW records (docs/api.md#what-one-request-may-cost).
      const { message } = (await res.json()) as ErrorJson;
      expect(message).toMatch(
        new RegExp(`^parameter p must be at most ${p - 1} for .*first ${RESULT_WINDOW.toLocaleString("en-US")}`),
      );
      expect(items.length).toBe((p - 1) * (list === "venue" ? 30 : 50));
      return { total, items, windowed: true };
    }
    expect(res.status).toBe(200);
    const body = (await res.json()) as { total: number; page: number } & Record<string, T[]>;
    expect(body.page).toBe(p);
    total = body.total;
    items.push(...(body[list] ?? []));
    if (p > 200) throw new Error("too many pages");
  }
  return { total, items, windowed: false };
}

/** Repeats a request until the worker answers it from the cache (writes land via waitUntil). */
export async function untilCached(path: string, headers: Record<string, string> = {}): Promise<Response> {
  for (let i = 0; i < 50; i++) {
    const res = await call(path, { headers });
    if (res.headers.get("X-Cache") === "HIT") return res;
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${path} never came from the cache`);
}

/**
 * Calls the worker's fetch handler directly, with bindings changed from the test
 * environment's (API keys set, a failing database ...).
 */
export async function callWith(
  overrides: Partial<Record<keyof Env, unknown>>,
  path: string,
  init: RequestInit = {},
): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`${ORIGIN}${path}`, init) as Request<unknown, IncomingRequestCfProperties>;
  const response = await worker.fetch(request, { ...env, ...overrides } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** SQL and FTS5 query syntax, which a name must match as plain text (fuzz and protocol tests). */
export const QUERY_SYNTAX = [
  "' OR 1=1 --",
  "'; DROP TABLE venues; --",
  '"',
  '""',
  "*",
  "a*",
  "NEAR(a b)",
  'NEAR(a b) AND "x"*',
  "a AND b",
  "a OR b",
  "NOT x",
  "^x",
  "-x",
  "col:x",
  "name:compaq",
];

/** Hollywood, CA in the fixture, as a city search and the city lookup give it. */
export const HOLLYWOOD = {
  id: "5357527",
  name: "Hollywood",
  state: "California",
  stateCode: "CA",
  coords: { lat: 34.09834, long: -118.32674 },
  country: { code: "US", name: "United States" },
};
