/**
 * The data credits (docs/api.md#data-credits): the OpenAPI document's info and the search page's
 * footer credit GeoNames always, OpenStreetMap and MusicBrainz when the import's venue sources
 * (meta `venue_sources`) name them; every source when the database cannot say.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { forgetDataVersion } from "../../src/cache/data-version.ts";
import { callWith } from "./helpers.ts";
import { failingDb } from "./openapi-check.ts";

interface Info {
  description: string;
  license: { name: string };
  "x-data-credits": { name: string; licence: string }[];
}

const info = async (overrides = {}) =>
  ((await (await callWith(overrides, "/1.0/openapi.json")).json()) as { info: Info }).info;

const footer = async (overrides = {}) =>
  /<footer id="credits">(.*)<\/footer>/.exec(await (await callWith(overrides, "/")).text())?.[1] ?? "";

const meta = (key: string, value: string) =>
  env.DB.prepare("UPDATE meta SET value = ? WHERE key = ?").bind(value, key).run();

/** An import of other venue sources: a new data version, as a re-import writes. */
async function imported(venueSources: string): Promise<void> {
  await meta("venue_sources", venueSources);
  await meta("data_version", `fixture-credits-${venueSources}`);
  forgetDataVersion();
}

const seeded = await env.DB.prepare(
  "SELECT (SELECT value FROM meta WHERE key = 'venue_sources') AS sources, (SELECT value FROM meta WHERE key = 'data_version') AS version",
).first<{ sources: string; version: string }>();

afterEach(async () => {
  vi.restoreAllMocks();
  await meta("venue_sources", seeded?.sources ?? "");
  await meta("data_version", seeded?.version ?? "");
  forgetDataVersion();
});

describe("data credits", () => {
  it("GeoNames alone for the fixture's venues (a file's)", async () => {
    const { description, license, "x-data-credits": credits } = await info();
    expect(credits.map((c) => `${c.name} (${c.licence})`)).toEqual(["GeoNames (CC BY 4.0)"]);
    expect(description).toMatch(/ Cities and their names: GeoNames \(CC BY 4\.0\)\.$/);
    expect(license.name).toBe("Data: GeoNames, CC BY 4.0");
    expect(await footer()).toBe(
      'Cities and their names: <a href="https://www.geonames.org/">GeoNames</a> ' +
        '(<a href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>).',
    );
  });

  it("OpenStreetMap contributors (ODbL) and MusicBrainz when the import took venues from them", async () => {
    await imported("generated,musicbrainz,openstreetmap");
    const { description, "x-data-credits": credits } = await info();
    expect(credits.map((c) => `${c.name} (${c.licence})`)).toEqual([
      "GeoNames (CC BY 4.0)",
      "© OpenStreetMap contributors (ODbL)",
      "MusicBrainz (CC0)",
    ]);
    expect(description).toMatch(
      / Venues: © OpenStreetMap contributors \(ODbL\), MusicBrainz \(CC0\)\. Some venues are generated examples, not real places\.$/,
    );
    const html = await footer();
    expect(html).toContain(
      'Venues: <a href="https://www.openstreetmap.org/copyright">© OpenStreetMap contributors</a> ' +
        '(<a href="https://opendatacommons.org/licenses/odbl/">ODbL</a>), <a href="https://musicbrainz.org/">MusicBrainz</a>',
    );
  });

  it("only the sources used: OpenStreetMap alone, generated venues said to be so", async () => {
    await imported("openstreetmap");
    expect((await info())["x-data-credits"].map((c) => c.name)).toEqual(["GeoNames", "© OpenStreetMap contributors"]);
    await imported("generated");
    expect(await footer()).toMatch(/\. Venues are generated examples\.$/);
  });

  it("says on one line of the page, while every venue is a generated example, how to fetch real ones", async () => {
    const line = async () => /<p id="examples" role="note">(.*)<\/p>/.exec(await (await callWith({}, "/")).text())?.[1];
    await imported("generated");
    expect(await line()).toBe(
      "The venues here are generated examples, not real places: <code>npm run venues -- osm &#34;Your City&#34;</code> fetches real ones.",
    );
    await imported("generated,openstreetmap");
    expect(await line()).toBeUndefined();
  });

  it("every source, and the documents served all the same, when the database cannot say", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const broken = { DB: failingDb("no such table: meta") };
    expect((await callWith(broken, "/")).status).toBe(200);
    expect((await info(broken))["x-data-credits"].map((c) => c.name)).toEqual([
      "GeoNames",
      "© OpenStreetMap contributors",
      "MusicBrainz",
    ]);
    expect(logged).toHaveBeenCalledWith("the venue sources cannot be read; crediting every source", expect.anything());
  });
});
