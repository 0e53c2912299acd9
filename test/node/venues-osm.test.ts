/**
 * `npm run venues -- osm "…"` against a stand-in Overpass API on 127.0.0.1 (test/support/stand-ins/):
 * fetched, kept with its sidecar, imported with what the database served, each venue found by its
 * names in the city a person would name; asked as the API's operators ask (a User-Agent, one query
 * at a time, the status before each, 429 and 504 waited out, an area too large cut into tiles);
 * and every failure one line that changes nothing served.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { once } from "node:events";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { parseSearchParams } from "../../src/params/search.ts";
import { runSearch } from "../../src/query/search.ts";
import { VENUES } from "../../src/query/venues.ts";
import { localRunner } from "../../scripts/sql/explain.ts";
import { startOverpass, type OverpassOptions, type OverpassStandIn } from "../support/stand-ins/overpass.ts";
import {
  AREAS,
  newDir,
  OVERPASS_ANSWER,
  servedFile,
  servedVenues,
  venues,
  versionOf,
} from "../support/venues-command.ts";

const ELEMENTS = (JSON.parse(readFileSync(OVERPASS_ANSWER, "utf8")) as { elements: OverpassOptions["elements"] })
  .elements;

let server: OverpassStandIn | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function overpass(options: OverpassOptions = {}): Promise<string> {
  server = await startOverpass({ elements: ELEMENTS, areas: AREAS, ...options });
  return server.url;
}

/** The API base of a port where nothing listens (one just closed). */
async function closedPort(): Promise<string> {
  const listener = createServer().listen(0, "127.0.0.1");
  await once(listener, "listening");
  const { port } = listener.address() as AddressInfo;
  await new Promise((resolve) => listener.close(resolve));
  return `http://127.0.0.1:${port}/api/`;
}

/** The first venue a venue search of `name` answers with, as the worker runs it on the file. */
async function found(path: string, query: string): Promise<string | undefined> {
  const db = new Database(path, { readonly: true });
  try {
    const page = await runSearch(VENUES, localRunner(db), parseSearchParams("venues", query), "en");
    return page.items[0]?.name;
  } finally {
    db.close();
  }
}

