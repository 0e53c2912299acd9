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

/** Each normalized word of a piece of text, with its umlauts written out as a second way when it has any. */
function pieceWords(piece: string): string[][] {
  if (piece === "&") return [["", "and"]]; // `&` normalizes to nothing: no word, or `and`
  const composed = piece.normalize("NFC");
  const plain = words(normalize(composed));
  const spelled = words(normalize(composed.replace(/[äöüÄÖÜ]/g, (ch) => UMLAUT_SPELLED[ch] ?? ch)));
  return plain.map((word, i) => {
    const other = spelled.length === plain.length ? spelled[i] : undefined;
    if (word === "and") return ["and", ""];
    return other === undefined || other === word ? [word] : [word, other];
  });
}

/** The ways of each word of a name, as written first; an abbreviable word before another also the other form. */
function wordWays(text: string): string[][] {
  const ways = text.replaceAll("&", " & ").split(/\s+/).flatMap(pieceWords);
  return ways.map((list, i) => {
    const other = i < ways.length - 1 ? OTHER_FORM.get(list[0] ?? "") : undefined;
    return other === undefined ? list : [...list, other];
  });
}

/**
 * The normalized forms a name is indexed under: the name as written first, then its other ways
 * (every combination of its words' ways, up to MAX_FORMS); distinct, none empty.
 */
export function nameForms(text: string): string[] {
  let forms: string[][] = [[]];
  for (const list of wordWays(text)) {
    forms = forms.flatMap((f) => list.map((w) => (w === "" ? f : [...f, w]))).slice(0, MAX_FORMS);
  }
  return [...new Set(forms.map((f) => f.join(" ")))].filter((f) => f !== "");
}

/**
 * What a record's names put into its search document (docs/architecture.md#search-indexes): every
 * way of every word of its names, and each form of each name as a name token.
 */
export function nameIndexText(names: readonly string[]): { words: string; tokens: string } {
  const allWords = new Set(names.flatMap((n) => wordWays(n).flat()));
  allWords.delete("");
  const forms = [...new Set(names.flatMap(nameForms))];
  return { words: [...allWords].join(" "), tokens: forms.map(nameToken).join(" ") };
}
