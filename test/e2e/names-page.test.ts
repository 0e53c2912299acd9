/**
 * Every name a venue has, end to end to the page (docs/api.md#every-name-a-venue-has): the
 * hand-made Overpass, MusicBrainz and row files of test/fixtures/names/ imported among real GeoNames
 * rows into a local D1 state of their own, served by a `wrangler dev` of this file (port 8796,
 * 127.0.0.1), and searched on the page in Chromium by the venue's other names: the page shows the
 * name setlist.fm would show, in the language chosen, and the place it read after a name.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runImport } from "../../scripts/import/run.ts";
import { FAST } from "../../scripts/import/publish/steps.ts";
import { Progress } from "../../scripts/import/progress.ts";
import { startDevServer, type DevServer } from "../../scripts/tools/dev-server.ts";
import { errors, launch, openOptions, openPage } from "./browser.ts";

const PORT = 8796;
const STATE = mkdtempSync(join(tmpdir(), "vcs-names-page-"));
const fixture = (name: string) => join(import.meta.dirname, "..", "fixtures", name);
const NAMES = ["world.overpass.json", "place", "rows.csv", "rows.ndjson"].map((f) => fixture(`names/${f}`));

let server: DevServer | undefined;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  await runImport(
    { cities: fixture("cities-places.txt"), venues: NAMES, target: { kind: "local", persistTo: STATE }, pacing: FAST },
    new Progress(process.stderr, true),
  );
  server = await startDevServer({ port: PORT, args: ["--persist-to", STATE], probe: "/1.0/openapi.json" });
  browser = await launch();
  page = await openPage(browser, {}, server.base);
}, 300_000);

afterAll(async () => {
  await browser.close();
  server?.stop();
  rmSync(STATE, { recursive: true, force: true });
});

afterEach(() => {
  expect(errors).toEqual([]);
});

/** Searches venues for `name` and waits until the page shows its answer's first record: its name. */
async function firstVenue(name: string): Promise<string | null> {
  const answer = page.waitForResponse(
    (r) => r.url().includes("/1.0/search/venues") && new URL(r.url()).searchParams.get("name") === name,
  );
  await page.getByLabel("Name", { exact: true }).fill(name);
  const body = (await (await answer).json()) as { venue: { id: string; name: string }[] };
  const shown = body.venue[0]?.name ?? "";
  await page.waitForFunction((text) => document.querySelector("#results li .name")?.textContent === text, shown);
  return page.locator("#results li .name").first().textContent();
}

describe("the page, by every name a venue has", () => {
  it.each([
    ["budokan", "Nippon Budokan"],
    ["日本武道館", "Nippon Budokan"],
    ["big egg", "Tokyo Dome"],
    ["hammersmith odeon", "Eventim Apollo"],
    ["лужники", "Luzhniki Stadium"],
    ["herodeon", "Odeon of Herodes Atticus"],
  ])("%s shows %s", async (name, shown) => {
    await page.getByLabel("Venues", { exact: true }).check();
    expect(await firstVenue(name)).toBe(shown);
  });

  it("shows the name of the language chosen, where the source has one", async () => {
    await openOptions(page);
    await page.getByLabel("Names in", { exact: false }).selectOption("de");
    expect(await firstVenue("luzhniki")).toBe("Luschniki-Stadion");
    await openOptions(page);
    await page.getByLabel("Names in", { exact: false }).selectOption("en");
  });

  it("reads the city after a name: budokan tokyo", async () => {
    await firstVenue("budokan tokyo");
    await page.locator("#reading").waitFor();
    expect(await page.locator("#reading").textContent()).toMatch(
      /^Showing venues matching “budokan” in Tokyo, Japan — /,
    );
  });
});
