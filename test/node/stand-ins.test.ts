/**
 * The stand-in servers (test/support/stand-ins/) behave as the Overpass API and the MusicBrainz
 * JSON dumps are documented to, and the fixtures in test/fixtures/fetch/ read as each source's
 * format through the importer's own readers.
 */
import { request } from "node:http";
import { readFileSync } from "node:fs";
import { describe, expect, it, onTestFinished } from "vitest";
import { startOverpass, type OverpassElement, type OverpassOptions } from "../support/stand-ins/overpass.ts";
import { fixture } from "../support/seed.ts";

const UA = "venue-city-search-tests/1.0 (stand-in test)";
const ELEMENTS = (
  JSON.parse(readFileSync(fixture("fetch/overpass-berlin.json"), "utf8")) as { elements: OverpassElement[] }
).elements;
const AREAS: OverpassOptions["areas"] = {
  DE: [47.27, 5.87, 55.06, 15.04],
  US: [24.52, -124.77, 49.38, -66.95],
  "US-OR": [41.99, -124.57, 46.29, -116.46],
};
const VENUE_TAGS = 'nwr["amenity"~"^(nightclub|music_venue|concert_hall|theatre|arts_centre|events_venue)$"]';

async function overpass(options: OverpassOptions = {}) {
  const server = await startOverpass({ elements: ELEMENTS, areas: AREAS, ...options });
  onTestFinished(() => server.close());
  return server;
}

const countryQuery = (area: string, extra = "") =>
  `[out:json][timeout:180];\n${area}->.a;\n(\n  ${VENUE_TAGS}(area.a)${extra};\n  nwr["leisure"="stadium"](area.a)${extra};\n);\nout center tags;`;

const interpret = (url: string, query: string) =>
  fetch(`${url}interpreter`, {
    method: "POST",
    headers: { "User-Agent": UA, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ data: query }),
  });

const names = (answer: { elements: OverpassElement[] }) => answer.elements.map((e) => e.tags?.name);

/** osmnx's `_get_overpass_pause`: line 5 of /api/status is the slots line. */
function osmnxPause(status: string, now: number): number | "busy" | "unreadable" {
  const line = status.split("\n")[4] ?? "";
  const first = line.split(" ")[0] ?? "";
  if (/^\d+$/.test(first)) return 0;
  if (first === "Currently") return "busy";
  const at = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ),$/.exec(line.split(" ")[3] ?? "");
  if (first !== "Slot" || at === null) return "unreadable";
  return Math.max(Math.ceil((Date.parse(at[1] ?? "") - now) / 1000), 1);
}

