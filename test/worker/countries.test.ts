/** GET /1.0/search/countries (docs/api.md#countries): every country of the data, one page. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CountriesPage } from "../../src/shape.ts";
import { call, type ErrorJson, getJson, getXml, parseXml, untilCached } from "./helpers.ts";

const PATH = "/1.0/search/countries";

/** The fixture's countries (test/fixtures/countryInfo.txt), in English, sorted by name. */
const ENGLISH = [
  ["AD", "Andorra"],
  ["AU", "Australia"],
  ["AT", "Austria"],
  ["BR", "Brazil"],
  ["CA", "Canada"],
  ["DK", "Denmark"],
  ["SV", "El Salvador"],
  ["FR", "France"],
  ["DE", "Germany"],
  ["IS", "Iceland"],
  ["IL", "Israel"],
  ["JP", "Japan"],
  ["LI", "Liechtenstein"],
  ["MX", "Mexico"],
  ["PL", "Poland"],
  ["RU", "Russia"],
  ["SE", "Sweden"],
  ["CH", "Switzerland"],
  ["NL", "The Netherlands"],
  ["TR", "Turkey"],
  ["GB", "United Kingdom"],
  ["US", "United States"],
].map(([code, name]) => ({ code, name }));

/**
 * Names in the order a reader of the language expects, where byte order would differ: German
 * `Dänemark` before `Deutschland` and `Österreich` among the O's, French `États-Unis` among the
 * E's and `Suède` before `Suisse`, Turkish `İ` after `I` and before `J`.
 */
const SORTED: Record<string, string[]> = {
  de: [
    "Andorra",
    "Australien",
    "Brasilien",
    "Dänemark",
    "Deutschland",
    "El Salvador",
    "Frankreich",
    "Island",
    "Israel",
    "Japan",
    "Kanada",
    "Liechtenstein",
    "Mexiko",
    "Niederlande",
    "Österreich",
    "Polen",
    "Russische Föderation",
    "Schweden",
    "Schweiz",
    "Türkei",
    "Vereinigte Staaten von Amerika",
    "Vereinigtes Königreich",
  ],
  fr: [
    "Allemagne",
    "Andorre",
    "Australie",
    "Autriche",
    "Brésil",
    "Canada",
    "Danemark",
    "El Salvador",
    "États-Unis d'Amérique",
    "France",
    "Islande",
    "Israël",
    "Japon",
    "Liechtenstein",
    "Mexique",
    "Pays-Bas",
    "Pologne",
    "Royaume-Uni",
    "Russie",
    "Suède",
    "Suisse",
    "Turquie",
  ],
  tr: [
    "ABD",
    "Almanya",
    "Andorra",
    "Avustralya",
    "Avusturya",
    "Birleşik Krallık",
    "Brezilya",
    "Danimarka",
    "El Salvador",
    "Fransa",
    "Hollanda",
    "İsrail",
    "İsveç",
    "İsviçre",
    "İzlanda",
    "Japonya",
    "Kanada",
    "Liechtenstein",
    "Meksika",
    "Polonya",
    "Rusya",
    "Türkiye",
  ],
};

async function countriesJson(headers: Record<string, string> = {}, path = PATH): Promise<CountriesPage> {
  const res = await getJson(path, headers);
  expect(res.status).toBe(200);
  return (await res.json()) as CountriesPage;
}

