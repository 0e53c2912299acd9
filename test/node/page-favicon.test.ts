/**
 * The page's icon (scripts/page/favicon.ts): the SVG the page names, and the same picture as a
 * 32 × 32 ICO and as a 180 × 180 PNG for Apple's home screens, whose headers and pixels are read
 * back here (Chromium draws all three: test/e2e).
 */
import { crc32, inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { appleTouchIconPng, faviconIco, faviconSvg } from "../../scripts/page/favicon.ts";

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

/** A PNG's chunks, each checked against its CRC. */
function chunks(png: Buffer): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const typed = png.subarray(at + 4, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length), typed.subarray(0, 4).toString("latin1")).toBe(crc32(typed));
    found.set(typed.subarray(0, 4).toString("latin1"), typed.subarray(4));
    at += 12 + length;
  }
  return found;
}

describe("the page's touch icon", () => {
  it("as PNG: 180 × 180, opaque, the same picture on a white ground", () => {
    const png = appleTouchIconPng();
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const parts = chunks(png);
    expect([...parts.keys()]).toEqual(["IHDR", "IDAT", "IEND"]);
    const header = parts.get("IHDR") ?? Buffer.alloc(0);
    expect([header.readUInt32BE(0), header.readUInt32BE(4), ...header.subarray(8)]).toEqual([180, 180, 8, 2, 0, 0, 0]);
    const rows = inflateSync(parts.get("IDAT") ?? Buffer.alloc(0));
    expect(rows.length).toBe(180 * (1 + 180 * 3));
    const at = (x: number, y: number) => [...rows.subarray(y * 541 + 1 + x * 3, y * 541 + 4 + x * 3)];
    expect(Array.from({ length: 180 }, (_, y) => rows[y * 541])).toEqual(Array<number>(180).fill(0));
    expect(at(90, 90)).toEqual([255, 255, 255]);
    expect(at(90, 25)).toEqual([0x0b, 0x5f, 0xff]);
    expect(at(0, 0)).toEqual([255, 255, 255]);
  });
});
