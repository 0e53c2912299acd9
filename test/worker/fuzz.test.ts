/**
 * Property-based tests: random and adversarial requests through the worker. Whatever comes in,
 * the answer has a contract status, a body that parses in its declared format and has the
 * contract's shape, and never a 500. FUZZ_RUNS sets the number of requests (10,000 in
 * `npm test`; `npm run test:fuzz` runs 100,000).
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/http/errors.ts";
import { negotiateFormat } from "../../src/http/negotiate.ts";
import { parseSearchParams } from "../../src/params/search.ts";
import { call, callWith, parseXml, QUERY_SYNTAX, TIMESTAMP } from "./helpers.ts";

const RUNS = Number(env.FUZZ_RUNS) || 10_000;

const KNOWN = ["name", "cityId", "cityName", "state", "stateCode", "country", "p"];
const ADVERSARIAL = [
  ...QUERY_SYNTAX,
  "^",
  "{name}: x",
  "%",
  "%E0%A4%A",
  "%zz",
  "%00",
  "%ED%A0%80",
  "%F0%9F%8E%B8",
  "\u0000",
  "\u0007\u001b",
  "\u202eevil",
  "مرحبا بالعالم",
  "שלום",
  "🎸🥁",
  "\ud800",
  "\udfff",
  "𝔘𝔫𝔦",
  " ",
  "..",
  "../..",
  "/",
  "%2F",
  "+",
  "&",
  "=",
  "#",
  "0",
  "-1",
  "999999",
  "1000000",
  "1.5",
  "1e3",
  "0x10",
  "9".repeat(400),
  "Zürich",
  "münchen",
  "paris",
  "US",
  "California",
  "CA",
  "2950159",
];

/** Printable ASCII: what an HTTP header value can hold. */
const headerText = (maxLength: number) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

const value = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ADVERSARIAL) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 10_000 }).map((n) => "x".repeat(n)) },
  { weight: 1, arbitrary: fc.integer({ min: 95, max: 105 }).map((n) => "é".repeat(n)) },
);

/** How a value travels: percent-encoded, raw, or with deliberately broken escapes. */
function encode(text: string, how: number): string {
  if (how === 0) {
    try {
      return encodeURIComponent(text);
    } catch {
      return text; // lone surrogates cannot be encoded; send them raw
    }
  }
  if (how === 1) return text;
  return `${text}%${text.length % 2 === 0 ? "G" : ""}`;
}

const pair = fc.tuple(
  fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...KNOWN) },
    { weight: 1, arbitrary: fc.constantFrom("NAME", "Name", "p ", "", "x", "name[]", "%6Eame", "na%zzme") },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  ),
  value,
  fc.integer({ min: 0, max: 2 }),
  fc.boolean(),
);

const query = fc
  .array(pair, { maxLength: 7 })
  .map((pairs) =>
    pairs
      .map(([k, v, how, withValue]) => (withValue ? `${encode(k, how % 2)}=${encode(v, how)}` : encode(k, how % 2)))
      .join("&"),
  );

const path = fc.constantFrom(
  "/1.0/search/venues",
  "/1.0/search/cities",
  "/rest/1.0/search/venues",
  "/rest/1.0/search/cities",
  "/1.0/search/countries",
  "/rest/1.0/search/countries/",
  "/1.0/search/venues/",
  "/1.0/search/cities//",
  "/1.0/search/../search/venues",
  "/1.0/search/./cities",
  "/1.0/search%2Fvenues",
  "/1.0/search/venues%00",
  "/1.0/SEARCH/venues",
  "/1.0/search/venues/extra",
  "/1.0/search",
  "/1.0",
  "/rest/2.0/search/cities",
  "/1.0/venue/6bd6ca6e",
  "/1.0/venue/%22%3E%3Cx",
  "/rest/1.0/city/2761369",
  "/1.0/city/0",
  "/1.0/city/..%2F",
);

const method = fc.constantFrom("GET", "GET", "GET", "GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH");

const accept = fc.option(
  fc.oneof(
    fc.constantFrom(
      "application/json",
      "application/xml",
      "text/xml",
      "*/*",
      "text/html",
      "application/*",
      "application/json;q=0",
      "application/xml;q=0.5, application/json;q=0.9",
      ";;;",
      "application/json;q=abc",
      "*/json",
      "application/json, text/html;q=0",
      ",,,,",
    ),
    headerText(60),
  ),
);

const acceptLanguage = fc.option(
  fc.oneof(
    fc.constantFrom("de-AT", "en", "*", "fr;q=0.5", "zz-ZZ", "de-DE,de;q=0.9,en;q=0.8", "x".repeat(500)),
    headerText(40),
  ),
);

const STATUSES = new Set([200, 304, 400, 404, 405, 406, 429]);

