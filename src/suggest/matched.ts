/**
 * Why a suggestion is there (docs/api.md#suggestions): the name of the record that holds the typed
 * words, each typed word in a word of its own (src/data-contract/word-matching.ts), and where each
 * is in it, as UTF-16 offsets and lengths, as JavaScript indexes the name. A typed word that is
 * the start of the word as written marks as many characters as it types (`dur` in "Düren": 3);
 * one that matched another way of writing the word (`saint` in "St. Louis", `due` in "Düren")
 * marks the whole word. Pure.
 */
import { allowedEdits } from "../data-contract/typo-keys.ts";
import { isAscii, normalize } from "../data-contract/normalize.ts";
import { nameWords, wordWays, type NameWord, type WrittenSpan } from "../data-contract/spellings.ts";
import { assignWords } from "../data-contract/word-matching.ts";
import { editDistance } from "../query/typos.ts";

/** A suggestion's `matched`: the name, the typed words' spans in it, and the place read at the end. */
export interface Matched {
  name: string;
  spans: WrittenSpan[];
  place?: string;
}

/** Whether a typed word fits a word of a name (its ways, wordWays()): it starts one of them. */
const fits = (typed: string, ways: readonly string[]): boolean => ways.some((w) => w !== "" && w.startsWith(typed));

/** Whether a typed word fits a word of a name forgiving typos: the start of one of its ways within the edits its length allows. */
function fitsForgiving(typed: string, ways: readonly string[]): boolean {
  const length = [...typed].length;
  const edits = allowedEdits(length);
  return ways.some((way) => {
    if (way === "") return false;
    if (way.startsWith(typed)) return true;
    const letters = [...way];
    for (let k = Math.max(1, length - edits); k <= Math.min(letters.length, length + edits); k++) {
      if (editDistance(typed, letters.slice(0, k).join(""), edits) <= edits) return true;
    }
    return false;
  });
}

/** A character as written: a code point and the combining marks after it. */
const CHARACTER = /\P{M}\p{M}*|\p{M}+/gu;

/**
 * The span of a typed word in the word of the name it fits: the characters its letters type when
 * it starts the word as written, else the whole word.
 */
function spanOf(name: string, word: NameWord, typed: string): WrittenSpan {
  const written = name.slice(word.offset, word.offset + word.length);
  const whole = { offset: word.offset, length: word.length };
  if (!(word.ways[0] ?? "").startsWith(typed) || normalize(written) !== word.ways[0]) return whole;
  // Written in ASCII, the word is its letters, each one character: as many as typed.
  if (isAscii(written)) return { offset: word.offset, length: Math.max(1, typed.length) };
  let letters = 0;
  for (const m of written.matchAll(CHARACTER)) {
    letters += normalize(m[0]).length;
    if (letters >= typed.length) return { offset: word.offset, length: m.index + m[0].length };
  }
  return whole;
}

/**
 * The spans of the typed words in `name` (its words' ways: wordWays()) when each fits a word of its
 * own, else null. Where each word is written is read only for the name that fits: a record's names
 * are tried until one does, and a city's may be hundreds.
 */
function spansIn(
  name: string,
  ways: readonly string[][],
  typed: readonly string[],
  fit: typeof fits,
): WrittenSpan[] | null {
  const assigned = assignWords(typed.length, ways.length, (i, j) => {
    const list = ways[j];
    return list !== undefined && fit(typed[i] ?? "", list);
  });
  if (assigned.some((j) => j === null)) return null;
  const words = nameWords(name, ways);
  const spans: WrittenSpan[] = [];
  for (const [i, j] of assigned.entries()) {
    const word = j === null ? undefined : words[j];
    if (word === undefined) return null;
    spans.push(spanOf(name, word, typed[i] ?? ""));
  }
  return spans;
}

/** `names`, then `others()`, each once and none empty: the others read only when asked for. */
function* distinct(names: readonly string[], others: () => readonly string[]): Generator<string> {
  const seen = new Set<string>();
  for (const list of [names, null]) {
    for (const name of list ?? others()) {
      if (name === "" || seen.has(name)) continue;
      seen.add(name);
      yield name;
    }
  }
}

/**
 * The first of `names` (the shown name first, then the record's others, in the order they are
 * preferred; `others`, the rest of them, read only when none before holds the words: a city's
 * may be hundreds) that holds every typed word (normalized), with their spans; when none does,
 * the names are read forgiving typos (a suggestion of the typo fallback); when still none does,
 * the first name, without spans.
 */
export function matchedName(
  typed: readonly string[],
  names: readonly string[],
  others: () => readonly string[] = () => [],
): Matched {
  let read: readonly string[] | undefined;
  const rest = () => (read ??= others());
  // Each name's words read once for both ways of fitting.
  const waysOf = new Map<string, string[][]>();
  const ways = (name: string) => waysOf.get(name) ?? waysOf.set(name, wordWays(name)).get(name) ?? [];
  for (const fit of [fits, fitsForgiving]) {
    for (const name of distinct(names, rest)) {
      const spans = spansIn(name, ways(name), typed, fit);
      if (spans !== null) return { name, spans };
    }
  }
  const first = distinct(names, rest).next();
  return { name: first.done === true ? "" : first.value, spans: [] };
}
