/**
 * The page's icon (scripts/page/favicon.ts): the SVG the page names, and the same picture as a
 * 32 × 32 ICO, whose header and pixels are read back here (Chromium draws both: test/e2e).
 */
import { describe, expect, it } from "vitest";
import { faviconIco, faviconSvg } from "../../scripts/page/favicon.ts";

/** The pixel at (x, y) of a 32-bit ICO's only bitmap, as red, green, blue, alpha. */
function pixel(ico: Buffer, x: number, y: number): number[] {
  const size = ico.readUInt8(6);
  const at = 62 + ((size - 1 - y) * size + x) * 4;
  const [b, g, r, a] = ico.subarray(at, at + 4);
  return [r ?? NaN, g ?? NaN, b ?? NaN, a ?? NaN];
}

describe("the page's icon", () => {
  it("as SVG: a disc in the accent colour, a white centre", () => {
    expect(faviconSvg()).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#0b5fff"/><circle cx="8" cy="8" r="3" fill="#ffffff"/></svg>\n',
    );
  });

  it("as ICO: one 32 × 32 32-bit image of the same picture", () => {
    const ico = faviconIco();
    expect(ico.length).toBe(6 + 16 + 40 + 32 * 32 * 4 + 32 * 4);
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico.readUInt8(6), ico.readUInt8(7), ico.readUInt16LE(12), ico.readUInt32LE(14)]).toEqual([
      32,
      32,
      32,
      ico.length - 22,
    ]);
    expect(pixel(ico, 16, 16)).toEqual([255, 255, 255, 255]);
    expect(pixel(ico, 16, 4)).toEqual([0x0b, 0x5f, 0xff, 255]);
    expect(pixel(ico, 0, 0)).toEqual([0, 0, 0, 0]);
    // The disc's edge smoothed: pixels it partly covers are partly opaque.
    const alphas = Array.from({ length: 32 * 32 }, (_, i) => pixel(ico, i % 32, Math.floor(i / 32))[3] ?? NaN);
    expect(alphas.filter((a) => a > 0 && a < 255).length).toBeGreaterThan(40);
  });
});
