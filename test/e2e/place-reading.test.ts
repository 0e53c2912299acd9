/**
 * Issue 34: the page reads a place at the end of the name, through the real worker (no request
 * intercepted): the API answers `X-Read-As` with the query it ran, and the page says which place it
 * read, with the name as typed a click away (`places=0`); the City field sends `cityName`.
 */
import type { Browser, Page, Response } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { errors, launch, openOptions, openPage, statusSays } from "./browser.ts";

let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launch();
  page = await openPage(browser);
});

afterAll(async () => {
  await browser.close();
});

afterEach(() => {
  expect(errors).toEqual([]);
});

const reading = () => page.locator("#reading");
const field = (label: string) => page.getByLabel(label, { exact: true });

/** Fills the name; the answer to the search it sends. */
async function searchName(name: string): Promise<Response> {
  const answer = page.waitForResponse(
    (r) => r.url().includes("/1.0/search/") && new URL(r.url()).searchParams.get("name") === name,
  );
  await field("Name").fill(name);
  return answer;
}

describe("a place read at the end of the name", () => {
  it("club berlin: the clubs of Berlin, said so", async () => {
    await page.getByLabel("Venues", { exact: true }).check();
    const answer = await searchName("club berlin");
    expect(answer.headers()["x-match"]).toBe("place");
    expect(answer.headers()["x-read-as"]).toBe("cityId=2950159&name=club");
    await reading().waitFor();
    expect(await reading().textContent()).toBe(
      "Showing venues matching “club” in Berlin, Germany — search for “club berlin” as typed",
    );
    const places = await page.locator("#results li .meta").allTextContents();
    expect(places.length).toBeGreaterThan(0);
    // Berlin is in the state of Berlin, said once: "Berlin · club".
    for (const place of places) expect(place).toMatch(/^Berlin( ·|, )/);
  });

  it("as typed: the same name again with places=0, and no reading", async () => {
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().includes("/1.0/search/venues?")),
      page.getByRole("button", { name: "search for “club berlin” as typed" }).click(),
    ]);
    const params = new URL(request.url()).searchParams;
    expect(Object.fromEntries(params)).toEqual({ name: "club berlin", places: "0", matched: "1" });
    await page.waitForFunction(() => document.querySelector<HTMLElement>("#reading")?.hidden === true);
    expect(await page.locator("#curl").textContent()).toContain("places=0");
    // A new name is read for a place again.
    expect((await searchName("arena berlin")).url()).not.toContain("places=0");
  });

  it("Portland, OR among cities: Portland, Oregon first", async () => {
    await page.getByLabel("Cities", { exact: true }).check();
    const answer = await searchName("Portland, OR");
    expect(answer.headers()["x-read-as"]).toBe("country=US&name=portland&stateCode=OR");
    await reading().waitFor();
    expect(await reading().textContent()).toBe(
      "Showing cities matching “portland” in Oregon, United States — search for “Portland, OR” as typed",
    );
    expect(await page.locator("#results li .name").first().textContent()).toBe("Portland");
    expect(await page.locator("#results li .meta").first().textContent()).toMatch(/^Oregon, United States · /);
  });
});

describe("the City field", () => {
  it("sends cityName for venues, and is gone for cities", async () => {
    await page.getByLabel("Venues", { exact: true }).check();
    await field("Name").fill("club");
    await openOptions(page);
    const request = page.waitForRequest((r) => r.url().includes("cityName="));
    await field("City").fill("Berlin");
    expect(Object.fromEntries(new URL((await request).url()).searchParams)).toEqual({
      name: "club",
      cityName: "Berlin",
      matched: "1",
    });
    await statusSays(page, /^[\d,]+ venues? named club in Berlin/);
    for (const place of await page.locator("#results li .meta").allTextContents())
      expect(place).toMatch(/^Berlin( ·|, )/);
    expect(await field("City").getAttribute("maxlength")).toBe("100");
    await page.getByLabel("Cities", { exact: true }).check();
    expect(await field("City").isVisible()).toBe(false);
    await page.waitForFunction(() => !(document.querySelector("#curl")?.textContent ?? "").includes("cityName"));
  });
});
