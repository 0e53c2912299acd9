/**
 * The name box's suggestions (src/page/combobox.ts, suggest.ts), at a desktop's size and a phone's,
 * as a person sees them and a screen reader reads them: the list as you type, the likeliest first,
 * never an earlier text's once a later one's is shown, and coming while a person types at a key
 * every 150–200 ms over a network's round trip (each list then one for the text or a start of it);
 * the combobox's ARIA (its role, aria-expanded, aria-activedescendant
 * naming the option marked active); Down, Up, Enter and Escape; a click and a tap choosing; and the
 * record chosen: the one result, on the map at its centre, in the page's address, so that its link
 * reopens it, Reload keeps it and Back returns to the search run before.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browserPerFile, openPage, showMap, SIZES, statusSays } from "./browser.ts";
import { mapView, settled } from "./map-geometry.ts";

const browser = browserPerFile();

/** The address of Berlin chosen from the city search's suggestions. */
const BERLIN = "/?type=cities&id=2950159&name=Berlin";

const nameBox = (page: Page) => page.getByRole("combobox", { name: "Name", exact: true });
const listbox = (page: Page) => page.getByRole("listbox", { name: "Suggestions" });
const options = (page: Page) => listbox(page).getByRole("option");
/** The status of a city search answered. */
const FOUND = /^[\d,]+ cities named \w+\.$/;
const berlinOption = (page: Page) => listbox(page).getByRole("option", { name: "Berlin Germany", exact: true });

/** Whether the list of suggestions is shown, as the box says it (aria-expanded) and as it is seen. */
async function listShown(page: Page): Promise<boolean> {
  const expanded = await nameBox(page).getAttribute("aria-expanded");
  expect(expanded, "aria-expanded says what is seen").toBe(String(await listbox(page).isVisible()));
  return expanded === "true";
}

/** Types `text` at the end of the name a key at a time; waits for its list, and for the page's own search of the name. */
async function typeName(page: Page, text: string): Promise<void> {
  await nameBox(page).press("End"); // focused from elsewhere, the caret is put at the start
  await nameBox(page).pressSequentially(text);
  await listbox(page).waitFor();
  const name = await nameBox(page).inputValue();
  await page.waitForURL((url) => url.searchParams.get("name") === name);
  await statusSays(page, /^[\d,]+ (venues|cities) named /);
}

/** Chooses the city search and types `text` into the name; waits for its list. */
async function typeCity(page: Page, text: string): Promise<void> {
  await page.getByRole("radio", { name: "Cities" }).check();
  await typeName(page, text);
}

/** The list as a screen reader reads it: each option's name, [selected] after the active one (its parts after a colon). */
async function readList(page: Page): Promise<string[]> {
  const snapshot = await listbox(page).ariaSnapshot();
  return [...snapshot.matchAll(/^\s+- option "(.*)"( \[selected\])?:?$/gm)].map(([, name, selected]) =>
    selected ? `${name} [selected]` : (name ?? ""),
  );
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
    // Back goes to the search run before; "berl", typed to find Berlin, was never run on its own.
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
    await nameBox(page).pressSequentially("berl");
    await listbox(page).waitFor();
    expect(asked).toEqual(["berl"]);
    expect((await readList(page))[0]).toBe("Berlin Germany");
    expect(await listsShown(page)).toHaveLength(1);
    await page.context().close();
  });

  it("never list an earlier text's answer, however late it comes", async () => {
    const page = await openPage(browser(), { viewport });
    const aborted: string[] = [];
    page.on("requestfailed", (r) => {
      if (r.url().includes("/1.0/suggest/")) aborted.push(new URL(r.url()).searchParams.get("name") ?? "");
    });
    const late: Promise<void>[] = [];
    await page.route(/\/1\.0\/suggest\/cities\?name=(b|be|ber)$/, (route) => {
      late.push(
        new Promise((resolve) => setTimeout(resolve, 1500)).then(() => route.continue().catch(() => undefined)),
      );
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
    await Promise.all(late);
    await page.waitForTimeout(300);
    expect(await readList(page)).toEqual(berl);
    expect(await listsShown(page)).toHaveLength(1);
    expect(aborted).toEqual(["b", "be", "ber"]);
    await page.context().close();
  });
});

/** A network's round trip, which each answer of the suggestions takes here. */
const ROUND_TRIP_MS = 300;

/** Answers the suggestions `ROUND_TRIP_MS` late, as a network does; the names each text was answered. */
async function slowSuggestions(page: Page): Promise<Map<string, string[]>> {
  const answered = new Map<string, string[]>();
  await page.route(/\/1\.0\/suggest\//, async (route) => {
    const response = await route.fetch();
    const json = (await response.json()) as { cities: { name: string }[] };
    answered.set(
      new URL(route.request().url()).searchParams.get("name") ?? "",
      json.cities.map((c) => c.name),
    );
    await new Promise((resolve) => setTimeout(resolve, ROUND_TRIP_MS));
    await route.fulfill({ response, json }).catch(() => undefined); // aborted meanwhile
  });
  return answered;
}

/** Records each list shown from now on in `window.timed`: when, the text in the box then, the options' names. */
function recordTimedLists(page: Page): Promise<void> {
  return page.evaluate(() => {
    const list = document.querySelector<HTMLElement>("[role=listbox]");
    const box = document.querySelector<HTMLInputElement>("[role=combobox]");
    if (list === null || box === null) throw new Error("no combobox");
    const timed: { at: number; text: string; names: string[] }[] = [];
    Object.assign(window, { timed });
    const names = () => [...list.querySelectorAll("[role=option] .name")].map((n) => n.textContent ?? "");
    new MutationObserver(() => {
      if (!list.hidden && JSON.stringify(timed.at(-1)?.names) !== JSON.stringify(names()))
        timed.push({ at: performance.now(), text: box.value, names: names() });
    }).observe(list, { childList: true, subtree: true, attributes: true });
  });
}

