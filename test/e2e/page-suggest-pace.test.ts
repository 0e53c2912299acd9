/**
 * The name box's suggestions at a person's pace (src/page/suggest.ts), at a desktop's size and a
 * phone's: typed at a key every 150–200 ms, each answer a network's round trip late, lists keep
 * coming before the last key, each one the answer for the text in the box then or for a start of
 * it (each request used to be aborted by the next key: no list came until a pause).
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserPerFile, openPage, SIZES } from "./browser.ts";
import { nameBox } from "./combobox.ts";

const browser = browserPerFile();

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
