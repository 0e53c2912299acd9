/**
 * Every name a venue has, and a place in the text (docs/api.md#every-name-a-venue-has,
 * #a-place-in-the-text), end to end: hand-made files in each source's shape (an Overpass answer
 * with Japanese, Russian and Greek names and their `name:*`, `alt_name`, `old_name` tags; MusicBrainz
 * dump lines with `aliases`; this service's CSV and NDJSON with other names) imported among real
 * GeoNames rows (test/fixtures/cities-places.txt: every row of cities500.txt named Paris, Portland,
 * Springfield, London, Berlin, … and the cities of the venues) with the full country, admin-1 and
 * localized-name files, then asked through `wrangler dev` (its own local D1 state, port 8797,
 * 127.0.0.1): JSON, XML, lookups, languages, headers.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create } from "xmlbuilder2";
import { runImport, type ImportSummary } from "../../scripts/import/run.ts";
import { FAST } from "../../scripts/import/publish/steps.ts";
import { startDevServer, type DevServer } from "../../scripts/tools/dev-server.ts";
import { quiet } from "../support/import-fixtures.ts";
import { fixture } from "../support/seed.ts";

const PORT = 8797;
const STATE = mkdtempSync(join(tmpdir(), "vcs-names-"));
const NAMES = ["world.overpass.json", "place", "rows.csv", "rows.ndjson"].map((f) => fixture(`names/${f}`));

let server: DevServer | undefined;
let summary: ImportSummary;

beforeAll(async () => {
  summary = await runImport(
    { cities: fixture("cities-places.txt"), venues: NAMES, target: { kind: "local", persistTo: STATE }, pacing: FAST },
    quiet,
  );
  server = await startDevServer({ port: PORT, args: ["--persist-to", STATE], probe: "/1.0/openapi.json" });
}, 300_000);

afterAll(() => {
  server?.stop();
  rmSync(STATE, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Headers;
  body: { venue?: { id: string; name: string; city?: { name: string } }[]; cities?: { id: string; name: string }[] };
}

async function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${server?.base ?? ""}${path}`, { headers: { Accept: "application/json", ...headers } });
  return {
    status: res.status,
    headers: res.headers,
    body: res.status === 200 ? ((await res.json()) as Answer["body"]) : {},
  };
}

const venues = (name: string) => get(`/1.0/search/venues?name=${encodeURIComponent(name)}`);
const cities = (name: string) => get(`/1.0/search/cities?name=${encodeURIComponent(name)}`);

/** Each name a person may type, the venue it must find, and the name shown for it. */
const EVERY_NAME: [string, string, string][] = [
  ["budokan", "osm-way-5001", "Nippon Budokan"],
  ["nippon budokan", "osm-way-5001", "Nippon Budokan"],
  ["日本武道館", "osm-way-5001", "Nippon Budokan"],
  ["nippon budo", "osm-way-5001", "Nippon Budokan"],
  ["tokyo dome", "d4f1c5e0-7d1b-4a3c-9a55-1b2c3d4e5f01", "Tokyo Dome"],
  ["東京ドーム", "d4f1c5e0-7d1b-4a3c-9a55-1b2c3d4e5f01", "Tokyo Dome"],
  ["big egg", "d4f1c5e0-7d1b-4a3c-9a55-1b2c3d4e5f01", "Tokyo Dome"],
  ["hammersmith odeon", "osm-way-5004", "Eventim Apollo"],
  ["hammersmith apollo", "osm-way-5004", "Eventim Apollo"],
  ["luzhniki", "osm-relation-5002", "Luzhniki Stadium"],
  ["лужники", "osm-relation-5002", "Luzhniki Stadium"],
  ["central lenin stadium", "osm-relation-5002", "Luzhniki Stadium"],
  ["Ωδείο Ηρώδου", "osm-node-5003", "Odeon of Herodes Atticus"],
  ["herodeon", "osm-node-5003", "Odeon of Herodes Atticus"],
  ["κυτταρο", "e2b7c1a0-3f4d-4b6e-8a9c-0d1e2f3a4b01", "Kyttaro Live Club"],
  ["крокус", "9b1e8a3c-5d2f-4e7a-b6c8-1f2e3d4c5b01", "Crocus City Hall"],
  ["klub stodola", "osm-node-5005", "Klub Stodoła"],
  ["bolgen kulturhus", "osm-node-5006", "Bølgen Kulturhus"],
  ["grosses festspielhaus", "osm-node-5007", "Großes Festspielhaus"],
  ["great festival hall", "osm-node-5007", "Großes Festspielhaus"],
  ["haerverk", "osm-node-5008", "Kafé Hærverk"],
  ["saint pauli theater", "osm-node-5009", "St. Pauli Theater"],
  ["rock and roll hotel", "own-001", "Rock & Roll Hotel"],
  ["mount tabor", "own-002", "Mt. Tabor Theater"],
  ["fort worth coliseum", "own-003", "Ft. Worth Stockyards Coliseum"],
  ["olympiahalle muenchen", "own-010", "Münchner Olympiahalle"],
  ["arene de saint louis", "own-011", "Saint-Louis Arena"],
];

