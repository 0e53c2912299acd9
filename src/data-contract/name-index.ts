/**
 * What a record's names put into its search document and beside it (docs/architecture.md#search-indexes):
 * every way of writing each of its names (spellings.ts), each name's words apart where its names
 * hold different words (src/match/one-name.ts), leaving out a name another holds word for word,
 * and the starts that several words of a name share, so that a typed word is never read for two
 * words of one name (src/match/fts.ts everyWordText). The import writes them; the worker's queries
 * ask for the same tokens. Pure.
 */
import type { Language } from "./languages.ts";
import { nameTextsJson } from "./name-sets.ts";
import { isAscii } from "./normalize.ts";
import { formsOf, nameForms, wordWays } from "./spellings.ts";
import {
  ANY_NAME,
  ASCII_WORDS,
  localizedNameToken,
  mainNameToken,
  nameToken,
  ownWords,
  type WordTokens,
} from "./tokens.ts";
import { everyWordAssigned } from "./word-matching.ts";

/** Each word's ways that are written (a word that may be left out, `&`, keeps `and`), words without any left out. */
function writtenWays(ways: readonly (readonly string[])[]): string[][] {
  // Most words are written one way, never left out: the lists as they are.
  if (ways.every((list) => list.length === 1 && list[0] !== "")) return ways as string[][];
  return ways.map((list) => list.filter((w) => w !== "")).filter((list) => list.length > 0);
}

const firstLetter = (word: string): string => String.fromCodePoint(word.codePointAt(0) ?? 0);

/** Whether two words of a name may start alike: some first letter is that of two of them. */
function firstLettersShared(written: readonly (readonly string[])[]): boolean {
  const seen = new Set<string>();
  for (const list of written) {
    const firsts = list.length === 1 ? [firstLetter(list[0] ?? "")] : new Set(list.map(firstLetter));
    for (const f of firsts) {
      if (seen.has(f)) return true;
      seen.add(f);
    }
  }
  return false;
}

/** Every start of a word, by code point: `ber` → b, be, ber. */
export function startsOf(word: string): string[] {
  const starts: string[] = [];
  let start = "";
  for (const letter of word) starts.push((start += letter));
  return starts;
}

/**
 * The starts that several words of a name share: for each count n ≥ 2, the longest starts that n
 * of its words have, as [n, start] (a word counted once, whichever of its ways starts so). Several
 * typed words that start with a typed word `a` (it among them) fit the name only if as many of its
 * words start with `a`: `a` starts one of its starts of that count (src/match/fts.ts everyWordText).
 */
export function sharedStarts(ways: readonly (readonly string[])[]): [count: number, start: string][] {
  const written = writtenWays(ways);
  // Most names have no two words with the same first letter: nothing to count.
  if (written.length < 2 || !firstLettersShared(written)) return [];
  const counts = new Map<string, number>();
  for (const list of written) {
    for (const start of new Set(list.flatMap(startsOf))) counts.set(start, (counts.get(start) ?? 0) + 1);
  }
  // Per start, the most words that a start one letter longer has: counts up to it are that one's.
  const longer = new Map<string, number>();
  for (const [start, n] of counts) {
    const shorter = Array.from(start).slice(0, -1).join("");
    if (shorter !== "") longer.set(shorter, Math.max(longer.get(shorter) ?? 0, n));
  }
  const out: [number, string][] = [];
  for (const [start, n] of counts) {
    for (let k = Math.max(2, (longer.get(start) ?? 0) + 1); k <= n; k++) out.push([k, start]);
  }
  return out;
}

/** A name's words (its ways: wordWays) and their shared starts as tokens of a document, each once. */
function wordTokens(ways: readonly (readonly string[])[], scope: WordTokens): string[] {
  const tokens = new Set(
    ways
      .flat()
      .filter((w) => w !== "")
      .map((w) => scope.word(w)),
  );
  for (const [n, start] of sharedStarts(ways)) tokens.add(scope.shared(n, start));
  return [...tokens];
}

/** What a record's names put into its search document and beside it (nameIndexText). */
export interface NameIndex {
  /** Every way of every word of its names. */
  words: string;
  /** Each form of each name as a name token. */
  tokens: string;
  /** The forms of its first `own` names (a city's name and ASCII name), normalized. */
  own: string[];
  /** The starts its names' words share (tokens.ts `__r<n>_<start>`), for its search document. */
  shared: string;
  /**
   * Each name apart (src/match/one-name.ts) as a JSON array of documents, its words and their shared
   * starts; null when one name holds every other's words (then its search document is that name's).
   */
  sets: string | null;
  /**
   * The names a match may be in, as written (src/data-contract/name-sets.ts): those of `sets`, in
   * their order, or, when one name holds every other's words, that name when it is not the first;
   * else null.
   */
  texts: string | null;
}

