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
import { normalize, words } from "./normalize.ts";
import { nameToken } from "./tokens.ts";

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
function wordWays(text: string): string[][] {
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

function formsOf(ways: readonly string[][]): string[] {
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

/** What a record's names put into its search document and beside it (nameIndexText). */
export interface NameIndex {
  /** Every way of every word of its names. */
  words: string;
  /** Each form of each name as a name token. */
  tokens: string;
  /** The forms of its first `own` names (a city's name and ASCII name), normalized. */
  own: string[];
  /** The words of each name apart (src/match/one-name.ts), null when one name holds every word. */
  sets: string | null;
}

/**
 * What a record's names put into its search document (docs/architecture.md#search-indexes), each
 * name's ways of writing worked out once; `own`: how many of the first names are its own.
 */
export function nameIndexText(names: readonly string[], own = 0): NameIndex {
  const allWords = new Set<string>();
  const forms = new Set<string>();
  const ownForms = new Set<string>();
  const sets: Set<string>[] = [];
  names.forEach((name, i) => {
    const ways = wordWays(name);
    const words = new Set(ways.flat().filter((w) => w !== ""));
    for (const word of words) allWords.add(word);
    for (const form of formsOf(ways)) {
      forms.add(form);
      if (i < own) ownForms.add(form);
    }
    if (words.size > 0) sets.push(words);
  });
  return {
    words: [...allWords].join(" "),
    tokens: [...forms].map(nameToken).join(" "),
    own: [...ownForms],
    sets: nameWordSets(sets, allWords.size),
  };
}

/**
 * The words of each name as a JSON array of space-separated words, leaving out a name whose words
 * another name holds all of (it matches nothing that one does not); null when one name is left,
 * since then every word of the record is that name's, as its search document says — as when one
 * name holds all `total` words of the record, the common case, told without comparing the names.
 */
function nameWordSets(sets: readonly Set<string>[], total: number): string | null {
  if (sets.some((set) => set.size === total)) return null;
  const distinct = [...new Map(sets.map((set) => [[...set].sort().join(" "), set])).values()];
  const within = (a: Set<string>, b: Set<string>) => a !== b && a.size <= b.size && [...a].every((w) => b.has(w));
  const kept = distinct.filter((a) => !distinct.some((b) => within(a, b)));
  return kept.length < 2 ? null : JSON.stringify(kept.map((set) => [...set].join(" ")));
}
