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

/** Every string reached from the first HEAD letters of `word` by at most `depth` deletions. */
function deletions(word: string, depth: number): string[] {
  // Words are letters of the Basic Multilingual Plane almost always: string slices are cheap there.
  const bmp = !/[\ud800-\udfff]/.test(word);
  const head = bmp ? word.slice(0, HEAD) : Array.from(word).slice(0, HEAD).join("");
  const out = new Set<string>([head]);
  let frontier = [head];
  for (let d = 0; d < depth; d++) {
    const next: string[] = [];
    for (const text of frontier) {
      const letters = bmp ? null : Array.from(text);
      const n = letters === null ? text.length : letters.length;
      if (n <= 1) continue;
      for (let i = 0; i < n; i++) {
        const shorter =
          letters === null
            ? text.slice(0, i) + text.slice(i + 1)
            : [...letters.slice(0, i), ...letters.slice(i + 1)].join("");
        if (!out.has(shorter)) {
          out.add(shorter);
          next.push(shorter);
        }
      }
    }
    frontier = next;
  }
  return [...out];
}

/** The keys a vocabulary word is indexed under (empty for words too short to be corrections). */
export function indexDeletes(word: string): string[] {
  const depth = indexDepth(Array.from(word).length);
  return depth === 0 ? [] : deletions(word, depth);
}

/** The keys to look up for a query word (empty when it may not differ at all). */
export function queryDeletes(word: string): string[] {
  const edits = allowedEdits(Array.from(word).length);
  return edits === 0 ? [] : deletions(word, edits);
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

/**
 * At most this many corrections per query word (short words have many neighbours, and the right
 * one may be a rare word), and readings per search: a one-word query's readings are its word's
 * corrections; a longer query's are combinations, and each costs its search time (linearly), so
 * fewer, and only of words that can match (see `present`).
 */
const ALTERNATIVES = 24;
const READINGS_OF_MORE_WORDS = 8;

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
 * The readings of a query with at least one word corrected, fewest edits first (then the more
 * common corrections): each word may be a candidate within its allowed edits, or itself when
 * `present` says some record has a word starting with it (a word that matches nothing alone
 * cannot be part of a reading that matches).
 */
export function readings(
  queryWords: readonly string[],
  candidates: readonly Candidate[],
  present: readonly boolean[] = [],
): Reading[] {
  const options = queryWords.map((q, i) => {
    const max = allowedEdits(Array.from(q).length);
    const corrections = candidates
      .filter((c) => c.word !== q)
      .map((c) => ({ word: c.word, edits: max === 0 ? max + 1 : editDistance(q, c.word, max), records: c.records }))
      .filter((c) => c.edits <= max)
      .sort((a, b) => a.edits - b.edits || b.records - a.records || (a.word < b.word ? -1 : 1))
      .slice(0, ALTERNATIVES);
    return present[i] === false ? corrections : [{ word: q, edits: 0, records: Infinity }, ...corrections];
  });
  const most = queryWords.length > 1 ? READINGS_OF_MORE_WORDS : ALTERNATIVES;
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
