/**
 * The status line says what was searched, its filters included (src/page/searched.ts), in a
 * person's words and with the places as the data names them (src/page/status.ts), at a desktop's
 * size and a phone's: for a link opened (on a phone its form folded away, the City field hidden),
 * for a search put together in the form, for one that finds nothing, and for a record opened. It
 * said "(cached)", "looked up by its id 2950159", and the filters as typed ("in berlin, DE"). An
 * answer replacing "Searching …" moves nothing after the line (on a phone the results jumped 22 px
 * at every answer: "Searching …" was one line, the answer two).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browserPerFile, openOptions, openPage, SIZES, statusSays } from "./browser.ts";

const browser = browserPerFile();

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/**
 * The API's total for a search (what the status line must count), as a person reads it; asked as
 * the page asks (matched=1), so that the page's answer is in the edge's cache already.
 */
async function apiTotal(path: string): Promise<string> {
  const response = await fetch(`${base()}${path}&matched=1`, { headers: { Accept: "application/json" } });
  return ((await response.json()) as { total: number }).total.toLocaleString("en");
}

/** The status line, once it says `pattern`: its whole text. */
async function statusOnce(page: Page, pattern: RegExp): Promise<string> {
  await statusSays(page, pattern);
  return (await page.locator("#status").textContent()) ?? "";
}

describe.each(SIZES)("the status line ($screen)", ({ screen, viewport }) => {
  it("says what a link searched, its places as the data names them, cached or not", async () => {
    const total = await apiTotal("/1.0/search/venues?name=arena&cityName=berlin");
    expect(total).not.toBe("1");
    const link = "/?type=venues&name=arena&cityName=berlin";
    const page = await openPage(browser(), { viewport }, base(), link);
    const said = `${total} venues named arena in Berlin.`;
    expect(await statusOnce(page, /^[\d,]+ venues/)).toBe(said);
    // On a phone the form folded to its name: the line is where the filter is seen.
    expect(await field(page, "City").isVisible()).toBe(screen === "desktop");
    // Again, from the edge's cache: said the same.
    const again = page.waitForResponse((r) => r.url().includes("/1.0/search/venues?"));
    await page.reload();
    expect(await (await again).headerValue("X-Cache")).toBe("HIT");
    expect(await statusOnce(page, /^[\d,]+ venues/)).toBe(said);

    const cities = await apiTotal("/1.0/search/cities?name=paris&country=us");
    await page.goto(`${base()}/?type=cities&name=paris&country=us`);
    expect(await statusOnce(page, /^[\d,]+ cit/)).toBe(`${cities} cities named paris in United States.`);
    await page.context().close();
  });

  it("says a search put together in the form, and one that finds nothing", async () => {
    const page = await openPage(browser(), { viewport });
    await field(page, "Name").fill("arena");
    await field(page, "Country").fill("de");
    await field(page, "State").fill("berlin");
    await field(page, "State").press("Enter");
    const total = await apiTotal("/1.0/search/venues?name=arena&country=de&state=berlin");
    expect(await statusOnce(page, /^[\d,]+ venues? named arena in /)).toBe(
      `${total} venues named arena in Berlin, Germany.`,
    );

    await openOptions(page);
    await field(page, "Spelling").selectOption("0");
    await field(page, "Name").fill("arenaxq");
    await field(page, "Name").press("Enter");
    // No result names the state: it is said as typed; the country by the browser, from its code.
    expect(await statusOnce(page, /^No venues/)).toBe("No venues named arenaxq in berlin, Germany, exact names only.");
    await page.context().close();
  });

  it("says a record opened by its name and place", async () => {
    const page = await openPage(browser(), { viewport }, base(), "/?type=cities&id=2950159&name=Berlin");
    expect(await statusOnce(page, /^One city/)).toBe("One city: Berlin, Germany.");
    await page.goto(`${base()}/?type=venues&id=2359751b&name=Arena+Berlin`);
    expect(await statusOnce(page, /^One venue/)).toBe("One venue: Arena Berlin in Berlin, Germany.");
    await page.context().close();
  });
});

/** A name that finds nothing and whose status line takes two lines or more at both sizes. */
const LONG = "Supercalifragilisticexpialidocious Philharmonic Concertgebouw Amphitheatre Hall Annex";

/**
 * Records, from now on, each text of the status line and where what follows it starts then, from the
 * line's top (px): what the line moves, whatever moves above it (the list of suggestions as it changes).
 */
function recordStatus(page: Page): Promise<void> {
  return page.evaluate(() => {
    const status = document.getElementById("status");
    const after = document.getElementById("split");
    if (status === null || after === null) throw new Error("no status line");
    const seen: { text: string; top: number }[] = [];
    Object.assign(window, { seen });
    new MutationObserver(() =>
      seen.push({
        text: status.textContent ?? "",
        top: after.getBoundingClientRect().top - status.getBoundingClientRect().top,
      }),
    ).observe(status, { childList: true, characterData: true, subtree: true });
  });
}

/** Each answer that replaced "Searching …": how far what follows the line moved then (px). */
const movesAtAnswers = (page: Page) =>
  page.evaluate(() => {
    const seen = (window as unknown as { seen: { text: string; top: number }[] }).seen;
    return seen.flatMap((now, i) => {
      const before = seen[i - 1];
      return before?.text === "Searching …" && now.text !== before.text ? [`${now.text}: ${now.top - before.top}`] : [];
    });
  });

describe.each(SIZES)("the status line's answers ($screen)", ({ viewport }) => {
  it("replace “Searching …” without moving what follows, as a name is typed and searched again", async () => {
    const query = new URLSearchParams({ type: "venues", typos: "0", name: LONG });
    const page = await openPage(browser(), { viewport }, base(), `/?${query.toString()}`);
    await statusOnce(page, /^No venues/);
    await recordStatus(page);
    const name = field(page, "Name");
    for (let i = 0; i < 2; i++) {
      await name.press("Enter");
      await page.waitForFunction(() => document.getElementById("status")?.textContent?.startsWith("No venues"));
    }
    await name.fill("");
    await statusOnce(page, /^Type a name/);
    for (const letter of "arena") {
      await name.press(letter);
      await page.waitForTimeout(400); // each letter searched as typed (after 250 ms), answered before the next
    }
    await statusOnce(page, /^[\d,]+ venues named arena, exact names only\.$/);
    const moves = await movesAtAnswers(page);
    expect(moves.length).toBeGreaterThanOrEqual(4);
    expect(moves.filter((move) => !move.endsWith(": 0"))).toEqual([]);
    await page.context().close();
  });
});