describe("every name a venue has", () => {
  it("is kept by the import, counted per file", () => {
    const names = Object.fromEntries(summary.counts.venueFiles.map((r) => [r.file, r.names]));
    // Overpass: the own name when another is shown, name:* in other scripts and languages, alt, old,
    // official and short names (a name:ja-Latn that normalizes as the shown name is not counted
    // again); MusicBrainz: the own name and the aliases; rows: their other names.
    expect(names).toEqual({ "world.overpass.json": 15, place: 9, "rows.csv": 3, "rows.ndjson": 4 });
    // The Budokan of OpenStreetMap and of MusicBrainz are one venue (the same shown name within 250 m).
    expect(summary.counts.venues).toBe(17);
  });

  it.each(EVERY_NAME)("%s finds %s, shown as %s", async (name, id, shown) => {
    const { status, body, headers } = await venues(name);
    expect(status).toBe(200);
    expect(body.venue?.map((v) => [v.id, v.name])).toEqual([[id, shown]]);
    expect(headers.get("X-Match")).toBe("exact");
  });

  it("counts a venue found by several of its names once, and forgives typos in any of them", async () => {
    const { body } = await venues("stadium");
    expect(body.venue?.filter((v) => v.id === "osm-relation-5002")).toHaveLength(1);
    const typo = await venues("hammersmiht odeon");
    expect(typo.headers.get("X-Match")).toBe("fuzzy");
    expect(typo.body.venue?.[0]?.id).toBe("osm-way-5004");
  });

  it("shows the same name in XML and in a lookup; the caller's language when the source names it so", async () => {
    const xml = await fetch(`${server?.base ?? ""}/1.0/search/venues?name=budokan`, {
      headers: { Accept: "application/xml" },
    });
    const doc = create(await xml.text()).end({ format: "object" }) as { venues: { venue: { "@name": string } } };
    expect(doc.venues.venue["@name"]).toBe("Nippon Budokan");
    expect((await get("/1.0/venue/osm-relation-5002")).body).toMatchObject({ name: "Luzhniki Stadium" });
    const german = await get("/1.0/venue/osm-relation-5002", { "Accept-Language": "de" });
    expect(german.body).toMatchObject({ name: "Luschniki-Stadion" });
    const french = await get("/1.0/search/venues?name=herodeon", { "Accept-Language": "fr" });
    expect(french.body.venue?.[0]?.name).toBe("Odéon d'Hérode Atticus");
    // "Eventim Apollo" is written in Latin: its name:de does not replace it, nor does a Japanese name:de.
    expect((await get("/1.0/venue/osm-way-5004", { "Accept-Language": "de" })).body).toMatchObject({
      name: "Eventim Apollo",
    });
    expect((await get("/1.0/venue/osm-way-5001", { "Accept-Language": "de" })).body).toMatchObject({
      name: "Nippon Budōkan",
    });
  });
});

