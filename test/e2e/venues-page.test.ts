/**
 * Real venues in one command, end to end (docs/import.md#fetching-real-venues): `npm run venues --
 * osm Berlin` and `npm run venues -- musicbrainz` against the stand-in servers on 127.0.0.1, into a
 * local D1 state of this file's own (GeoNames rows of test/fixtures/cities-places.txt), served by a
 * `wrangler dev` (port 8797): the page finds each venue by its names in Berlin, credits
 * OpenStreetMap and MusicBrainz, and says no more that the venues are examples; a setlist.fm id
 * finds its venue.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runImport } from "../../scripts/import/run.ts";
import { FAST } from "../../scripts/import/publish/steps.ts";
import { Progress } from "../../scripts/import/progress.ts";
import { startDevServer, type DevServer } from "../../scripts/tools/dev-server.ts";
import { parseVenuesArgs } from "../../scripts/venues/cli.ts";
import { runVenues } from "../../scripts/venues/run.ts";
import { buildPlaceTarXz, startMusicBrainzDump } from "../support/stand-ins/musicbrainz-dump.ts";
import { startOverpass, type OverpassOptions } from "../support/stand-ins/overpass.ts";
import { errors, launch, openPage } from "./browser.ts";

const PORT = 8797;
const STATE = mkdtempSync(join(tmpdir(), "vcs-venues-page-"));
const DOWNLOADS = mkdtempSync(join(tmpdir(), "vcs-venues-page-downloads-"));
const fixture = (name: string) => join(import.meta.dirname, "..", "fixtures", name);
const quiet = new Progress(process.stderr, true);
const BERGHAIN = "84732718"; // the setlist.fm id mbdump-place.jsonl links Berghain's page with

let server: DevServer | undefined;
let browser: Browser;
let page: Page;

async function fetchVenues(): Promise<void> {
  const answer = JSON.parse(readFileSync(fixture("fetch/overpass-berlin.json"), "utf8")) as OverpassOptions;
  const overpass = await startOverpass({ elements: answer.elements ?? [], areas: { DE: [47.27, 5.87, 55.06, 15.04] } });
  const lines = readFileSync(fixture("fetch/mbdump-place.jsonl"), "utf8").split("\n");
  const dumps = await startMusicBrainzDump({
    folders: [{ name: "20261125-001001", files: { "place.tar.xz": await buildPlaceTarXz(lines) } }],
  });
  const common = ["--persist-to", STATE, "--dir", DOWNLOADS, "--pause", "0"];
  try {
    await runVenues(parseVenuesArgs(["osm", "Berlin", "--endpoint", overpass.url, ...common]), quiet);
    await runVenues(parseVenuesArgs(["musicbrainz", "--mirror", dumps.url, ...common]), quiet);
  } finally {
    await overpass.close();
    await dumps.close();
  }
}

beforeAll(async () => {
  const target = { kind: "local" as const, persistTo: STATE };
  await runImport({ cities: fixture("cities-places.txt"), venueCount: 50, target, pacing: FAST }, quiet);
  await fetchVenues();
  server = await startDevServer({ port: PORT, args: ["--persist-to", STATE], probe: "/1.0/openapi.json" });
  browser = await launch();
  page = await openPage(browser, {}, server.base);
}, 300_000);

afterAll(async () => {
  await browser.close();
  server?.stop();
  rmSync(STATE, { recursive: true, force: true });
  rmSync(DOWNLOADS, { recursive: true, force: true });
});

afterEach(() => {
  expect(errors).toEqual([]);
});

/** Searches venues for `name` on the page; the first record it lists. */
async function firstVenue(name: string): Promise<string | null> {
  const answer = page.waitForResponse(
    (r) => r.url().includes("/1.0/search/venues") && new URL(r.url()).searchParams.get("name") === name,
  );
  await page.getByLabel("Venues", { exact: true }).check();
  await page.getByLabel("Name", { exact: true }).fill(name);
  const body = (await (await answer).json()) as { venue: { name: string }[] };
  const shown = body.venue[0]?.name ?? "";
  await page.waitForFunction((text) => document.querySelector("#results li .name")?.textContent === text, shown);
  return page.locator("#results li .name").first().textContent();
}

describe("venues fetched in one command, on the page", () => {
  it.each([
    ["berghain", "Berghain"],
    ["mercedes-benz arena", "Uber Arena"], // its old name on OpenStreetMap
    ["so36", "SO36"],
  ])("%s shows %s", async (name, shown) => {
    expect(await firstVenue(name)).toBe(shown);
  });

  it("credits OpenStreetMap and MusicBrainz, and no longer calls the venues examples", async () => {
    const footer = (await page.locator("#credits").textContent()) ?? "";
    expect(footer).toContain("OpenStreetMap");
    expect(footer).toContain("MusicBrainz");
    expect(await page.getByText("generated examples").count()).toBe(0);
  });

  it("finds a venue by the setlist.fm id its MusicBrainz place links", async () => {
    const res = await fetch(`${server?.base ?? ""}/1.0/venue/${BERGHAIN}`, { headers: { Accept: "application/json" } });
    expect(res.status).toBe(200);
    const venue = (await res.json()) as { id: string; name: string; url: string; city: { name: string } };
    expect(venue).toMatchObject({ id: BERGHAIN, name: "Berghain", city: { name: "Berlin" } });
    expect(venue.url).toMatch(/^https:\/\/www\.setlist\.fm\/venue\/berghain-berlin-germany-84732718\.html$/);
  });
});
