/**
 * Why a suggestion is there (src/page/matched.ts, combobox.ts), at a desktop's size and a phone's,
 * on answers the test gives with the API's `matched` (issue 55): the typed parts marked, the name
 * that matched beside the shown one when it is another, in the option's name as a screen reader
 * reads it too; a suggestion without `matched` as before; markup in a name shown as text; the place
 * read at the end of the text marked where the option says where the venue is.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserPerFile, openPage, SIZES } from "./browser.ts";
import { nameBox, options, readList, typeCity, typeName } from "./combobox.ts";

const browser = browserPerFile();

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
