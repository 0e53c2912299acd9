import { afterEach, describe, expect, it, vi } from "vitest";
import { call, callWith } from "./helpers.ts";

describe("the search page", () => {
  it("is HTML with a strict Content-Security-Policy; its script is a static asset (test/e2e)", async () => {
    const res = await call("/", { headers: { Accept: "text/html" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("Content-Security-Policy")).toMatch(/script-src 'self'/);
    const html = await res.text();
    expect(html).toMatch(/<script src="\/app\.js" defer><\/script>/);
    expect(html).not.toMatch(/<script>/);
    expect(html).toContain('<link rel="stylesheet" href="/app.css">');
    for (const id of [
      "name",
      "city",
      "country",
      "state",
      "lang",
      "view",
      "results",
      "prev",
      "next",
      "curl",
      "map",
      "area",
    ]) {
      expect(html, id).toContain(`id="${id}"`);
    }
    // Each text field carries the API's limit on a value (docs/api.md#parameters).
    expect(html.match(/<input [^>]*maxlength="100"/g)).toHaveLength(4);
  });

  it("needs no API key, unlike the API", async () => {
    const keys = { API_KEY_HASHES: "0".repeat(64) };
    expect((await callWith(keys, "/")).status).toBe(200);
    expect((await callWith(keys, "/1.0/openapi.json")).status).toBe(200);
    expect((await callWith(keys, "/1.0/search/cities?name=paris")).status).toBe(401);
  });

  it("answers HEAD without a body and other methods with 405", async () => {
    const head = await call("/", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect((await call("/", { method: "POST" })).status).toBe(405);
  });
});

describe("the search page's map tiles (docs/deploy.md#map-tiles)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** The page with MAP_TILES and MAP_ATTRIBUTION set: its images' CSP, its tile template, its tiles' credit. */
  async function withTiles(MAP_TILES: string, MAP_ATTRIBUTION = "") {
    const res = await callWith({ MAP_TILES, MAP_ATTRIBUTION }, "/");
    const html = await res.text();
    return {
      imgSrc: /img-src ([^;]*);/.exec(res.headers.get("Content-Security-Policy") ?? "")?.[1],
      tiles: /<div id="map"[^>]* data-tiles="([^"]*)">/.exec(html)?.[1],
      credit: /<p class="map-credit">(.*?)<\/p>/.exec(html)?.[1],
    };
  }

  it("by default OpenStreetMap's, credited, and images from there (and data:, for Leaflet) and nowhere else", async () => {
    expect(await withTiles("")).toEqual({
      imgSrc: "'self' data: https://tile.openstreetmap.org",
      tiles: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
      credit: '<a href="https://www.openstreetmap.org/copyright">© OpenStreetMap contributors</a>',
    });
  });

  it("off: no tiles, no credit for them, images from the page's origin only", async () => {
    expect(await withTiles("off")).toEqual({ imgSrc: "'self'", tiles: "", credit: undefined });
  });

  it("another server's, its subdomains allowed, its credit escaped but for its links", async () => {
    const tiles = "https://{s}.tiles.example.com/base/{z}/{x}/{y}.png?key=a&b=1";
    expect(await withTiles(tiles, "Tiles <b>[Example](https://example.com/about)</b> & OSM")).toEqual({
      imgSrc: "'self' data: https://*.tiles.example.com",
      tiles: "https://{s}.tiles.example.com/base/{z}/{x}/{y}.png?key=a&#38;b=1",
      credit: 'Tiles &#60;b&#62;<a href="https://example.com/about">Example</a>&#60;/b&#62; &#38; OSM',
    });
  });

  it("a setting that is no tile template: no tiles, logged", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const bad of ["javascript:alert(1)", "https://tiles.example.com/{z}/{x}.png", "https://a b/{z}/{x}/{y}.png"]) {
      expect((await withTiles(bad)).imgSrc, bad).toBe("'self'");
    }
    expect(logged).toHaveBeenCalledTimes(3);
  });
});
