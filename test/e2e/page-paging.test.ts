/**
 * The pager under the results at a desktop's size and a phone's: "Next →" and "← Previous" show the
 * new page from its start, as a new page opens, the focus on the list (it stayed at the pager, the
 * view at the new page's end, its first result far above).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browserPerFile, openPage, SIZES, statusSays } from "./browser.ts";

const browser = browserPerFile();

/** Turns the page with the pager's button, as a person does, and waits for the page it asks for. */
async function turn(page: Page, button: "Next →" | "← Previous", to: number): Promise<void> {
  await page.getByRole("button", { name: button }).click();
  await page.waitForURL((url) => url.searchParams.get("p") === (to === 1 ? null : String(to)));
  await page.waitForFunction((n) => document.querySelector("#pageinfo")?.textContent?.startsWith(`Page ${n} of`), to);
}

/** Where the first result is in the window (CSS pixels), and the window's height. */
const firstResult = (page: Page) =>
  page
    .locator("#results li")
    .first()
    .evaluate((li) => {
      const { top, bottom } = li.getBoundingClientRect();
      return { top, bottom, height: window.innerHeight, name: li.querySelector(".name")?.textContent ?? "" };
    });

/** The first result within the window, the focus on the results' list. */
async function expectStart(page: Page): Promise<string> {
  const first = await firstResult(page);
  expect(first.top, "the first result's top, in view").toBeGreaterThanOrEqual(0);
  expect(first.bottom, "the first result's bottom, in view").toBeLessThanOrEqual(first.height);
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("results");
  return first.name;
}

describe.each(SIZES)("the pager ($screen)", ({ viewport }) => {
  it("shows the new page from its first result, Next and Previous alike", async () => {
    const page = await openPage(browser(), { viewport }, base(), "/?type=venues&name=arena");
    await statusSays(page, /^[\d,]+ venues named arena/);
    const one = await page.locator("#results li .name").first().textContent();
    await turn(page, "Next →", 2);
    const two = await expectStart(page);
    expect(two).not.toBe(one);
    await turn(page, "Next →", 3);
    await expectStart(page);
    await turn(page, "← Previous", 2);
    expect(await expectStart(page)).toBe(two);
    await page.context().close();
  });
});