describe("npm run venues -- osm", () => {
  it("fetches a city's venues, keeps them with what produced them, and serves them by every name in the city a person would name", async () => {
    const [path, downloads] = [await servedFile(), newDir()];
    const ran = await venues(["osm", "Berlin", "--endpoint", await overpass()], path, downloads);
    expect(ran.error).toBeNull();
    expect(ran.output).toContain('"Berlin" is Berlin, DE (GeoNames');
    const about = JSON.parse(readFileSync(join(downloads, "osm-berlin-de.json.about.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(about).toMatchObject({ source: "openstreetmap", endpoint: server?.url, dataTime: "2026-11-20T12:00:00Z" });
    expect(String(about.licence)).toMatch(/ODbL/);
    expect(String(about.query)).toMatch(
      /nwr\["leisure"="stadium"\]\(52\.\d+,13\.\d+,52\.\d+,13\.\d+\);\n\);\nout center tags;$/,
    );
    const served = [...servedVenues(path).values()];
    expect(served.filter((v) => v.url?.startsWith("https://www.openstreetmap.org/")).length).toBe(16);
    for (const v of served.filter((x) => x.url?.includes("openstreetmap"))) expect(v.city, v.name).toBe("Berlin");
    expect(await found(path, "name=berghain&cityName=berlin")).toBe("Berghain");
    expect(await found(path, "name=mercedes-benz arena")).toBe("Uber Arena"); // its old name
    expect(await found(path, "name=%D0%91%D0%B5%D1%80%D0%B3%D1%85%D0%B0%D0%B9%D0%BD")).toBe("Berghain"); // Бергхайн
    expect(ran.output).toMatch(/osm-berlin-de\.json \(JSON document \(elements\)\): read 1\d, kept 16/);
  });
});

describe("npm run venues -- osm, asking as the Overpass API's operators ask", () => {
  it("asks as the operators ask: a User-Agent naming the project, the status first, one query at a time, 429 waited out", async () => {
    const [path, downloads] = [await servedFile(), newDir()];
    const endpoint = await overpass({ rateLimited: 1, gatewayTimeouts: 1, delayMs: 50 });
    const ran = await venues(
      ["osm", "Hamburg", "--endpoint", endpoint, "--contact", "ops@example.org"],
      path,
      downloads,
    );
    expect(ran.error).toBeNull();
    const requests = server?.requests ?? [];
    expect(
      requests.every((r) => /^venue-city-search\/\d+\.\d+\.\d+ \(\+.*ops@example\.org\)$/.test(r.userAgent ?? "")),
    ).toBe(true);
    const statuses = requests.map((r) => `${r.path.endsWith("status") ? "status" : "query"} ${r.status ?? ""}`);
    expect(statuses).toEqual([
      "status 200",
      "query 429",
      "status 200",
      "status 200",
      "query 504",
      "status 200",
      "status 200",
      "query 200",
    ]);
    expect(server?.maxConcurrent).toBe(1);
    expect(ran.output).toMatch(/answered 429 Too Many Requests: waiting \d+ s \(try 2 of 6\)/);
    // The generated example venues give way to the real ones.
    expect([...servedVenues(path).values()].map((v) => v.name).sort()).toEqual([
      "Elbphilharmonie",
      "Große Freiheit 36",
    ]);
  });

  it("honours Retry-After when a server sends it", async () => {
    const [path, downloads] = [await servedFile(), newDir()];
    const ran = await venues(
      ["osm", "Hamburg", "--endpoint", await overpass({ rateLimited: 1, retryAfterSeconds: 1 })],
      path,
      downloads,
    );
    expect(ran.error).toBeNull();
    const [refused, retried] = (server?.requests ?? []).filter((r) => r.query !== null);
    expect((retried?.startedAt ?? 0) - (refused?.endedAt ?? 0)).toBeGreaterThanOrEqual(950);
  });
});

describe("npm run venues -- osm, for a large area or none", () => {
  it("cuts a country the server finds too large into tiles, merges them, and asks for no tile without people", async () => {
    const [path, downloads] = [await servedFile(), newDir()];
    const ran = await venues(["osm", "Germany", "--endpoint", await overpass({ maxExtentDeg2: 12 })], path, downloads);
    expect(ran.error).toBeNull();
    expect(ran.output).toMatch(/refused the area as too large for it \(runtime error: Query timed out/);
    const queries = (server?.requests ?? []).filter((r) => r.query !== null);
    expect(queries.length).toBeGreaterThan(4);
    expect(queries.every((q) => q.query?.includes('area["ISO3166-1"="DE"][admin_level=2]'))).toBe(true);
    const names = new Set([...servedVenues(path).values()].map((v) => v.name));
    for (const name of ["Berghain", "Elbphilharmonie", "Olympiahalle"]) expect(names).toContain(name);
    // Cologne's quarter holds none of the fixture's German places: not asked for, so no Lanxess Arena.
    expect(names).not.toContain("Lanxess Arena");
    const about = JSON.parse(readFileSync(join(downloads, "osm-de.json.about.json"), "utf8")) as {
      tiles: number;
      counts: { elements: number };
    };
    expect(about.tiles).toBe(queries.length - 1);
    expect(about.counts.elements).toBe(names.size + 1); // and the nightclub without a name, skipped by the import
  });

  it("prints the reading and the query with --dry-run, asking the server nothing", async () => {
    const [path, downloads] = [await servedFile(), newDir()];
    const ran = await venues(["osm", "Portland, OR", "--dry-run", "--endpoint", await overpass()], path, downloads);
    expect(ran.error).toBeNull();
    expect(ran.output).toContain('"Portland, OR" is Portland, Oregon, US');
    expect(ran.output).toContain('nwr["leisure"="stadium"](45.');
    expect(server?.requests).toEqual([]);
    expect(readdirSync(downloads)).toEqual([]);
  });
});

describe("npm run venues -- osm, when it cannot", () => {
  it.each([
    ["no server", closedPort, /cannot reach 127\.0\.0\.1:\d+: connection refused/],
    ["an HTML page", () => overpass({ answer: "html" }), /did not answer Overpass JSON \(text\/html/],
    ["an answer cut short", () => overpass({ answer: "truncated" }), /cut short|broke off/],
    [
      "a server that keeps refusing",
      () => overpass({ rateLimited: 9 }),
      /refused the query 3 times \(429 Too Many Requests\)/,
    ],
  ])("%s: one line, nothing kept, the data served before still served", async (_what, endpoint, message) => {
    const [path, downloads] = [await servedFile(), newDir()];
    const before = versionOf(path);
    const ran = await venues(["osm", "Berlin", "--endpoint", await endpoint(), "--retries", "2"], path, downloads);
    expect(ran.error?.message).toMatch(message);
    expect(ran.error?.message).not.toContain("\n");
    expect(readdirSync(downloads)).toEqual([]);
    expect(versionOf(path)).toBe(before);
  });

  it("names the nearest places it knows when it cannot read the place", async () => {
    const [path, downloads] = [await servedFile(), newDir()];
    const ran = await venues(["osm", "Hamburgg", "--endpoint", await overpass()], path, downloads);
    expect(ran.error?.message).toMatch(
      /no city, region or country is called "Hamburgg"; the nearest names known: Hamburg/,
    );
    expect(server?.requests).toEqual([]);
    expect(existsSync(join(downloads, "osm-hamburg-de.json"))).toBe(false);
  });
});
