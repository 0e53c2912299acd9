/**
 * Back and Forward walk the searches a person ran, one entry each (src/page/history.ts), at a
 * desktop's size and a phone's: switching the kind, typing and the searches run as you type keep
 * to the entry of the search being put together; Enter, a filter left, a page each end one. The
 * sequence of issue 49: a venues search, then the kind switched, the name emptied, a pause, a new
 * name typed and Enter: Back returns to the venues search, with its results. A suggestion chosen
 * after the results of the name typed showed is a search of its own: Back returns to those results.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browserPerFile, openOptions, openPage, SIZES, statusSays } from "./browser.ts";
import { options, typeCity } from "./combobox.ts";

const browser = browserPerFile();

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const entries = (page: Page) => page.evaluate(() => history.length);

/** A search of these tests: its page's address and the API's query of it. */
interface Search {
  address: string;
  api: string;
  kind: "Venues" | "Cities";
  name: string;
}

const VENUES_ARENA: Search = {
  address: "/?type=venues&name=arena",
  api: "/1.0/search/venues?name=arena",
  kind: "Venues",
  name: "arena",
};
const CITIES_PARIS: Search = {
  address: "/?type=cities&name=paris",
  api: "/1.0/search/cities?name=paris",
  kind: "Cities",
  name: "paris",
};
const ARENA_IN_US: Search = {
  address: "/?type=venues&name=arena&country=US",
  api: "/1.0/search/venues?name=arena&country=US",
  kind: "Venues",
  name: "arena",
};
const CITIES_BER: Search = {
  address: "/?type=cities&name=ber",
  api: "/1.0/search/cities?name=ber",
  kind: "Cities",
  name: "ber",
};
const ARENA_IN_US_2: Search = { ...ARENA_IN_US, address: `${ARENA_IN_US.address}&p=2`, api: `${ARENA_IN_US.api}&p=2` };

/** The names of a page of the API's answer to `path`. */
async function apiNames(path: string): Promise<string[]> {
  const response = await fetch(`${base()}${path}`, { headers: { Accept: "application/json" } });
  const body = (await response.json()) as { venue?: { name: string }[]; cities?: { name: string }[] };
  return (body.venue ?? body.cities ?? []).map((result) => result.name);
}

/** Checks that the page shows `search` as a person sees it: its address, its kind, its name and its results. */
async function expectShown(page: Page, search: Search): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      JSON.stringify([...document.querySelectorAll("#results li .name")].map((n) => n.textContent)) === expected,
    JSON.stringify(await apiNames(search.api)),
  );
  expect(page.url()).toBe(`${base()}${search.address}`);
  expect(await field(page, search.kind).isChecked()).toBe(true);
  expect(await field(page, "Name").inputValue()).toBe(search.name);
}

/** Checks that the page shows no search, as it opens. */
async function expectEmpty(page: Page): Promise<void> {
  await statusSays(page, /^Type a name/);
  expect(page.url()).toBe(`${base()}/`);
  expect(await field(page, "Name").inputValue()).toBe("");
  expect(await page.locator("#results li").count()).toBe(0);
}

describe.each(SIZES)("Back and Forward ($screen)", ({ viewport }) => {
  it("after a venues search and a cities search: Back is the venues search, Forward the cities one", async () => {
    const page = await openPage(browser(), { viewport });
    const name = field(page, "Name");
    await name.fill("arena");
    await name.press("Enter");
    await expectShown(page, VENUES_ARENA);
    const before = await entries(page);

    // The kind switched searches "arena" among the cities, as you type does: no entry of its own.
    await openOptions(page);
    await page.getByRole("radio", { name: "Cities" }).check();
    await page.waitForURL(`${base()}/?type=cities&name=arena`);
    await name.fill("");
    await statusSays(page, /^Type a name/);
    await page.waitForTimeout(2500); // a pause to think, longer than any burst of typing
    await name.pressSequentially("paris", { delay: 300 });
    await page.waitForURL(`${base()}${CITIES_PARIS.address}`);
    await name.press("Enter");
    await expectShown(page, CITIES_PARIS);
    expect(await entries(page), "one entry for the cities search").toBe(before + 1);

    await page.goBack();
    await expectShown(page, VENUES_ARENA);
    await page.goBack();
    await expectEmpty(page);
    await page.goForward();
    await expectShown(page, VENUES_ARENA);
    await page.goForward();
    await expectShown(page, CITIES_PARIS);
    await page.context().close();
  });

  it("a filter typed is one search once it is left; a page another", async () => {
    const page = await openPage(browser(), { viewport }, base(), VENUES_ARENA.address);
    await expectShown(page, VENUES_ARENA);
    const before = await entries(page);
    await openOptions(page);
    await field(page, "Country").pressSequentially("US", { delay: 400 });
    await page.waitForURL(`${base()}${ARENA_IN_US.address}`);
    await field(page, "Country").press("Tab"); // the filter left: its search is done
    await expectShown(page, ARENA_IN_US);
    await page.getByRole("button", { name: "Next →" }).click();
    await expectShown(page, ARENA_IN_US_2);
    expect(await entries(page)).toBe(before + 2);

    await page.goBack();
    await expectShown(page, ARENA_IN_US);
    await page.goBack();
    await expectShown(page, VENUES_ARENA);
    await page.goForward();
    await page.goForward();
    await expectShown(page, ARENA_IN_US_2);
    await page.context().close();
  });
});

describe.each(SIZES)("Back after a suggestion chosen ($screen)", ({ viewport }) => {
  it("a suggestion chosen from the results of a name typed: Back returns to those results", async () => {
    const page = await openPage(browser(), { viewport });
    await typeCity(page, "ber");
    await expectShown(page, CITIES_BER);
    expect(await page.locator("#results li").count()).toBe(50);
    const chosen = (await options(page).first().locator(".name").textContent()) ?? "";
    await options(page).first().click();
    await page.waitForURL((url) => url.searchParams.has("id"));
    await statusSays(page, /^One city: /);
    const record = page.url();
    expect(await field(page, "Name").inputValue()).toBe(chosen);

    await page.goBack();
    await expectShown(page, CITIES_BER);
    await page.goForward();
    await statusSays(page, /^One city: /);
    expect(page.url()).toBe(record);
    await page.context().close();
  });
});
