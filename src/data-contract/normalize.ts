/**
 * The one text normalization of the contract (docs/api.md#matching), shared by the import (which stores
 * normalized names) and the worker (which normalizes query values the same way):
 * Unicode NFKD, diacritics removed, case-folded, punctuation as spaces, whitespace collapsed.
 */

// Latin letters that carry a "diacritic" but have no Unicode decomposition, so NFKD alone
// would leave `Łódź` as `łodz`. Folded so that `lodz` finds it, as a user expects.
const UNDECOMPOSABLE: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  ł: "l",
  đ: "d",
  ð: "d",
  þ: "th",
  ħ: "h",
  ı: "i",
  ŀ: "l",
  ŧ: "t",
  ς: "σ",
};
const UNDECOMPOSABLE_RE = new RegExp(`[${Object.keys(UNDECOMPOSABLE).join("")}]`, "gu");

const ASCII = /^[\x00-\x7f]*$/;

/** Whether a text is written in ASCII alone (where normalize() keeps letters and digits as they are, lower-cased). */
export const isAscii = (text: string): boolean => ASCII.test(text);

export function normalize(text: string): string {
  // Most names are ASCII, where NFKD and diacritics do nothing: the same result, cheaper.
  if (ASCII.test(text))
    return text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, " ")
      .trim();
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(UNDECOMPOSABLE_RE, (ch) => UNDECOMPOSABLE[ch] ?? ch)
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The words of an already normalized text. */
export function words(normalized: string): string[] {
  return normalized === "" ? [] : normalized.split(" ");
}

/**
 * The smallest string greater than every string that starts with `prefix` (non-empty), so
 * `prefix <= s < prefixEnd(prefix)` selects exactly the strings starting with it, in
 * SQLite's binary (code point) order.
 */
export function prefixEnd(prefix: string): string {
  const points = Array.from(prefix);
  const last = points.pop();
  if (last === undefined) throw new RangeError("prefixEnd of an empty string");
  let next = (last.codePointAt(0) ?? 0) + 1;
  if (next >= 0xd800 && next < 0xe000) next = 0xe000; // skip the surrogate range
  return points.join("") + String.fromCodePoint(next);
}

/**
 * Compares two strings by code point, which is SQLite's BINARY collation on UTF-8 text.
 * (Plain `<` compares UTF-16 units and puts U+E000–U+FFFF after astral characters.)
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return sortKey(x) - sortKey(y);
  }
  return a.length - b.length;
}

function sortKey(unit: number): number {
  if (unit >= 0xd800 && unit < 0xe000) return unit + 0x2000; // surrogates: above the BMP
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}
