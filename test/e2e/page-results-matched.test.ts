/**
 * Why a result is there (issue 62, item 5), at a desktop's size and a phone's: the page's search
 * asks with `matched=1` (docs/api.md#which-name-matched), its address does not, and each result
 * found by another of its names shows that name beside the one shown, in its link's name too, as
 * the suggestions do ("Saint Petersburg · Leningrad"); a result found by its own name shows none,
 * and an answer without `matched` (an API before it) lists as before, a name's markup as text.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browserPerFile, openPage, SIZES } from "./browser.ts";
import { typeCity } from "./combobox.ts";

const browser = browserPerFile();

/** The URLs of the searches the page sends, as they go. */
function searchesSent(page: Page): URL[] {
  const sent: URL[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/1.0/search/")) sent.push(url);
  });
  return sent;
}

/** Each result's link as a screen reader names it. */
const linkNames = (page: Page) =>
  page.locator("#results li").evaluateAll((items) => items.map((li) => li.querySelector("a")?.textContent ?? ""));

describe.each(SIZES)("why a result is there ($screen)", ({ viewport }) => {
  it("shows the name that matched beside another: leningrad lists Saint Petersburg · Leningrad", async () => {
    const page = await openPage(browser(), { viewport });
    const sent = searchesSent(page);
    await typeCity(page, "leningrad");
    const first = page.locator("#results li").first();
    await first.getByRole("link", { name: "Saint Petersburg · Leningrad", exact: true }).waitFor();
    expect(await first.locator(".name").textContent()).toBe("Saint Petersburg");
    expect(await first.locator(".matched").textContent()).toBe("Leningrad");
    // Found by their own name: nothing beside it.
    expect(await linkNames(page)).toContain("Leningradskaya");

    // The page asks which name matched; its address is the person's search, without it.
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.map((url) => url.searchParams.get("matched"))).toEqual(sent.map(() => "1"));
    expect(page.url()).toBe(`${base()}/?type=cities&name=leningrad`);
    // The curl command is the request the page sent.
    expect(await page.locator("#curl").textContent()).toMatch(/\/1\.0\/search\/cities\?name=leningrad&matched=1'$/);
    await page.context().close();
  });

  it("shows no other name for a result found by its own: paris lists Paris", async () => {
    const page = await openPage(browser(), { viewport });
    const answered = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return url.pathname === "/1.0/search/cities" && url.searchParams.get("name") === "paris";
    });
    await typeCity(page, "paris");
    // The answer says so: the name that matched is the one shown.
    const { cities } = (await (await answered).json()) as { cities: { name: string; matched?: { name: string } }[] };
    expect(cities[0]?.matched?.name).toBe("Paris");
    const first = page.locator("#results li").first();
    await first.getByRole("link", { name: "Paris", exact: true }).waitFor();
    expect(await first.locator(".matched").count()).toBe(0);
    await page.context().close();
  });

  it("lists an answer without `matched` as before, and a name's markup as text", async () => {
    const page = await openPage(browser(), { viewport });
    await page.route(/\/1\.0\/search\/cities\?/, async (route) => {
      const body = (await (await route.fetch()).json()) as { cities: { name: string; matched?: object }[] };
      const [first, second] = body.cities;
      if (first) delete first.matched;
      if (second) second.matched = { name: "<b>Leningrad</b>", spans: [{ offset: 3, length: 9 }] };
      await route.fulfill({ json: body });
    });
    await page.goto(`${base()}/?type=cities&name=leningrad`);
    await page.locator("#results li").first().getByRole("link", { name: "Saint Petersburg", exact: true }).waitFor();
    expect((await linkNames(page)).slice(0, 2)).toEqual(["Saint Petersburg", "Leningradskaya · <b>Leningrad</b>"]);
    expect(await page.locator("#results b").count()).toBe(0);
    await page.context().close();
  });
});
