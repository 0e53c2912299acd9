/**
 * The status line says what was searched, its filters included (src/page/searched.ts), at a
 * desktop's size and a phone's: for a link opened (on a phone its form folded away, the City field
 * hidden), for a search put together in the form, and for one that finds nothing.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browserPerFile, openOptions, openPage, SIZES, statusSays } from "./browser.ts";

const browser = browserPerFile();

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** The API's total for a search (what the status line must count). */
async function apiTotal(path: string): Promise<number> {
  const response = await fetch(`${base()}${path}`, { headers: { Accept: "application/json" } });
  return ((await response.json()) as { total: number }).total;
}

/** The status line, once it says `pattern`: its whole text. */
async function statusOnce(page: Page, pattern: RegExp): Promise<string> {
  await statusSays(page, pattern);
  return (await page.locator("#status").textContent()) ?? "";
}

const CACHED = "( \\(cached\\))?";

describe.each(SIZES)("the status line ($screen)", ({ screen, viewport }) => {
  it("says what a link searched, its filters included, where the form hides them", async () => {
    const total = await apiTotal("/1.0/search/venues?name=arena&cityName=Berlin");
    expect(total).toBeGreaterThan(1);
    const page = await openPage(browser(), { viewport }, base(), "/?type=venues&name=arena&cityName=Berlin");
    const said = await statusOnce(page, /^[\d,]+ venues/);
    expect(said).toMatch(new RegExp(`^${total.toLocaleString("en")} venues named arena in Berlin${CACHED}\\.$`));
    // On a phone the form folded to its name: the line is where the filter is seen.
    expect(await field(page, "City").isVisible()).toBe(screen === "desktop");

    const cities = await apiTotal("/1.0/search/cities?name=paris&country=US");
    await page.goto(`${base()}/?type=cities&name=paris&country=US`);
    expect(await statusOnce(page, /^[\d,]+ cit/)).toMatch(
      new RegExp(`^${cities.toLocaleString("en")} (cities|city) named paris in US${CACHED}\\.$`),
    );
    await page.context().close();
  });

  it("says a search put together in the form, and one that finds nothing", async () => {
    const page = await openPage(browser(), { viewport });
    await field(page, "Name").fill("arena");
    await field(page, "Country").fill("DE");
    await field(page, "State").fill("Berlin");
    await field(page, "State").press("Enter");
    const total = await apiTotal("/1.0/search/venues?name=arena&country=DE&state=Berlin");
    expect(await statusOnce(page, /^[\d,]+ venues? named arena in Berlin, DE/)).toMatch(
      new RegExp(`^${total.toLocaleString("en")} venues? named arena in Berlin, DE${CACHED}\\.$`),
    );

    await openOptions(page);
    await field(page, "Spelling").selectOption("0");
    await field(page, "Name").fill("arenaxq");
    await field(page, "Name").press("Enter");
    expect(await statusOnce(page, /^No venues/)).toBe("No venues named arenaxq in Berlin, DE, exact names only.");
    await page.context().close();
  });
});
