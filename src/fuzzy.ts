/**
 * Typo tolerance (SPEC §10.1): which words may differ by how many edits, the deletion
 * neighbourhoods that find candidate words in the vocabulary index (SymSpell), and the edit
 * distance that decides. The import indexes each vocabulary word by indexDeletes(); a query looks
 * up queryDeletes() of its words and verifies every candidate with editDistance(). Pure.
 *
 * Why the two neighbourhoods find every word within the allowed edits: if a query word q and a
 * word w are within k edits (letters inserted, deleted, substituted, or two neighbours swapped),
 * then some string is reached from q by at most k deletions and from w by at most k deletions.
 * Both sides cut the word to its first HEAD letters first, which keeps the index small and costs
 * at most one more deletion on the side with fewer insertions, still within k; and a word of up
 * to 7 letters can only be within 2 edits of a query of 8 or more by insertions, so one deletion
 * is enough on its side (see the tests, which check this against brute force).
 */

/** Letters of a word that the neighbourhoods look at. */
export const HEAD = 8;

/** Edits allowed for a query word of `length` letters: none under 4, one up to 7, two from 8. */
export function allowedEdits(length: number): 0 | 1 | 2 {
  return length < 4 ? 0 : length < 8 ? 1 : 2;
}

/** Deletions indexed for a vocabulary word: words under 3 letters are no one's correction. */
function indexDepth(length: number): 0 | 1 | 2 {
  return length < 3 ? 0 : length < 8 ? 1 : 2;
}

/** Whether a string has UTF-16 surrogates (letters outside the Basic Multilingual Plane). */
const SURROGATE = /[\ud800-\udfff]/;

/**
 * Every string reached from the first HEAD letters of `word` by at most `depth` (1 or 2)
 * deletions, space-separated. Deleting any letter of a run of equal letters gives the same
 * string, so only a run's first letter is deleted (other repeats, rare, are harmless: a key is a
 * key). One string grown by concatenation: the import does this for every word of the vocabulary
 * (half a million words, ten million keys), and this is several times faster than arrays of keys.
 */
function deletions(word: string, depth: 1 | 2): string {
  // Letters are code points: UTF-16 units in the Basic Multilingual Plane (almost every word).
  const letters = SURROGATE.test(word) ? Array.from(word).slice(0, HEAD) : word.slice(0, HEAD);
  const text =
    typeof letters === "string"
      ? (from: number, to: number) => letters.slice(from, to)
      : (from: number, to: number) => letters.slice(from, to).join("");
  const n = letters.length;
  let out = text(0, n);
  for (let i = 0; i < n; i++) {
    if (i > 0 && letters[i] === letters[i - 1]) continue;
    const before = text(0, i);
    out += ` ${before}${text(i + 1, n)}`;
    if (depth === 1) continue;
    for (let j = i + 1; j < n; j++) {
      if (j === i + 1 || letters[j] !== letters[j - 1]) out += ` ${before}${text(i + 1, j)}${text(j + 1, n)}`;
    }
  }
  return out;
}

/** A word's length in letters (code points). */
const letterCount = (word: string) => (SURROGATE.test(word) ? Array.from(word).length : word.length);

/** The keys a vocabulary word is indexed under, space-separated (empty for words too short to be corrections). */
export function indexDeletes(word: string): string {
  const depth = indexDepth(letterCount(word));
  return depth === 0 ? "" : deletions(word, depth);
}

/** The keys to look up for a query word (empty when it may not differ at all). */
export function queryDeletes(word: string): string[] {
  const edits = allowedEdits(Array.from(word).length);
  return edits === 0 ? [] : deletions(word, edits).split(" ");
}

/**
 * The optimal string alignment distance (insertions, deletions, substitutions and swaps of
 * neighbours, each 1) between two words, by code point; any value above `max` is reported as
 * max + 1, so long words cost little.
 */
export function editDistance(a: string, b: string, max: number): number {
  const s = Array.from(a);
  const t = Array.from(b);
  if (Math.abs(s.length - t.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, (before[j - 2] ?? 0) + 1);
      current.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[t.length] ?? max + 1, max + 1);
}

/** A word of the vocabulary that the index found for a query, with how many records hold it. */
export interface Candidate {
  word: string;
  records: number;
}

/** One way of reading the query: a word for each query word, and the edits that took. */
export interface Reading {
  words: string[];
  edits: number;
}

/** What a query word may be read as, and the edits that takes. */
export interface Alternative {
  word: string;
  edits: number;
}

/**
 * At most this many corrections per query word (short words have many neighbours, and the right
 * one may be a rare word); whole readings of a query of several words (combinations: each costs
 * its search time, so few), and ways of spreading edits over its words (see spreads()).
 */
const ALTERNATIVES = 24;
const READINGS_OF_MORE_WORDS = 8;
const SPREADS = 12;

/** A query word that may be corrected: its lookup keys and the lengths its corrections can have. */
export interface Lookup {
  keys: string[];
  minLength: number;
  maxLength: number;
}

