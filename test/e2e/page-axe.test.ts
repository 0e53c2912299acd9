/**
 * The page against axe-core's rules (as axe runs by default: WCAG 2 A and AA, and its best
 * practices), at a desktop's size and a phone's, in a light and a dark colour scheme: no violation
 * of impact "serious" or "critical", nor any of the rule `region` (content outside every landmark,
 * "moderate": the note that the venues are generated examples was), as the page opens, with results
 * shown (the list, the line of a place read in the name, the folded form on a phone, the map with its
 * markers and a popup), and with the name's suggestions open, one of them active.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AxeResults } from "axe-core";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserPerFile, leaveName, openPage, showMap, SIZES, statusSays } from "./browser.ts";

const browser = browserPerFile();

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** How long the map stays at rest before it is measured. */
const SETTLED_MS = 300;

/** Rules whose every violation counts, whatever its impact. */
const EVERY = new Set(["region"]);

/**
 * axe's serious and critical violations of the page as it is now, and those of EVERY's rules, each
 * as its rule, its help and the elements.
 */
async function violations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a <script>: the page's Content-Security-Policy refuses inline scripts.
  await page.evaluate(AXE);
  const results = await page.evaluate(() => (window as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run());
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical" || EVERY.has(v.id))
    .map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.map((node) => node.target.join(" ")).join(", ")}`);
}

/** A venue search whose name ends in a place read, its results on the map, the first one's popup open. */
async function showResults(page: Page): Promise<void> {
  await page.getByLabel("Name", { exact: true }).fill("club berlin");
  await leaveName(page); // its suggestions would push "Show map" down
  await statusSays(page, /^[\d,]+ venues named club berlin/);
  await page.waitForFunction(() => document.querySelector<HTMLElement>("#reading")?.hidden === false);
  await page.waitForFunction(() => / on the map\.$/.test(document.querySelector("#mapinfo")?.textContent ?? ""));
  await showMap(page);
  await page.getByRole("button", { name: "show on map" }).first().click();
  // Leaflet fades a popup in: measured half-faded, its text would be paler than it is.
  await page.waitForFunction(() => {
    const popup = document.querySelector(".leaflet-popup");
    return popup !== null && getComputedStyle(popup).opacity === "1";
  });
}

/**
 * Waits for the search the keystroke runs (the status line, emptied before it, says its answer)
 * and for Leaflet's fades: the popup of the results before it fades out, measured half-faded.
 */
async function searchedAgain(page: Page): Promise<void> {
  await statusSays(page, /^([\d,]+|No) venues /);
  await popupsSettled(page);
}

/**
 * The map at rest for SETTLED_MS: no animation running (Leaflet's zoom to a suggestion, a popup's
 * fade) and every popup fully faded in (one fading out is gone once it has). A popup opened at the
 * end of a zoom fades in after it, so a moment without animations is not yet rest: measured then,
 * its text was paler than it is (on a fast machine, 2026-12-04).
 */
async function popupsSettled(page: Page): Promise<void> {
  await page.evaluate(() => delete (window as { restSince?: number }).restSince);
  await page.waitForFunction(
    (settledMs) => {
      const w = window as { restSince?: number };
      const popups = [...document.querySelectorAll(".leaflet-popup")];
      const rest =
        document.getAnimations().every((a) => a.playState !== "running") &&
        popups.every((popup) => getComputedStyle(popup).opacity === "1");
      if (!rest) delete w.restSince;
      else w.restSince ??= performance.now();
      return rest && performance.now() - (w.restSince ?? Infinity) >= settledMs;
    },
    SETTLED_MS,
    { polling: 50 },
  );
}

describe.each(SIZES)("the page's accessibility ($screen)", ({ viewport }) => {
  it.each(["light", "dark"] as const)(
    "has no serious or critical axe violation, nor one of region, %s",
    async (colorScheme) => {
      const page = await openPage(browser(), { viewport, colorScheme });
      expect(await violations(page), "as the page opens").toEqual([]);
      await showResults(page);
      expect(await page.locator("#results li").count()).toBeGreaterThan(0);
      expect(await page.locator("#map path.result-marker").count()).toBeGreaterThan(0);
      expect(await violations(page), "with results").toEqual([]);
      const name = page.getByRole("combobox", { name: "Name", exact: true });
      await name.press("End"); // focused from elsewhere, the caret is put at the start
      await page.locator("#status").evaluate((status) => (status.textContent = ""));
      await name.press("Backspace");
      await page.getByRole("listbox", { name: "Suggestions" }).waitFor();
      await searchedAgain(page);
      await name.press("ArrowDown");
      expect(await name.getAttribute("aria-activedescendant")).not.toBeNull();
      await popupsSettled(page);
      expect(await violations(page), "with the suggestions open").toEqual([]);
      await page.context().close();
    },
  );
});