async function checkResponse(res: Response, requestMethod: string): Promise<void> {
  const allowed = requestMethod === "OPTIONS" ? new Set([204, 404]) : STATUSES;
  expect(allowed.has(res.status), `status ${res.status}`).toBe(true);
  expect(res.headers.get("Vary")).toBe("Accept, Accept-Language");
  expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
  expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
  const body = await res.text();
  if (requestMethod === "HEAD" || res.status === 204 || res.status === 304) {
    expect(body).toBe("");
    return;
  }
  if (res.status === 200) expect(requestMethod).toBe("GET");
  const type = res.headers.get("Content-Type");
  expect(["application/json", "application/xml"]).toContain(type);
  if (type === "application/json") checkJson(res.status, JSON.parse(body) as Record<string, unknown>);
  else checkXml(res.status, body);
}

/** Each search's page: its list (the JSON key and the XML element of an item) and its page size. */
const PAGES: Record<string, { list: string; perPage?: number } | undefined> = {
  venues: { list: "venue", perPage: 30 },
  cities: { list: "cities", perPage: 50 },
  countries: { list: "country" }, // every country on one page
};

function checkJson(status: number, json: Record<string, unknown>): void {
  if (status === 200 && json.type === undefined) {
    expect(typeof json.id === "string" && typeof json.name === "string").toBe(true); // a lookup
  } else if (status === 200) {
    const shape = PAGES[String(json.type)];
    expect(shape, String(json.type)).toBeDefined();
    const list = json[shape?.list ?? ""] as unknown[];
    expect(json.itemsPerPage).toBe(shape?.perPage ?? list.length);
    expect(Number.isInteger(json.page) && (json.page as number) >= 1).toBe(true);
    expect(list.length).toBeGreaterThan(0);
    expect(json.total as number).toBeGreaterThanOrEqual(list.length);
  } else {
    expect(Object.keys(json)).toEqual(["code", "status", "message", "timestamp"]);
    expect(json.code).toBe(status);
    expect(typeof json.message === "string" && json.message.length > 0).toBe(true);
    expect(json.timestamp).toMatch(TIMESTAMP);
  }
}

function checkXml(status: number, body: string): void {
  const { declaration, root } = parseXml(body);
  expect(declaration).toBe('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>');
  if (status === 200 && (root.name === "venue" || root.name === "city")) {
    expect(Object.keys(root.attributes)).toEqual(expect.arrayContaining(["id", "name"])); // a lookup
  } else if (status === 200) {
    const shape = PAGES[root.name];
    expect(shape, root.name).toBeDefined();
    expect(Object.keys(root.attributes)).toEqual(["itemsPerPage", "page", "total"]);
    expect(root.children.length).toBeGreaterThan(0);
    for (const child of root.children) expect(child.name).toBe(shape?.list);
  } else {
    expect(root.name).toBe("error");
    expect(root.children.map((c) => c.name)).toEqual(["code", "status", "message", "timestamp"]);
    expect(root.children[0]?.text).toBe(String(status));
  }
}

describe("fuzzing the worker", () => {
  it(`answers ${RUNS} random and adversarial requests within the contract`, { timeout: 1_800_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(path, query, method, accept, acceptLanguage, async (p, q, m, a, l) => {
        const headers: Record<string, string> = {};
        if (a !== null) headers.Accept = a;
        if (l !== null) headers["Accept-Language"] = l;
        // The handler itself, with the test bindings: exports.default.fetch wraps each call in
        // another Proxy (vitest-pool-workers 0.23) and overflows the stack after ~1,700 calls.
        const res = await callWith({}, q === "" ? p : `${p}?${q}`, { method: m, headers });
        await checkResponse(res, m);
      }),
      { numRuns: RUNS },
    );
  });

  it("rejects a query string over 2 KB, naming it", async () => {
    const res = await call(`/1.0/search/venues?x=${"a".repeat(2047)}`, { headers: { Accept: "application/json" } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe("the query string is longer than 2048 bytes");
    const ok = await call(`/1.0/search/venues?x=${"a".repeat(2046)}`, { headers: { Accept: "application/json" } });
    expect(ok.status).toBe(200);
  });
});

describe("properties of the pure parts", () => {
  it("parsing parameters only ever fails with a 400", () => {
    fc.assert(
      fc.property(query, fc.constantFrom("venues" as const, "cities" as const), (q, resource) => {
        try {
          parseSearchParams(resource, q);
        } catch (e) {
          expect(e).toBeInstanceOf(ApiError);
          expect((e as ApiError).status).toBe(400);
        }
      }),
      { numRuns: 10_000 },
    );
  });

  it("negotiation never throws", () => {
    fc.assert(
      fc.property(fc.option(headerText(80)), (header) => {
        expect([null, "json", "xml"]).toContain(negotiateFormat(header));
      }),
      { numRuns: 10_000 },
    );
  });
});