/** The lookups of a query's words (none for words that may not differ). */
export function lookups(queryWords: readonly string[]): Lookup[] {
  return [...new Set(queryWords)].flatMap((word) => {
    const length = Array.from(word).length;
    const edits = allowedEdits(length);
    // Each edit changes the length by at most one.
    return edits === 0 ? [] : [{ keys: queryDeletes(word), minLength: length - edits, maxLength: length + edits }];
  });
}

/**
 * What each query word may be read as, fewest edits first (then the more common corrections):
 * a candidate within its allowed edits, or itself when `present` says some record has a word
 * starting with it (a word that matches nothing alone cannot be part of a reading that matches).
 */
export function alternatives(
  queryWords: readonly string[],
  candidates: readonly Candidate[],
  present: readonly boolean[] = [],
): Alternative[][] {
  return queryWords.map((q, i) => {
    const max = allowedEdits(Array.from(q).length);
    const corrections = candidates
      .filter((c) => c.word !== q)
      .map((c) => ({ word: c.word, edits: max === 0 ? max + 1 : editDistance(q, c.word, max), records: c.records }))
      .filter((c) => c.edits <= max)
      .sort((a, b) => a.edits - b.edits || b.records - a.records || (a.word < b.word ? -1 : 1))
      .slice(0, ALTERNATIVES)
      .map(({ word, edits }) => ({ word, edits }));
    return present[i] === false ? corrections : [{ word: q, edits: 0 }, ...corrections];
  });
}

/**
 * The readings of a query with at least one word corrected, fewest edits first (then the more
 * common corrections): a one-word query's are its word's corrections, a longer query's the first
 * few combinations.
 */
export function readings(options: readonly (readonly Alternative[])[]): Reading[] {
  const most = options.length > 1 ? READINGS_OF_MORE_WORDS : ALTERNATIVES;
  let partial: { words: string[]; edits: number; weight: number }[] = [{ words: [], edits: 0, weight: 0 }];
  for (const list of options) {
    partial = partial
      .flatMap((r) =>
        list.map((o, rank) => ({ words: [...r.words, o.word], edits: r.edits + o.edits, weight: r.weight + rank })),
      )
      .sort((a, b) => a.edits - b.edits || a.weight - b.weight)
      .slice(0, most + 1);
  }
  return partial
    .filter((r) => r.edits > 0)
    .slice(0, most)
    .map(({ words, edits }) => ({ words, edits }));
}

/** A way of spreading edits over a query's words: per word, its alternatives with that many edits. */
export interface Spread {
  edits: number;
  words: string[][];
}

/**
 * Every reading at once, grouped by how its edits are spread over the words: for each spread (one
 * edit count per word, at least one edit in all), per word the alternatives with that many
 * edits. A spread matches a record when each word's group does, so a query of several words finds
 * every combination of its words' alternatives, not only the few whole readings; fewest edits
 * first, at most SPREADS of them.
 */
export function spreads(options: readonly (readonly Alternative[])[]): Spread[] {
  let partial: { counts: number[]; edits: number }[] = [{ counts: [], edits: 0 }];
  for (const list of options) {
    const counts = [...new Set(list.map((o) => o.edits))];
    // The fewest edits of the whole come from the fewest of each part: a long query stays cheap.
    partial = partial
      .flatMap((p) => counts.map((e) => ({ counts: [...p.counts, e], edits: p.edits + e })))
      .sort((a, b) => a.edits - b.edits)
      .slice(0, SPREADS + 1);
  }
  return partial
    .filter((p) => p.edits > 0)
    .slice(0, SPREADS)
    .map(({ counts, edits }) => ({
      edits,
      words: counts.map((e, i) => (options[i] ?? []).filter((o) => o.edits === e).map((o) => o.word)),
    }));
}

/**
 * The reading of the query that a record's names best fit (fewest edits, then whole words): for
 * each name, each query word's best alternative that starts one of its words, or null when no
 * name takes every query word. For "did you mean".
 */
export function bestReading(
  options: readonly (readonly Alternative[])[],
  names: readonly (readonly string[])[],
): Reading | null {
  let best: { reading: Reading; partial: number } | null = null;
  for (const name of names) {
    let edits = 0;
    let partial = 0;
    const chosen: string[] = [];
    for (const list of options) {
      let pick: { word: string; edits: number; partial: number } | null = null;
      for (const o of list) {
        const whole = name.includes(o.word);
        if (!whole && !name.some((n) => n.startsWith(o.word))) continue;
        const score = { word: o.word, edits: o.edits, partial: whole ? 0 : 1 };
        if (pick === null || score.edits < pick.edits || (score.edits === pick.edits && score.partial < pick.partial))
          pick = score;
      }
      if (pick === null) break;
      chosen.push(pick.word);
      edits += pick.edits;
      partial += pick.partial;
    }
    if (chosen.length !== options.length) continue;
    if (best === null || edits < best.reading.edits || (edits === best.reading.edits && partial < best.partial)) {
      best = { reading: { words: chosen, edits }, partial };
    }
  }
  return best?.reading ?? null;
}
