/**
 * The words people write two ways (docs/api.md#spellings): `St`/`St.` and Saint, `Ste` and Sainte,
 * `Ft` and Fort, `Mt` and Mount, `&` and `and`, and German ä, ö, ü as ae, oe, ue (`muenchen`).
 * normalize() already folds the letters NFKD keeps whole (ø æ œ ß ł đ ð þ ı).
 *
 * A name is indexed under every way of writing it, so that a query is the text as typed,
 * normalized, whatever way it was written: `Saint Louis` finds "St. Louis", `St Louis` finds
 * "Saint-Louis", and a prefix stays a prefix (`sain` still finds "St. Louis", `st` "Stadium"). Each
 * word of a name has its ways (as written first); the name's words are all of them, and its forms
 * (its name tokens: the name is the query, or starts with it) the combinations, at most MAX_FORMS.
 * The import indexes every name of cities, venues and places with these (documents, vocabulary,
 * stored totals); the worker normalizes a query with the same normalize(). Pure.
 */
import { isAscii, normalize, words } from "./normalize.ts";

/** Short and long forms of a word that precedes a name: `st louis` and `saint louis`. */
const ABBREVIATIONS: readonly (readonly [short: string, long: string])[] = [
  ["st", "saint"],
  ["ste", "sainte"],
  ["ft", "fort"],
  ["mt", "mount"],
];
const OTHER_FORM = new Map(ABBREVIATIONS.flatMap(([short, long]) => [[short, long] as const, [long, short] as const]));

/** At most this many forms of one name: every combination when few words have two ways. */
const MAX_FORMS = 8;

const UMLAUT_SPELLED: Record<string, string> = { ä: "ae", ö: "oe", ü: "ue", Ä: "Ae", Ö: "Oe", Ü: "Ue" };
const UMLAUT = /[äöüÄÖÜ]/;
const UMLAUTS = /[äöüÄÖÜ]/g;

/** The ways of a word that has no other spelling: itself (`and` also as nothing, as `&` is written). */
const oneWay = (word: string): string[] => (word === "and" ? ["and", ""] : [word]);

/**
 * Each normalized word of a stretch of text without `&`, with its umlauts written out as a second
 * way when it has any. Umlauts are letters written as letters, so both spellings have the same
 * words in the same places.
 */
function stretchWords(stretch: string): string[][] {
  const composed = stretch.normalize("NFC");
  const plain = words(normalize(composed));
  if (!UMLAUT.test(composed)) return plain.map(oneWay);
  const spelled = words(normalize(composed.replace(UMLAUTS, (ch) => UMLAUT_SPELLED[ch] ?? ch)));
  return plain.map((word, i) => {
    const other = spelled.length === plain.length ? spelled[i] : undefined;
    return other === undefined || other === word || word === "and" ? oneWay(word) : [word, other];
  });
}

/** The ways of each word of a name, as written first; an abbreviable word before another also the other form. */
export function wordWays(text: string): string[][] {
  // `&` normalizes to nothing: there it is no word, or `and`.
  const ways = text.split("&").flatMap((stretch, i) => (i === 0 ? [] : [["", "and"]]).concat(stretchWords(stretch)));
  return ways.map((list, i) => {
    const other = i < ways.length - 1 ? OTHER_FORM.get(list[0] ?? "") : undefined;
    return other === undefined ? list : [...list, other];
  });
}

/**
 * The normalized forms a name is indexed under: the name as written first, then its other ways
 * (every combination of its words' ways, up to MAX_FORMS); distinct, none empty.
 */
export const nameForms = (text: string): string[] => formsOf(wordWays(text));

/** The forms of a name from its words' ways (wordWays). */
export function formsOf(ways: readonly string[][]): string[] {
  // Most names are written one way only: their one form, without combining.
  if (ways.every((list) => list.length === 1)) {
    const form = ways.map((list) => list[0]).join(" ");
    return form === "" ? [] : [form];
  }
  let forms: string[][] = [[]];
  for (const list of ways) {
    forms = forms.flatMap((f) => list.map((w) => (w === "" ? f : [...f, w]))).slice(0, MAX_FORMS);
  }
  return [...new Set(forms.map((f) => f.join(" ")))].filter((f) => f !== "");
}

/** Where a word is in a name as written: UTF-16 offset and length, as JavaScript indexes a string. */
export interface WrittenSpan {
  offset: number;
  length: number;
}

/** A word of a name: its ways (wordWays), and where it is written. */
export interface NameWord extends WrittenSpan {
  ways: string[];
}

/** A word written in ASCII: a run of letters and digits. */
const ASCII_WORD = /[A-Za-z0-9]+/g;

/** A character as written: a code point and the combining marks after it (or marks alone). */
const CHARACTER = /\P{M}\p{M}*|\p{M}+/gu;

/**
 * Where each word of a stretch without `&` is, read character by character as normalize() reads
 * them; where a character normalizes to several words (rare: `½`), the whole stretch for each.
 */
function stretchSpans(stretch: string, base: number): WrittenSpan[] {
  // In ASCII each letter or digit normalizes to itself and anything else to a space: the words are
  // the runs of letters and digits (most names, read without a normalize() per character).
  if (isAscii(stretch))
    return Array.from(stretch.matchAll(ASCII_WORD), (m) => ({ offset: base + m.index, length: m[0].length }));
  const count = words(normalize(stretch.normalize("NFC"))).length;
  const spans: WrittenSpan[] = [];
  let inWord = false;
  let split = false;
  for (const m of stretch.matchAll(CHARACTER)) {
    const letters = normalize(m[0]);
    if (letters === "") {
      inWord = false;
      continue;
    }
    if (letters.includes(" ")) split = true;
    const last = spans.at(-1);
    if (inWord && last !== undefined) last.length = base + m.index + m[0].length - last.offset;
    else spans.push({ offset: base + m.index, length: m[0].length });
    inWord = true;
  }
  if (!split && spans.length === count) return spans;
  return Array.from({ length: count }, () => ({ offset: base, length: stretch.length }));
}

/** Where each word of a name (as wordWays() reads them) is written (an `&` is the word `and`, written `&`). */
function wordSpans(text: string): WrittenSpan[] {
  const spans: WrittenSpan[] = [];
  let at = 0;
  text.split("&").forEach((stretch, i) => {
    if (i > 0) spans.push({ offset: at - 1, length: 1 });
    spans.push(...stretchSpans(stretch, at));
    at += stretch.length + 1;
  });
  return spans;
}

/** The words of a name with where each is written; `ways`, its wordWays() where read already. */
export function nameWords(text: string, ways: readonly string[][] = wordWays(text)): NameWord[] {
  const spans = wordSpans(text);
  return ways.map((list, i) => ({ ways: list, ...(spans[i] ?? { offset: 0, length: text.length }) }));
}
