/**
 * The name's list of suggestions under a mouse and a finger, with real moves, clicks and taps, at a
 * desktop's size and a phone's: the list covers no field, so that a press on City, Country, Where
 * or Spelling while it is open reaches that field, its click included, and chooses nothing (on a
 * phone the list covered them, and a tap aimed at City opened "Bergen Beach Coliseum"); a press on
 * an option seen always chooses it, under a mouse at rest where the list opened too (its press went
 * through to the hidden field under the list); the list stays open while the mouse goes from the
 * box onto an option.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browserPerFile, openPage, SIZES, statusSays } from "./browser.ts";
import { listbox, nameBox } from "./combobox.ts";

const browser = browserPerFile();

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

/** Types "arena" into the name box (focused already); waits for its list and for the search as you type. */
async function typeArena(page: Page): Promise<void> {
  await nameBox(page).pressSequentially("arena");
  await listbox(page).waitFor();
  await page.waitForURL(`${base()}/?type=venues&name=arena`);
  await statusSays(page, /^[\d,]+ venues/);
}

/** Opens the list again for "arena": the last letter typed again in the box. */
async function reopen(page: Page): Promise<void> {
  await nameBox(page).focus();
  await nameBox(page).press("End");
  await nameBox(page).press("Backspace");
  await nameBox(page).press("a");
  await listbox(page).waitFor();
}

/** The name of the option drawn at `point`, as seen; null when none is. */
const optionAt = (page: Page, { x, y }: Point) =>
  page.evaluate(
    ([px, py]) =>
      document
        .elementFromPoint(px ?? 0, py ?? 0)
        ?.closest("[role=option]")
        ?.querySelector(".name")?.textContent ?? null,
    [x, y],
  );

/**
 * Presses the field `label` with the list open, as a `pointer` does, where the field is seen; checks
 * that no option was drawn there, and that the field took the press (the focus, and the click: the
 * list kept its room until the press was over) and the list closed.
 */
async function pressField(page: Page, pointer: "mouse" | "finger", label: string): Promise<void> {
  await field(page, label).scrollIntoViewIfNeeded();
  const at = await centre(page, label);
  expect(await optionAt(page, at), `no option over ${label}`).toBeNull();
  if (pointer === "finger") await page.touchscreen.tap(at.x, at.y);
  else await page.mouse.click(at.x, at.y);
  expect(await field(page, label).evaluate((e) => e === document.activeElement), label).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { clicked: string }).clicked)).toBe(
    await field(page, label).getAttribute("id"),
  );
  expect(await listbox(page).isVisible()).toBe(false);
  expect(await nameBox(page).getAttribute("aria-expanded")).toBe("false");
  await page.keyboard.press("Escape"); // a list's own popup closed
}

describe.each(SIZES)("the list of suggestions and a pointer ($screen)", ({ viewport }) => {
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

  it.each(["mouse", "finger"] as const)(
    "covers no field: a %s pressing City, Country, Where or Spelling reaches it, and chooses nothing",
    async (pointer) => {
      const page = await openPage(browser(), { viewport, hasTouch: pointer === "finger" });
      await page.evaluate(() =>
        addEventListener("click", (e) => Object.assign(window, { clicked: (e.target as Element).id }), true),
      );
      await nameBox(page).focus();
      await typeArena(page);
      for (const label of ["City", "Country", "Where", "Spelling"]) {
        if (label !== "City") await reopen(page);
        await pressField(page, pointer, label);
      }
      expect(page.url()).toBe(`${base()}/?type=venues&name=arena`);
      expect(await nameBox(page).inputValue()).toBe("arena");
      await page.context().close();
    },
  );

  it("opened under the mouse at rest: its click chooses the option seen there", async () => {
    const page = await openPage(browser(), { viewport });
    const country = await centre(page, "Country");
    await page.mouse.move(country.x, country.y, { steps: 5 });
    await nameBox(page).focus(); // the mouse stays where it is, where Country was
    await typeArena(page);
    const seen = await optionAt(page, country);
    expect(seen, "an option where the mouse rests").not.toBeNull();
    await page.mouse.down();
    await page.mouse.up();
    await page.waitForURL((url) => url.searchParams.has("id"));
    await statusSays(page, /^One venue: /);
    expect(await nameBox(page).inputValue()).toBe(seen);
    await page.context().close();
  });
});
