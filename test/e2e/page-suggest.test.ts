/**
 * The name box's suggestions (src/page/combobox.ts, suggest.ts), at a desktop's size and a phone's,
 * as a person sees them and a screen reader reads them: the list as you type, the likeliest first,
 * never an earlier text's once a later one's is shown (at a person's pace: page-suggest-pace.test.ts;
 * why each is there: page-suggest-matched.test.ts); the combobox's ARIA (its role, aria-expanded,
 * aria-activedescendant naming the option marked active); Down, Up, Enter and Escape; a click and a tap choosing; and the
 * record chosen: the one result, on the map at its centre, in the page's address, so that its link
 * reopens it, Reload keeps it and Back returns to the search run before.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browserPerFile, openPage, showMap, SIZES, statusSays } from "./browser.ts";
import { listbox, nameBox, options, readList, typeCity, typeName } from "./combobox.ts";
import { mapView, settled } from "./map-geometry.ts";

const browser = browserPerFile();

/** The address of Berlin chosen from the city search's suggestions. */
const BERLIN = "/?type=cities&id=2950159&name=Berlin";

/** The status of a city search answered. */
const FOUND = /^[\d,]+ cities named \w+\.$/;
const berlinOption = (page: Page) => listbox(page).getByRole("option", { name: "Berlin Germany", exact: true });

/** Whether the list of suggestions is shown, as the box says it (aria-expanded) and as it is seen. */
async function listShown(page: Page): Promise<boolean> {
  const expanded = await nameBox(page).getAttribute("aria-expanded");
  expect(expanded, "aria-expanded says what is seen").toBe(String(await listbox(page).isVisible()));
  return expanded === "true";
}

/** The id of the option the box names as active (aria-activedescendant), checked to be the one marked active. */
async function activeOption(page: Page): Promise<string | null> {
  const id = await nameBox(page).getAttribute("aria-activedescendant");
  const selected = await options(page).evaluateAll((all) =>
    all.filter((o) => o.getAttribute("aria-selected") === "true").map((o) => o.id),
  );
  expect(selected, "the active option, and only it, is marked selected").toEqual(id === null ? [] : [id]);
  return id;
}

/** Checks that the page shows Berlin chosen: the one result, its address, and on the map at its centre. */
async function showsBerlin(page: Page): Promise<void> {
  await statusSays(page, /^One city: Berlin, Germany\.$/);
  expect(await page.locator("#results li .name").allTextContents()).toEqual(["Berlin"]);
  expect(page.url()).toBe(`${base()}${BERLIN}`);
  expect(await nameBox(page).inputValue()).toBe("Berlin");
  expect(await listShown(page)).toBe(false);
  await showMap(page);
  const [marker, ...others] = await settled(page);
  const view = await mapView(page);
  expect(others).toEqual([]);
  expect(marker?.label).toBe("Berlin — Germany");
  expect(Math.abs((marker?.at?.x ?? NaN) - view.width / 2), "centred across").toBeLessThan(1.5);
  expect(Math.abs((marker?.at?.y ?? NaN) - view.height / 2), "centred down").toBeLessThan(1.5);
}

