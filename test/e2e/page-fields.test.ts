/**
 * The fields, at a desktop's size and a phone's: each carries the API's limit on a value (100
 * characters, src/params/search-params.ts), a search the API refuses (400) is explained in words
 * next to the field it is about, and no result line says a name twice.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserPerFile, openOptions, openPage, SIZES, statusSays } from "./browser.ts";

const browser = browserPerFile();

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const errorOf = (page: Page, id: string) => page.locator(`#${id}-error`);

describe.each(SIZES)("the fields ($screen)", ({ viewport }) => {
  it("take at most the API's 100 characters", async () => {
    const page = await openPage(browser(), { viewport });
    for (const label of ["Name", "City", "Country", "State"]) {
      await openOptions(page);
      expect(await field(page, label).getAttribute("maxlength"), label).toBe("100");
      await field(page, label).fill("x".repeat(150));
      expect((await field(page, label).inputValue()).length, label).toBe(100);
      await field(page, label).fill("");
    }
    await page.context().close();
  });

  it("explain a refusal in words next to the field", async () => {
    const page = await openPage(browser(), { viewport });
    // 300 characters of 9 bytes each, as sent: over the 2,048 bytes of a query string.
    for (const label of ["Country", "State", "Name"]) await field(page, label).fill("€".repeat(100));
    await statusSays(page, /^Not searched/);
    expect(await errorOf(page, "name").textContent()).toMatch(
      /^Too long all together: a search takes at most 2,048 bytes/,
    );
    expect(await errorOf(page, "name").isVisible()).toBe(true);
    expect(await field(page, "Name").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#status").textContent()).toBe("Not searched: see “Name”.");
    await openOptions(page);
    for (const label of ["Name", "Country", "State"]) await field(page, label).fill("");
    await statusSays(page, /^Type a name/);
    expect(await errorOf(page, "name").isVisible()).toBe(false);

    // A value over the limit, as a browser that ignores maxlength would send it.
    await field(page, "Name").fill("arena");
    await statusSays(page, /^[\d,]+ venues named arena/);
    await openOptions(page);
    await field(page, "City").evaluate((input: HTMLInputElement) => {
      input.value = "b".repeat(120);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await statusSays(page, /^Not searched: see “City”\.$/);
    expect(await errorOf(page, "city").textContent()).toBe("Too long: at most 100 characters.");
    expect(await errorOf(page, "city").isVisible()).toBe(true);
    expect(await field(page, "City").getAttribute("aria-describedby")).toBe("city-error");
    await field(page, "City").fill("berlin");
    await statusSays(page, /^([\d,]+|No) venues? named arena in [Bb]erlin/);
    expect(await errorOf(page, "city").isVisible()).toBe(false);
    expect(await field(page, "City").getAttribute("aria-invalid")).toBeNull();
    await page.context().close();
  });
});

/** Every result line's place: its parts after the result's name, each said once, none the name. */
async function expectNoRepeats(page: Page): Promise<number> {
  const lines = await page.locator("#results li").evaluateAll((items) =>
    items.map((li) => ({
      name: li.querySelector(".name")?.textContent ?? "",
      place: (li.querySelector(".meta")?.textContent ?? "").split(" · ").find((part) => !/km away$/.test(part)) ?? "",
    })),
  );
  for (const { name, place } of lines) {
    const words = [name, ...place.split(", ")].map((w) => w.toLowerCase());
    expect(new Set(words).size, `${name} | ${place}`).toBe(words.length);
  }
  return lines.length;
}

describe.each(SIZES)("a result line ($screen)", ({ viewport }) => {
  it("says each name once: Wien, Österreich", async () => {
    const page = await openPage(browser(), { viewport });
    await page.getByLabel("Cities", { exact: true }).check();
    await field(page, "Names in").selectOption("de");
    await field(page, "Name").fill("wien");
    await page.waitForFunction(() => document.querySelector("#results li .name")?.textContent === "Wien");
    expect(await page.locator("#results li .meta").first().textContent()).toMatch(/^Österreich( · |$)/);
    expect(await page.locator("#map path.result-marker").first().getAttribute("aria-label")).toBe("Wien — Österreich");
    expect(await expectNoRepeats(page)).toBeGreaterThan(10);
    await openOptions(page);
    await page.getByLabel("Venues", { exact: true }).check();
    await field(page, "Name").fill("arena");
    await statusSays(page, /^[\d,]+ venues named arena/);
    expect(await expectNoRepeats(page)).toBe(30);
    await page.context().close();
  });
});
