/**
 * The map's focus ring and the page's icon: the map, reached with Tab, is a region named "Map" and
 * described by its keys (it had no role and no name: a screen reader said nothing), and draws the
 * page's focus ring around it (its own 1 px line hid it), at a desktop's size and a phone's,
 * measured in the pixels drawn; the icons the page names (/favicon.ico, which browsers ask for by itself too, /favicon.svg,
 * and /apple-touch-icon.png, which Safari asks for by itself for a home screen) are served, none
 * a 404, and are images Chromium draws, at both sizes.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { base, browserPerFile, openPage, showMap, SIZES, statusSays } from "./browser.ts";

const browser = browserPerFile();

/** The page's accent colour (light scheme), which its focus ring is drawn in. */
const ACCENT = [0x0b, 0x5f, 0xff];

/** The colour drawn at (x, y) on the screen, as red, green, blue (read from a screenshot by a page without CSP). */
async function pixelAt(page: Page, x: number, y: number): Promise<number[]> {
  const png = await page.screenshot({ clip: { x, y, width: 1, height: 1 } });
  const reader = await page.context().newPage();
  const rgb = await reader.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = document.createElement("canvas");
    const context = canvas.getContext("2d");
    context?.drawImage(image, 0, 0);
    return [...(context?.getImageData(0, 0, 1, 1).data ?? [])].slice(0, 3);
  }, png.toString("base64"));
  await reader.close();
  return rgb;
}

/** The colours beside the map's left edge and above its top edge, where a ring 3 px wide 2 px off it is drawn. */
async function ringPixels(page: Page): Promise<{ left: number[]; above: number[] }> {
  const map = await page.locator("#map").boundingBox();
  if (map === null) throw new Error("the map is not shown");
  return {
    left: await pixelAt(page, Math.floor(map.x) - 4, Math.round(map.y + map.height / 2)),
    above: await pixelAt(page, Math.round(map.x + map.width / 2), Math.floor(map.y) - 4),
  };
}

const near = (rgb: number[], expected: number[]) => rgb.every((c, i) => Math.abs(c - (expected[i] ?? NaN)) <= 8);

describe.each(SIZES)("the map with the focus ($screen)", ({ viewport }) => {
  it("is a named region, and draws the focus ring around it, as every control has", async () => {
    const page = await openPage(browser(), { viewport, colorScheme: "light" }, base(), "/?type=cities&name=paris");
    await statusSays(page, /^[\d,]+ cities named paris/);
    await showMap(page);
    await page.getByRole("button", { name: "Search this area" }).focus();
    await page.locator("#map").scrollIntoViewIfNeeded();
    expect(near((await ringPixels(page)).left, ACCENT), "no ring before").toBe(false);

    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("map");
    // A region with a name, as a screen reader announces what has the focus, and how its keys work.
    const map = page.getByRole("region", { name: "Map", exact: true });
    expect(await map.evaluate((e) => e === document.activeElement)).toBe(true);
    expect(
      await map.evaluate((e) => document.getElementById(e.getAttribute("aria-describedby") ?? "")?.textContent),
    ).toBe("Arrow keys move the map; + and − zoom it.");
    const ring = await ringPixels(page);
    expect(ring.left, "the ring, left of the map").toSatisfy((rgb: number[]) => near(rgb, ACCENT));
    expect(ring.above, "the ring, above the map").toSatisfy((rgb: number[]) => near(rgb, ACCENT));
    await page.context().close();
  });
});

/** The icons the page names, their types, and the size each is drawn at. */
const ICONS = [
  { rel: "icon", path: "/favicon.ico", type: /^image\/(x-icon|vnd\.microsoft\.icon)$/, size: 32 },
  { rel: "icon", path: "/favicon.svg", type: /^image\/svg\+xml/, size: 32 },
  { rel: "apple-touch-icon", path: "/apple-touch-icon.png", type: /^image\/png$/, size: 180 },
];

describe.each(SIZES)("the page's icons ($screen)", ({ viewport }) => {
  it("are named, served and drawn: /favicon.ico, /favicon.svg, and /apple-touch-icon.png for a home screen", async () => {
    const missing: string[] = [];
    const page = await openPage(browser(), { viewport });
    page.on("response", (r) => {
      if (r.status() === 404) missing.push(r.url());
    });
    await page.reload();
    const named = await page
      .locator("link[rel=icon], link[rel=apple-touch-icon]")
      .evaluateAll((links) => links.map((l) => [l.getAttribute("rel"), (l as HTMLLinkElement).href]));
    expect(named).toEqual(ICONS.map(({ rel, path }) => [rel, `${base()}${path}`]));
    for (const { path, type, size } of ICONS) {
      const url = `${base()}${path}`;
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get("Content-Type"), url).toMatch(type);
      // Drawn by Chromium, under the page's Content-Security-Policy.
      const drawn = await page.evaluate(async (src) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        return [image.naturalWidth, image.naturalHeight];
      }, url);
      expect(drawn, url).toEqual([size, size]);
    }
    expect(missing).toEqual([]);
    await page.context().close();
  });
});