describe("Overpass stand-in: /api/status", () => {
  it("prints the status page line for line, free slots on line 5", async () => {
    const server = await overpass();
    const response = await fetch(`${server.url}status`, { headers: { "User-Agent": UA } });
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const lines = (await response.text()).split("\n");
    expect(lines[0]).toBe("Connected as: 2130706433");
    expect(lines[1]).toMatch(/^Current time: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(lines.slice(2)).toEqual([
      "Announced endpoint: none",
      "Rate limit: 2",
      "2 slots available now.",
      "Currently running queries (pid, space limit, time limit, start time):",
      "",
    ]);
    expect(osmnxPause(lines.join("\n"), Date.now())).toBe(0);
  });

  it("lists a running query (TAB-separated) and one slot fewer", async () => {
    const server = await overpass({ delayMs: 300 });
    const running = interpret(server.url, countryQuery('area["ISO3166-1"="DE"][admin_level=2]'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const status = await (await fetch(`${server.url}status`, { headers: { "User-Agent": UA } })).text();
    expect(status.split("\n")[4]).toBe("1 slots available now.");
    expect(status.split("\n")[6]).toMatch(/^\d+\t536870912\t180\t\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await running).status).toBe(200);
  });
});

describe("Overpass stand-in: the interpreter", () => {
  it("answers an area query with the area's elements only, as Overpass prints JSON", async () => {
    const server = await overpass();
    const response = await interpret(server.url, countryQuery('area["ISO3166-1"="DE"][admin_level=2]'));
    expect(response.headers.get("content-type")).toBe("application/json");
    const text = await response.text();
    const answer = JSON.parse(text) as {
      generator: string;
      osm3s: Record<string, string>;
      elements: OverpassElement[];
    };
    expect(answer.generator).toMatch(/^Overpass API 0\.7\.\d+ [0-9a-f]{8}$/);
    expect(Object.keys(answer.osm3s)).toEqual(["timestamp_osm_base", "timestamp_areas_base", "copyright"]);
    expect(answer.elements).toHaveLength(21);
    expect(names(answer)).toEqual(expect.arrayContaining(["Berghain", "Elbphilharmonie", "Olympiastadion Berlin"]));
    expect(names(answer)).not.toContain("Crystal Ballroom");
    expect(names(answer)).not.toContain("Zur letzten Instanz");
    expect(text).toContain('{\n  "type": "node",\n  "id": 4100000101,\n  "lat": 52.5111000,\n  "lon": 13.4430000,');
    expect(text).toContain('"center": {\n    "lat": 52.4839000,\n    "lon": 13.3912000\n  }');
    expect(text.endsWith("}\n\n  ]\n}\n")).toBe(true);
  });

  it("reads a state's area, a raw body, bounding boxes and the global bbox", async () => {
    const server = await overpass();
    const oregon = await interpret(server.url, countryQuery('area["ISO3166-2"="US-OR"]'));
    expect(names((await oregon.json()) as { elements: OverpassElement[] }).sort()).toEqual([
      "Crystal Ballroom",
      "Moda Center",
      "Roseland Theater",
    ]);
    const raw = `[out:json][timeout:25][bbox:52.3,13.0,52.7,13.8];\n(node["amenity"="nightclub"];);\nout center tags;`;
    const response = await fetch(`${server.url}interpreter`, {
      method: "POST",
      headers: { "User-Agent": UA },
      body: raw,
    });
    const clubs = (await response.json()) as { osm3s: object; elements: OverpassElement[] };
    expect(names(clubs)).toEqual(["Berghain", "SO36", undefined]);
    expect(clubs.osm3s).not.toHaveProperty("timestamp_areas_base");
    const hamburg = `[out:json];(nwr["addr:city"="Hamburg"](53.5,9.9,53.6,10.1););out center tags;`;
    const box = await interpret(server.url, hamburg);
    expect(names((await box.json()) as { elements: OverpassElement[] })).toEqual([
      "Große Freiheit 36",
      "Elbphilharmonie",
    ]);
    expect(server.requests.map((r) => r.userAgent)).toEqual([UA, UA, UA]);
    expect(server.requests[1]?.query).toBe(raw);
  });
});

describe("Overpass stand-in: errors in the answer", () => {
  it("refuses other QL with a 400 HTML page naming the line", async () => {
    const server = await overpass();
    const response = await interpret(server.url, "[out:json];\nnode(52,13,53,14)\nout;");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await response.text()).toContain(
      `<p><strong style="color:#FF0000">Error</strong>: line 3: parse error: ';' expected - 'out' found. </p>`,
    );
    const geom = await interpret(server.url, '[out:json];node["amenity"="bar"](52,13,53,14);out geom;');
    expect(await geom.text()).toContain('parse error: Invalid parameter for print: "geom"');
  });

  it("gives a runtime-error remark and no elements for too large an extent", async () => {
    const server = await overpass({ maxExtentDeg2: 20 });
    const country = countryQuery('area["ISO3166-1"="DE"][admin_level=2]');
    const timedOut = await interpret(server.url, country);
    expect(timedOut.status).toBe(200);
    const text = await timedOut.text();
    expect(text).toContain(
      '  "elements": [\n\n\n\n  ],\n"remark": "runtime error: Query timed out in \\"query\\" at line 4',
    );
    expect(JSON.parse(text)).toMatchObject({ elements: [], remark: expect.stringMatching(/after 180 seconds\.$/) });
    const tile = await interpret(server.url, countryQuery('area["ISO3166-1"="DE"][admin_level=2]', "(52,13,54,15)"));
    expect((await tile.json()) as object).not.toHaveProperty("remark");
    const memory = await overpass({ maxExtentDeg2: 20, tooLarge: "memory" });
    expect((await (await interpret(memory.url, country)).json()) as object).toMatchObject({
      remark: expect.stringMatching(
        /^runtime error: Query ran out of memory in "query" at line 4\. It would need at least \d+ MB/,
      ),
    });
  });

  it("streams the answer in several chunks", async () => {
    const server = await overpass();
    const response = await interpret(server.url, countryQuery('area["ISO3166-1"="DE"][admin_level=2]'));
    let chunks = 0;
    for await (const chunk of response.body ?? []) chunks += chunk.length > 0 ? 1 : 0;
    expect(chunks).toBeGreaterThan(1);
  });
});

describe("Overpass stand-in: refusals and faults", () => {
  it("answers 429 (HTML, no Retry-After) while /api/status shows when a slot frees, then 200", async () => {
    const server = await overpass({ rateLimited: 1 });
    const query = countryQuery('area["ISO3166-1"="DE"][admin_level=2]');
    const refused = await interpret(server.url, query);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(await refused.text()).toContain(
      "Error</strong>: runtime error: open64: 0 Success /osm3s_osm_base Dispatcher_Client::request_read_and_idx::rate_limited. Please check /api/status for the quota of your IP address. </p>",
    );
    const status = () => fetch(`${server.url}status`, { headers: { "User-Agent": UA } }).then((r) => r.text());
    const blocked = await status();
    expect(blocked.split("\n")[4]).toMatch(
      /^Slot available after: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ, in [12] seconds\.$/,
    );
    expect(blocked.split("\n")[5]).toMatch(/^Slot available after: /);
    expect(osmnxPause(blocked, Date.now())).toBeOneOf([1, 2]);
    expect((await interpret(server.url, query)).status).toBe(200);
    let free = blocked;
    for (let i = 0; i < 40 && !free.includes("2 slots available now."); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      free = await status();
    }
    expect(free.split("\n")[4]).toBe("2 slots available now.");
  });

  it("sends Retry-After when asked, 504 pages, an HTML 200 and a cut JSON answer", async () => {
    const query = countryQuery('area["ISO3166-1"="DE"][admin_level=2]');
    const retry = await overpass({ rateLimited: 1, retryAfterSeconds: 30 });
    expect((await interpret(retry.url, query)).headers.get("retry-after")).toBe("30");
    const busy = await overpass({ gatewayTimeouts: 1 });
    const timeout = await interpret(busy.url, query);
    expect(timeout.status).toBe(504);
    expect(await timeout.text()).toContain("::timeout. The server is probably too busy to handle your request. </p>");
    expect((await interpret(busy.url, query)).status).toBe(200);
    const html = await interpret((await overpass({ answer: "html" })).url, query);
    expect([html.status, html.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
    const cut = await interpret((await overpass({ answer: "truncated" })).url, query);
    await expect(cut.text()).rejects.toThrow();
  });

  it("counts interpreter requests in flight, and refuses a request without a User-Agent (406)", async () => {
    const server = await overpass({ delayMs: 80 });
    const query = countryQuery('area["ISO3166-2"="US-OR"]');
    // One at a time: each answer read to its end before the next request.
    for (let i = 0; i < 2; i++) await (await interpret(server.url, query)).text();
    expect(server.maxConcurrent).toBe(1);
    await Promise.all([1, 2, 3].map(async () => (await interpret(server.url, query)).text()));
    expect(server.maxConcurrent).toBe(3);
    const [first] = server.requests;
    expect(first?.endedAt ?? 0).toBeGreaterThanOrEqual((first?.startedAt ?? 0) + 80);
    const status = await new Promise<number>((resolve, reject) => {
      const r = request(`${server.url}status`, (response) => resolve(response.resume().statusCode ?? 0));
      r.on("error", reject);
      r.end();
    });
    expect(status).toBe(406);
  });
});
