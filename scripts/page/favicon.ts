/**
 * The search page's icon, written by scripts/page/build.ts into public/ beside the page's script:
 * favicon.svg, which the page names (`<link rel="icon">`), and the same picture drawn into
 * favicon.ico (32 × 32, one 32-bit bitmap), which browsers and other clients ask for by its
 * well-known path when a page names none; and apple-touch-icon.png (180 × 180, opaque: iOS puts a
 * transparent icon on black), which the page names too, for a home screen (its well-known path
 * was a 404). A disc in the page's accent colour with a white centre, a marker as the map
 * draws them. All are static assets: the worker's bundle holds none.
 */
import { crc32, deflateSync } from "node:zlib";

/** The discs of the icon, drawn in this order, on a 16-unit square. */
const DISCS = [
  { radius: 7, rgb: [0x0b, 0x5f, 0xff] },
  { radius: 3, rgb: [0xff, 0xff, 0xff] },
] as const;

const UNITS = 16;

const hex = (rgb: readonly number[]) => `#${rgb.map((c) => c.toString(16).padStart(2, "0")).join("")}`;

/** The icon as SVG. */
export function faviconSvg(): string {
  const circles = DISCS.map((d) => `<circle cx="8" cy="8" r="${d.radius}" fill="${hex(d.rgb)}"/>`).join("");
  // Sized as the ICO is, for what draws an image at its own size; a browser's tab scales it.
  return `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 ${UNITS} ${UNITS}">${circles}</svg>\n`;
}

/** Samples per pixel side: the discs' edges are smoothed over 4 × 4 points of each pixel. */
const SAMPLES = 4;

/** A pixel's colour and coverage (red, green, blue, alpha 0–255), from the points of it the discs cover. */
function pixel(x: number, y: number, size: number): [number, number, number, number] {
  const sum = [0, 0, 0];
  let covered = 0;
  for (let i = 0; i < SAMPLES * SAMPLES; i++) {
    const ux = ((x + ((i % SAMPLES) + 0.5) / SAMPLES) * UNITS) / size - UNITS / 2;
    const uy = ((y + (Math.floor(i / SAMPLES) + 0.5) / SAMPLES) * UNITS) / size - UNITS / 2;
    const top = DISCS.findLast((d) => ux * ux + uy * uy <= d.radius * d.radius);
    if (top === undefined) continue;
    top.rgb.forEach((c, k) => (sum[k] = (sum[k] ?? 0) + c));
    covered++;
  }
  if (covered === 0) return [0, 0, 0, 0];
  const [r = 0, g = 0, b = 0] = sum.map((c) => Math.round(c / covered));
  return [r, g, b, Math.round((255 * covered) / (SAMPLES * SAMPLES))];
}

/**
 * The icon as an ICO file: its header, one directory entry, and a 32-bit bitmap (BGRA, rows from
 * the bottom up, its height doubled for the 1-bit mask after it, which the alpha makes all zeros).
 */
export function faviconIco(size = 32): Buffer {
  const maskRow = Math.ceil(size / 32) * 4;
  const image = 40 + size * size * 4 + maskRow * size;
  const ico = Buffer.alloc(6 + 16 + image);
  ico.writeUInt16LE(1, 2); // an icon
  ico.writeUInt16LE(1, 4); // one image
  ico.writeUInt8(size % 256, 6);
  ico.writeUInt8(size % 256, 7);
  ico.writeUInt16LE(1, 10); // planes
  ico.writeUInt16LE(32, 12); // bits per pixel
  ico.writeUInt32LE(image, 14);
  ico.writeUInt32LE(22, 18); // where the image starts
  ico.writeUInt32LE(40, 22); // BITMAPINFOHEADER
  ico.writeInt32LE(size, 26);
  ico.writeInt32LE(size * 2, 30);
  ico.writeUInt16LE(1, 34);
  ico.writeUInt16LE(32, 36);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel(x, y, size);
      ico.set([b, g, r, a], 62 + ((size - 1 - y) * size + x) * 4);
    }
  }
  return ico;
}

/** The touch icon's ground, where the disc leaves its corners: white, as the disc's centre. */
const GROUND = [0xff, 0xff, 0xff] as const;

/** A PNG chunk: its length, type, data and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const framed = Buffer.alloc(typed.length + 8);
  framed.writeUInt32BE(data.length, 0);
  typed.copy(framed, 4);
  framed.writeUInt32BE(crc32(typed), typed.length + 4);
  return framed;
}

/**
 * The icon as an opaque PNG for Apple's home screens (180 × 180, the size iOS asks for): the
 * discs blended over a white ground, 8-bit RGB rows, each with filter 0 (none), deflated.
 */
export function appleTouchIconPng(size = 180): Buffer {
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel(x, y, size);
      const rgb = [r, g, b].map((c, k) => Math.round((c * a + (GROUND[k] ?? 0) * (255 - a)) / 255));
      rows.set(rgb, y * (1 + size * 3) + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits a channel, truecolour, deflate, filter method 0, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