describe("a place in the text", () => {
  it.each([
    ["Paris, TX", "4717560", "country=US&name=paris&stateCode=TX"],
    ["paris texas", "4717560", "country=US&name=paris&stateCode=TX"],
    ["London Ontario", "6058560", "country=CA&name=london&stateCode=08"],
    ["London, ON", "6058560", "country=CA&name=london&stateCode=08"],
    ["london uk", "2643743", "country=GB&name=london"],
    ["Berlin, Germany", "2950159", "country=DE&name=berlin"],
    ["Springfield, IL", "4250542", "country=US&name=springfield&stateCode=IL"],
    ["Springfield, IL, USA", "4250542", "country=US&name=springfield&stateCode=IL"],
    ["St. Petersburg, FL", "4171563", "country=US&name=st%20petersburg&stateCode=FL"],
    ["Mt Pleasant, SC", "4588165", "country=US&name=mt%20pleasant&stateCode=SC"],
    ["Shanghai, China", "1796236", "country=CN&name=shanghai"],
    ["Vancouver, WA", "5814616", "country=US&name=vancouver&stateCode=WA"],
    ["toronto, ca", "6167865", "country=CA&name=toronto"],
    ["Portland, OR", "5746545", "country=US&name=portland&stateCode=OR"],
    ["Portland Maine", "4975802", "country=US&name=portland&stateCode=ME"],
    ["Schöneberg, DE", "2836788", "country=DE&name=schoneberg"],
  ])("%s is city %s, read as %s", async (name, id, readAs) => {
    const { status, body, headers } = await cities(name);
    expect(status).toBe(200);
    expect(body.cities?.[0]?.id).toBe(id);
    expect(headers.get("X-Match")).toBe("place");
    expect(headers.get("X-Read-As")).toBe(readAs);
  });

  it("reads a venue's city, region or country after its name", async () => {
    const apollo = await venues("eventim apollo london");
    expect(apollo.body.venue?.[0]?.id).toBe("osm-way-5004");
    expect(apollo.headers.get("X-Read-As")).toBe("cityId=2643743&name=eventim%20apollo");
    const budokan = await venues("budokan tokyo japan");
    expect(budokan.body.venue?.[0]?.id).toBe("osm-way-5001");
    expect(budokan.headers.get("X-Read-As")).toBe("cityId=1850147&name=budokan");
  });

  it("keeps a name that is the text as typed, and reads nothing with places=0", async () => {
    expect((await cities("St. Petersburg")).headers.get("X-Match")).toBe("exact");
    const typed = await get(`/1.0/search/cities?name=${encodeURIComponent("Paris, TX")}&places=0&typos=0`);
    expect(typed.status).toBe(404);
  });

  it("forgives a typo in the name within the place the text names, never elsewhere", async () => {
    const shanghai = await cities("Shanghia, China");
    expect(shanghai.headers.get("X-Match")).toBe("fuzzy");
    expect(shanghai.headers.get("X-Read-As")).toBe("country=CN&name=shanghia");
    expect(shanghai.body.cities?.[0]?.id).toBe("1796236");
    const london = await cities("Londn, ON");
    expect(london.body.cities?.map((c) => c.id)).toEqual(["6058560"]);
    // No Paris lies in Turks and Caicos: nothing, rather than some other Paris.
    expect((await cities("Paris, TC")).status).toBe(404);
  });
});

describe("wrangler dev as the project starts it", () => {
  it("keeps no trace of the requests it answered (docs/benchmarks.md#wrangler-devs-local-traces)", async () => {
    expect((await cities("paris")).status).toBe(200);
    // wrangler's local observability writes each request's trace under the state's v3/observability.
    expect(existsSync(join(STATE, "v3", "d1"))).toBe(true);
    expect(existsSync(join(STATE, "v3", "observability"))).toBe(false);
  });
});
