/**
 * The name's list of suggestions and the mouse (src/page/pointer.ts), with real moves and clicks at
 * a desktop's size and a phone's: the list covers the fields under the name box; it stays open while
 * the mouse goes from the box onto an option, which a click chooses; it closes when the mouse
 * leaves the box and the list, and the field it covered then takes the click; a list that opens
 * under a mouse at rest lets that mouse's click through to the field under it; it closes when the
 * focus leaves the box.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browserPerFile, openPage, SIZES, statusSays } from "./browser.ts";

const browser = browserPerFile();

const nameBox = (page: Page) => page.getByRole("combobox", { name: "Name", exact: true });
const listbox = (page: Page) => page.getByRole("listbox", { name: "Suggestions" });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

interface Point {
  x: number;
  y: number;
}

/** The centre of what `label` names, in the window. */
async function centre(page: Page, label: string): Promise<Point> {
  const box = await field(page, label).boundingBox();
  if (box === null) throw new Error(`${label} is not shown`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Whether the list of suggestions is drawn over `point` (the list is drawn over the form). */
async function listOver(page: Page, point: Point): Promise<boolean> {
  const list = await listbox(page).boundingBox();
  if (list === null) return false;
  return point.x > list.x && point.x < list.x + list.width && point.y > list.y && point.y < list.y + list.height;
}

/** Types "arena" into the name box (focused already); waits for its list and for the search as you type. */
async function typeArena(page: Page): Promise<void> {
  await nameBox(page).pressSequentially("arena");
  await listbox(page).waitFor();
  await page.waitForURL(`${base()}/?type=venues&name=arena`);
  await statusSays(page, /^[\d,]+ venues/);
}

/** Checks that the field `label` has the focus, the list closed, and no suggestion was chosen. */
async function expectFieldTook(page: Page, label: string): Promise<void> {
  expect(await field(page, label).evaluate((input) => input === document.activeElement), label).toBe(true);
  expect(await listbox(page).isVisible()).toBe(false);
  expect(await nameBox(page).getAttribute("aria-expanded")).toBe("false");
  expect(page.url()).toBe(`${base()}/?type=venues&name=arena`);
  expect(await nameBox(page).inputValue()).toBe("arena");
}

describe.each(SIZES)("the list of suggestions and the mouse ($screen)", ({ viewport }) => {
  it("stays open from the box to an option, whose click chooses it", async () => {
    const page = await openPage(browser(), { viewport });
    await nameBox(page).click();
    await typeArena(page);
    const option = listbox(page).getByRole("option").nth(1);
    const chosen = (await option.locator(".name").textContent()) ?? "";
    const target = await option.boundingBox();
    if (target === null) throw new Error("no second option");
    // Down across the strip between the box and the list, a few pixels at a time.
    await page.mouse.move(target.x + 20, target.y + target.height / 2, { steps: 25 });
    expect(await listbox(page).isVisible()).toBe(true);
    await page.mouse.down();
    await page.mouse.up();
    await page.waitForURL((url) => url.searchParams.has("id"));
    await statusSays(page, /^One venue: /);
    expect(await nameBox(page).inputValue()).toBe(chosen);
    await page.context().close();
  });

  it("closes when the mouse leaves the box and the list; the field it covered takes the click", async () => {
    const page = await openPage(browser(), { viewport });
    const city = await centre(page, "City");
    await nameBox(page).click();
    await typeArena(page);
    expect(await listOver(page, city), "the list covers City").toBe(true);
    const list = await listbox(page).boundingBox();
    if (list === null) throw new Error("no list");
    // Into the list, then out past its left edge.
    await page.mouse.move(list.x + 40, list.y + 30, { steps: 10 });
    expect(await listbox(page).isVisible()).toBe(true);
    await page.mouse.move(list.x - 10, list.y + 30, { steps: 10 });
    expect(await listbox(page).isVisible()).toBe(false);
    expect(await nameBox(page).getAttribute("aria-expanded")).toBe("false");
    await page.mouse.move(city.x, city.y, { steps: 10 });
    await page.mouse.down();
    await page.mouse.up();
    await expectFieldTook(page, "City");
    await page.context().close();
  });

  it("opened under the mouse at rest, lets its click through to the field under it", async () => {
    const page = await openPage(browser(), { viewport });
    const country = await centre(page, "Country");
    await page.mouse.move(country.x, country.y, { steps: 5 });
    await nameBox(page).focus(); // the mouse stays where it is, over Country
    await typeArena(page);
    expect(await listOver(page, country), "the list covers Country").toBe(true);
    await page.mouse.down();
    await page.mouse.up();
    await expectFieldTook(page, "Country");
    await page.context().close();
  });
});