describe.each(SIZES)("the name box as a combobox ($screen)", ({ viewport }) => {
  it("lists the likeliest first as you type; Down and Up move, Enter opens the one active", async () => {
    const page = await openPage(browser(), { viewport });
    const box = nameBox(page);
    expect(await box.getAttribute("aria-autocomplete")).toBe("list");
    const controls = page.locator(`#${await box.getAttribute("aria-controls")}`);
    expect(await controls.getAttribute("role")).toBe("listbox");
    expect(await listShown(page)).toBe(false);
    await typeCity(page, "berl");
    expect(await listShown(page)).toBe(true);
    const list = await readList(page);
    expect(list[0]).toBe("Berlin Germany");
    expect(list.length).toBeGreaterThan(1);
    expect(await activeOption(page)).toBeNull();

    await box.press("ArrowDown");
    const first = await options(page).first().getAttribute("id");
    expect(await activeOption(page)).toBe(first);
    expect(await readList(page)).toEqual([`${list[0]} [selected]`, ...list.slice(1)]);
    // Marked for the eye too: the active option's colours are not the others'.
    const colours = await options(page).evaluateAll((all) => all.map((o) => getComputedStyle(o).backgroundColor));
    expect(colours.slice(1).every((colour) => colour !== colours[0])).toBe(true);
    await box.press("ArrowUp"); // round to the last
    expect(await activeOption(page)).toBe(await options(page).last().getAttribute("id"));
    await box.press("ArrowDown"); // and on to the first
    expect(await activeOption(page)).toBe(first);
    expect(await box.evaluate((input) => input === document.activeElement)).toBe(true);

    await box.press("Enter");
    await showsBerlin(page);
    expect(await activeOption(page)).toBeNull();
    await page.context().close();
  });

  it("closes the list on Escape, then empties the box on Escape; Down opens the list again", async () => {
    const page = await openPage(browser(), { viewport });
    await typeCity(page, "berl");
    await nameBox(page).press("Escape");
    expect(await listShown(page)).toBe(false);
    expect(await nameBox(page).inputValue()).toBe("berl");
    await nameBox(page).press("ArrowDown");
    expect(await listShown(page)).toBe(true);
    expect(await activeOption(page)).toBe(await options(page).first().getAttribute("id"));
    await nameBox(page).press("Escape");
    await nameBox(page).press("Escape");
    expect(await nameBox(page).inputValue()).toBe("");
    expect(await listShown(page)).toBe(false);
    await statusSays(page, /^Type a name/);
    await page.context().close();
  });

  it("takes an Escape typed before the list opened for the list: the text stays, no list opens", async () => {
    const page = await openPage(browser(), { viewport });
    await nameBox(page).pressSequentially("arena");
    await nameBox(page).press("Escape");
    await statusSays(page, /^[\d,]+ venues named arena/);
    await page.waitForTimeout(300);
    expect(await nameBox(page).inputValue()).toBe("arena");
    expect(await listShown(page)).toBe(false);
    await page.context().close();
  });
});

describe.each(SIZES)("a suggestion chosen ($screen)", ({ viewport }) => {
  it("is the option clicked; Tab closes the list", async () => {
    const page = await openPage(browser(), { viewport });
    await typeCity(page, "berl");
    await nameBox(page).press("Tab");
    expect(await listShown(page)).toBe(false);
    await typeName(page, "i");
    await berlinOption(page).click();
    await showsBerlin(page);
    await page.context().close();
  });

  it("is opened from its link, kept on Reload, and Back goes to the search before", async () => {
    const page = await openPage(browser(), { viewport });
    await page.getByRole("radio", { name: "Cities" }).check();
    await nameBox(page).fill("paris");
    await nameBox(page).press("Enter");
    await page.waitForURL(`${base()}/?type=cities&name=paris`);
    await nameBox(page).fill("");
    await typeName(page, "berl");
    await nameBox(page).press("ArrowDown");
    await nameBox(page).press("Enter");
    await showsBerlin(page);

    // Suggestions asked for are no search: the address and the history stay as they are.
    const entries = await page.evaluate(() => history.length);
    await nameBox(page).press("ArrowDown");
    await listbox(page).waitFor();
    expect(page.url()).toBe(`${base()}${BERLIN}`);
    expect(await page.evaluate(() => history.length)).toBe(entries);
    await nameBox(page).press("Escape");

    const link = await openPage(browser(), { viewport }, base(), BERLIN);
    await showsBerlin(link);
    await link.context().close();
    await page.reload();
    await showsBerlin(page);
    // Back goes to the search shown before: the results of "berl", typed to find Berlin; then to "paris".
    await page.goBack();
    await page.waitForURL(`${base()}/?type=cities&name=berl`);
    await statusSays(page, /^[\d,]+ cities named berl\.$/);
    await page.goBack();
    await page.waitForURL(`${base()}/?type=cities&name=paris`);
    await statusSays(page, FOUND);
    expect(await page.locator("#results li .name").first().textContent()).toBe("Paris");
    await page.context().close();
  });
});