describe.each(SIZES)("suggestions at a person's pace ($screen)", ({ viewport }) => {
  it("keep coming while a key is typed every 150–200 ms, each list one for the text or a start of it", async () => {
    const page = await openPage(browser(), { viewport });
    const answered = await slowSuggestions(page);
    await page.getByRole("radio", { name: "Cities" }).check();
    await recordTimedLists(page);
    const text = "berlin";
    for (const [i, key] of [...text].entries()) {
      await nameBox(page).press(key);
      if (i < text.length - 1) await page.waitForTimeout(i % 2 ? 200 : 150);
    }
    const lastKey = await page.evaluate(() => performance.now());
    await expect.poll(() => answered.has(text)).toBe(true);
    await page.waitForFunction(
      (names) =>
        JSON.stringify([...document.querySelectorAll("[role=option] .name")].map((n) => n.textContent)) === names,
      JSON.stringify(answered.get(text) ?? null),
    );
    const timed = await page.evaluate(
      () => (window as unknown as { timed: { at: number; text: string; names: string[] }[] }).timed,
    );
    expect(timed.filter((list) => list.at < lastKey).length, "lists shown while typing").toBeGreaterThanOrEqual(2);
    for (const list of timed) {
      const answers = [...answered].filter(([asked]) => list.text.startsWith(asked)).map(([, names]) => names);
      expect(answers, `the list shown at “${list.text}”`).toContainEqual(list.names);
    }
    await page.context().close();
  });
});

const city = (id: string, name: string, state: string, country: [string, string], matched?: object) => ({
  id,
  name,
  state,
  coords: { lat: 0, long: 0 },
  country: { code: country[0], name: country[1] },
  ...(matched && { matched }),
});

/** The cities' suggestions for `ho chi` as the API gives them with `matched` (issue 55), one without, one with markup in a name. */
const HO_CHI = {
  type: "cities",
  itemsPerPage: 8,
  page: 1,
  total: 4,
  cities: [
    city("1566083", "Ho Chi Minh City", "Ho Chi Minh", ["VN", "Vietnam"], {
      name: "Ho Chi Minh City",
      spans: [
        { offset: 0, length: 2 },
        { offset: 3, length: 3 },
      ],
    }),
    city("1810821", "Fuzhou", "Fujian", ["CN", "China"], {
      name: "Hok-chiu-chhī",
      spans: [
        { offset: 0, length: 2 },
        { offset: 4, length: 3 },
      ],
    }),
    city("1", "Hochi", "Nowhere", ["VN", "Vietnam"]),
    city("2", "Chiho", "Nowhere", ["VN", "Vietnam"], { name: "<b>ho chi</b>", spans: [{ offset: 3, length: 2 }] }),
  ],
};

/** A venue's suggestion for `club ber`, its place read at the end of the text. */
const CLUB_BER = {
  type: "venues",
  itemsPerPage: 8,
  page: 1,
  total: 1,
  venue: [
    {
      id: "a661a043",
      name: "Club Cobalt",
      city: { id: "2950159", name: "Berlin", state: "Berlin", stateCode: "16", coords: {}, country: {} },
      url: "https://www.setlist.fm/venue/club-cobalt-berlin-germany-a661a043.html",
      kind: "club",
      matched: { name: "Club Cobalt", spans: [{ offset: 0, length: 4 }], place: "Berlin" },
    },
  ],
};

/** Each option's parts (name, the name that matched, where) as text, the marked parts in [brackets]. */
const optionMarkup = (page: Page) =>
  options(page).evaluateAll((all) =>
    all.map((option) =>
      [...option.querySelectorAll(".name, .matched, .where")]
        .map((part) =>
          [...part.childNodes].map((n) => (n.nodeName === "MARK" ? `[${n.textContent}]` : n.textContent)).join(""),
        )
        .join(" | "),
    ),
  );

describe.each(SIZES)("why a suggestion is there ($screen)", ({ viewport }) => {
  it("marks the typed parts, and shows the name that matched beside another, in the option's name too", async () => {
    const page = await openPage(browser(), { viewport });
    await page.route(/\/1\.0\/suggest\/cities\?/, (route) => route.fulfill({ json: HO_CHI }));
    await page.route(/\/1\.0\/suggest\/venues\?/, (route) => route.fulfill({ json: CLUB_BER }));
    await typeCity(page, "ho chi");
    expect(await optionMarkup(page)).toEqual([
      "[Ho] [Chi] Minh City | Ho Chi Minh, Vietnam",
      "Fuzhou | [Ho]k-[chi]u-chhī | Fujian, China",
      "Hochi | Nowhere, Vietnam",
      "Chiho | <b>[ho] chi</b> | Nowhere, Vietnam",
    ]);
    expect(await readList(page)).toEqual([
      "Ho Chi Minh City Ho Chi Minh, Vietnam",
      "Fuzhou · Hok-chiu-chhī Fujian, China",
      "Hochi Nowhere, Vietnam",
      "Chiho · <b>ho chi</b> Nowhere, Vietnam",
    ]);

    // A place read at the end of the text: marked where the option says where the venue is, its country looked up.
    await nameBox(page).fill("");
    await page.getByRole("radio", { name: "Venues" }).check();
    await typeName(page, "club ber");
    await page.waitForFunction(() => document.querySelector("[role=option] .where")?.textContent?.includes("Germany"));
    expect(await optionMarkup(page)).toEqual(["[Club] Cobalt | [Berlin], Germany · club"]);
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