/** A name with words, as nameIndexText compares it with the others. */
interface HeldName {
  name: string;
  first: boolean;
  ways: string[][];
  /** Its written ways per word (writtenWays). */
  written: string[][];
  words: Set<string>;
  /** The same for every name that holds the same texts, however its words are ordered. */
  key: string;
}

/** Whether `b` holds every text `a` holds: each word of `a` a word of its own in `b`, written every way `a`'s is. */
function holdsAll(b: HeldName, a: HeldName): boolean {
  if (a.written.length > b.written.length || ![...a.words].every((w) => b.words.has(w))) return false;
  return everyWordAssigned(a.written.length, b.written.length, (i, j) =>
    (a.written[i] ?? []).every((w) => b.written[j]?.includes(w) === true),
  );
}

/** The same name, however its words are ordered: the same texts fit it. */
const keyOf = (written: readonly (readonly string[])[]): string =>
  written
    .map((list) => (list.length === 1 ? (list[0] ?? "") : [...list].sort().join("|")))
    .sort()
    .join(" ");

/**
 * The names no other name holds all of (holdsAll), each once, in their order: a name another holds
 * matches nothing that one does not.
 */
function keptNames(held: readonly HeldName[]): HeldName[] {
  const byKey = new Map<string, HeldName>();
  for (const h of held) {
    const seen = byKey.get(h.key);
    // Of names written alike but for their marks, the one with them ("Hok-chiu-chhī", not
    // "Hok-chiu-chhi"): the name shown as the one that matched; a record's first name stays.
    if (seen === undefined || (!seen.first && isAscii(seen.name) && !isAscii(h.name))) byKey.set(h.key, h);
  }
  const [first, ...rest] = byKey.values();
  if (first === undefined) return [];
  // The common case, told with one comparison per name: the name of most words holds every other.
  const largest = rest.reduce((a, b) => (b.written.length > a.written.length ? b : a), first);
  const distinct = [first, ...rest];
  if (distinct.every((h) => h === largest || holdsAll(largest, h))) return [largest];
  return distinct.filter((a) => !distinct.some((b) => b !== a && holdsAll(b, a)));
}

/**
 * What a record's names put into its search document (docs/architecture.md#search-indexes), each
 * name's ways of writing worked out once; `own`: how many of the first names are its own.
 */
export function nameIndexText(names: readonly string[], own = 0): NameIndex {
  const allWords = new Set<string>();
  const forms = new Set<string>();
  const ownForms = new Set<string>();
  const held: HeldName[] = [];
  // A record's names often repeat one another (a city's ASCII name is most often its name).
  const waysOf = new Map<string, string[][]>();
  names.forEach((name, i) => {
    const ways = waysOf.get(name) ?? wordWays(name);
    waysOf.set(name, ways);
    const words = new Set(ways.flat().filter((w) => w !== ""));
    for (const word of words) allWords.add(word);
    for (const form of formsOf(ways)) {
      forms.add(form);
      if (i < own) ownForms.add(form);
    }
    if (words.size === 0) return;
    const written = writtenWays(ways);
    held.push({ name, first: i === 0, ways, written, words, key: keyOf(written) });
  });
  const kept = keptNames(held);
  const shared = kept.map((k) => sharedStarts(k.ways).map(([n, start]) => ANY_NAME.shared(n, start)));
  const texts = kept.length > 1 || kept[0]?.first === false ? nameTextsJson(kept.map((k) => k.name)) : null;
  return {
    words: [...allWords].join(" "),
    tokens: [...forms].map(nameToken).join(" "),
    own: [...ownForms],
    shared: [...new Set(shared.flat())].join(" "),
    sets: kept.length < 2 ? null : JSON.stringify(kept.map((k, i) => [...k.words, ...(shared[i] ?? [])].join(" "))),
    texts,
  };
}

/** A record's name shown in a served language, where it has one. */
export interface LocalizedName {
  lang: Exclude<Language, "en">;
  name: string;
}

/**
 * The tokens of a record's own names (tokens.ts), which the searches rank first and the suggestions
 * count over its others: `forms`, the normalized forms of its own names (a city's name and ASCII
 * name), as main-name tokens; its shown name's words, and its ASCII name's where they differ; the
 * same of its name in each served language.
 */
export function ownNameTokens(
  forms: readonly string[],
  shown: string,
  localized: readonly LocalizedName[],
  ascii: string | null = null,
): string[] {
  const shownWays = wordWays(shown);
  const asciiWays = ascii === null ? null : wordWays(ascii);
  const sameWords = asciiWays === null || asciiWays.flat().every((w) => shownWays.some((ways) => ways.includes(w)));
  return [
    ...forms.map(mainNameToken),
    ...wordTokens(shownWays, ownWords("en")),
    ...(sameWords ? [] : wordTokens(asciiWays, ASCII_WORDS)),
    ...localized.flatMap((l) => [
      ...nameForms(l.name).map((form) => localizedNameToken(l.lang, form)),
      ...wordTokens(wordWays(l.name), ownWords(l.lang)),
    ]),
  ];
}