/** Records every list of suggestions shown from now on, as the options' texts, in `window.shown`. */
function recordLists(page: Page): Promise<void> {
  return page.evaluate(() => {
    const list = document.querySelector<HTMLElement>("[role=listbox]");
    if (list === null) throw new Error("no listbox");
    const shown: string[][] = [];
    Object.assign(window, { shown });
    const read = () => [...list.querySelectorAll("[role=option]")].map((option) => option.textContent ?? "");
    new MutationObserver(() => {
      if (!list.hidden && JSON.stringify(shown.at(-1)) !== JSON.stringify(read())) shown.push(read());
    }).observe(list, { childList: true, subtree: true, attributes: true });
  });
}

const listsShown = (page: Page) => page.evaluate(() => (window as unknown as { shown: string[][] }).shown);

/** The texts suggestions are asked for from now on. */
function suggestionsAsked(page: Page): string[] {
  const asked: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/1.0/suggest/")) asked.push(new URL(r.url()).searchParams.get("name") ?? "");
  });
  return asked;
}

describe.each(SIZES)("suggestions as you type ($screen)", ({ viewport }) => {
  it("are asked once quick typing pauses, and list the last text's", async () => {
    const page = await openPage(browser(), { viewport });
    const asked = suggestionsAsked(page);
    await recordLists(page);
    await page.getByRole("radio", { name: "Cities" }).check();
    await page.evaluate(() => {
      const keys: number[] = [];
      Object.assign(window, { keys });
      addEventListener("keydown", () => keys.push(performance.now()), { capture: true });
    });
    await nameBox(page).pressSequentially("berl");
    await listbox(page).waitFor();
    // Quick typing is keys within the page's pause of 150 ms (src/page/suggest.ts), with room for
    // the timers' lateness; a busy machine may deliver them slower, and the page then rightly asks
    // the text typed before the pause.
    const keys = await page.evaluate(() => (window as unknown as { keys: number[] }).keys);
    const quick = keys.length === 4 && keys.every((t, i) => i === 0 || t - (keys[i - 1] ?? 0) < 100);
    if (quick) {
      expect(asked).toEqual(["berl"]);
      expect(await listsShown(page)).toHaveLength(1);
    } else {
      // The text typed before the pause is asked, and may be listed, before the last one is asked.
      await expect.poll(() => asked.at(-1), { timeout: 10_000 }).toBe("berl");
      for (const text of asked) expect(["b", "be", "ber", "berl"]).toContain(text);
    }
    await expect.poll(async () => (await readList(page))[0], { timeout: 10_000 }).toBe("Berlin Germany");
    await page.context().close();
  });

  it("never list an earlier text's answer, however late it comes", async () => {
    const page = await openPage(browser(), { viewport });
    const aborted: string[] = [];
    page.on("requestfailed", (r) => {
      if (r.url().includes("/1.0/suggest/")) aborted.push(new URL(r.url()).searchParams.get("name") ?? "");
    });
    // The earlier texts' answers are held until the last text's list shows (a fixed delay let
    // them come first on a busy machine, where they are rightly listed while the next is asked).
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const late: Promise<void>[] = [];
    await page.route(/\/1\.0\/suggest\/cities\?name=(b|be|ber)$/, (route) => {
      late.push(released.then(() => route.continue().catch(() => undefined)));
    });
    await recordLists(page);
    await page.getByRole("radio", { name: "Cities" }).check();
    for (const typed of ["b", "be", "ber"]) {
      const asked = page.waitForRequest((r) => r.url().endsWith(`/1.0/suggest/cities?name=${typed}`));
      await nameBox(page).press(typed.at(-1) ?? "");
      await asked;
    }
    await nameBox(page).press("l");
    await listbox(page).waitFor();
    const berl = await readList(page);
    expect(berl[0]).toBe("Berlin Germany");
    release();
    await Promise.all(late);
    await page.waitForTimeout(300);
    expect(await readList(page)).toEqual(berl);
    expect(await listsShown(page)).toHaveLength(1);
    expect(aborted).toEqual(["b", "be", "ber"]);
    await page.context().close();
  });
});

describe("a tap on a suggestion (phone)", () => {
  it("opens its record", async () => {
    const page = await openPage(browser(), { viewport: SIZES[1].viewport, hasTouch: true, isMobile: true });
    await nameBox(page).tap();
    await typeCity(page, "berl");
    await berlinOption(page).tap();
    await showsBerlin(page);
    await page.context().close();
  });
});