describe("GET /1.0/search/countries", () => {
  it("gives every country in one page, in JSON, sorted by English name", async () => {
    const res = await getJson(PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(res.headers.get("Content-Language")).toBe("en");
    expect(res.headers.get("Vary")).toBe("Accept, Accept-Language");
    expect(res.headers.get("X-Match")).toBeNull();
    const body = await res.text();
    expect(JSON.parse(body)).toEqual({
      type: "countries",
      itemsPerPage: ENGLISH.length,
      page: 1,
      total: ENGLISH.length,
      country: ENGLISH,
    });
    // setlist.fm's key order.
    expect(Object.keys(JSON.parse(body) as object)).toEqual(["type", "itemsPerPage", "page", "total", "country"]);
  });

  it("holds every country of the data, with or without cities", async () => {
    const { results } = await env.DB.prepare("SELECT code FROM countries ORDER BY code").all<{ code: string }>();
    const body = await countriesJson();
    expect(body.country.map((c) => c.code).sort()).toEqual(results.map((r) => r.code));
  });

  it("in XML as <countries itemsPerPage page total> of <country code name/>", async () => {
    const res = await call(PATH); // no Accept: XML
    expect(res.headers.get("Content-Type")).toBe("application/xml");
    const { declaration, root } = parseXml(await res.text());
    expect(declaration).toBe('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>');
    expect(root.name).toBe("countries");
    expect(root.attributes).toEqual({
      itemsPerPage: String(ENGLISH.length),
      page: "1",
      total: String(ENGLISH.length),
    });
    expect(root.children.map((c) => [c.name, c.attributes, c.children.length])).toEqual(
      ENGLISH.map((c) => ["country", c, 0]),
    );
  });

  it.each(Object.entries(SORTED))("names and sorts in %s, in JSON", async (language, names) => {
    const res = await getJson(PATH, { "Accept-Language": `${language}-XX,en;q=0.5` });
    expect(res.headers.get("Content-Language")).toBe(language);
    const body = (await res.json()) as CountriesPage;
    expect(body.country.map((c) => c.name)).toEqual(names);
    for (const c of body.country) expect(c.name).toBe(await translation(c.code, language));
  });

  it.each(Object.entries(SORTED))("names and sorts in %s, in XML", async (language, names) => {
    const res = await getXml(`/rest${PATH}`, { "Accept-Language": language });
    expect(res.headers.get("Content-Language")).toBe(language);
    const { root } = parseXml(await res.text());
    expect(root.children.map((c) => c.attributes.name)).toEqual(names);
    expect(new Set(root.children.map((c) => c.attributes.code))).toEqual(new Set(ENGLISH.map((c) => c.code)));
  });

  it("answers English for a language it does not have", async () => {
    const body = await countriesJson({ "Accept-Language": "ja" });
    expect(body.country).toEqual(ENGLISH);
  });
});

describe("GET /1.0/search/countries: paths, pages, parameters", () => {
  it("is served under /rest/1.0 too, with the same body", async () => {
    expect(await countriesJson({}, `/rest${PATH}`)).toEqual(await countriesJson());
    expect(await countriesJson({}, `/rest${PATH}/`)).toEqual(await countriesJson());
  });

  it("p=1 is the page; p=2 is past the end (404 not found); p=0 is a 400 naming p", async () => {
    expect((await countriesJson({}, `${PATH}?p=1`)).total).toBe(ENGLISH.length);
    for (const accept of ["application/json", "application/xml"]) {
      const past = await call(`${PATH}?p=2`, { headers: { Accept: accept } });
      expect(past.status).toBe(404);
      const text = await past.text();
      const message = accept === "application/json" ? (JSON.parse(text) as ErrorJson).message : errorMessage(text);
      expect(message).toBe("not found");
    }
    for (const p of ["0", "-1", "1.5", "x", "1234567"]) {
      const bad = await getJson(`${PATH}?p=${p}`);
      expect(bad.status, p).toBe(400);
      expect(bad.headers.get("Cache-Control")).toBe("no-store");
      expect(((await bad.json()) as ErrorJson).message).toMatch(/^parameter p /);
    }
    expect((await getJson(`${PATH}?p=1&p=1`)).status).toBe(400);
  });

  it("ignores unknown parameters, and an empty p", async () => {
    const body = await countriesJson({}, `${PATH}?name=fr&country=DE&p=`);
    expect(body.country).toEqual(ENGLISH);
  });
});

describe("GET /1.0/search/countries: caching and HTTP", () => {
  it("is cached: the same bytes and ETag from the cache, 304 on If-None-Match", async () => {
    const headers = { Accept: "application/json", "Accept-Language": "it" };
    const first = await call(`${PATH}?p=1`, { headers });
    const body = await first.text();
    const cached = await untilCached(PATH, headers); // `p` absent is `p=1`
    expect(await cached.text()).toBe(body);
    const etag = cached.headers.get("ETag") ?? "";
    expect(etag).toBe(first.headers.get("ETag"));
    const notModified = await call(PATH, { headers: { ...headers, "If-None-Match": etag } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe("");
    // Another language or format is another entry.
    const polish = await call(PATH, { headers: { ...headers, "Accept-Language": "pl" } });
    expect(polish.headers.get("ETag")).not.toBe(etag);
    await polish.arrayBuffer();
    const xml = await call(PATH, { headers: { ...headers, Accept: "application/xml" } });
    expect(xml.headers.get("ETag")).not.toBe(etag);
    await xml.arrayBuffer();
  });

  it("caches the 404 of a page past the end", async () => {
    await (await getXml(`${PATH}?p=3`)).arrayBuffer();
    const again = await untilCached(`${PATH}?p=3`, { Accept: "application/xml" });
    expect(again.status).toBe(404);
  });

  it("HEAD has the GET headers and no body; OPTIONS is the CORS preflight", async () => {
    const head = await call(PATH, { method: "HEAD", headers: { Accept: "application/json" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("Content-Type")).toBe("application/json");
    expect(head.headers.get("ETag")).toMatch(/^"/);
    expect(await head.text()).toBe("");
    const preflight = await call(`/rest${PATH}`, {
      method: "OPTIONS",
      headers: { Origin: "https://app.test", "Access-Control-Request-Method": "GET" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(preflight.headers.get("Access-Control-Allow-Methods")).toBe("GET, HEAD");
    const get = await getJson(PATH, { Origin: "https://app.test" });
    expect(get.headers.get("Access-Control-Allow-Origin")).toBe("*");
    await get.arrayBuffer();
  });

  it("other methods are 405", async () => {
    const post = await call(PATH, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
  });
});

/** The stored translation of a country's name, or its English name. */
async function translation(code: string, language: string): Promise<string | undefined> {
  const row = await env.DB.prepare(
    `SELECT coalesce((SELECT name FROM localized_names WHERE lang = ? AND kind = 'country' AND key = ?),
                     (SELECT name FROM countries WHERE code = ?)) AS name`,
  )
    .bind(language, code, code)
    .first<{ name: string }>();
  return row?.name;
}

function errorMessage(xml: string): string | undefined {
  const { root } = parseXml(xml);
  expect(root.name).toBe("error");
  return root.children.find((c) => c.name === "message")?.text;
}
