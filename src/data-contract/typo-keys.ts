/**
 * The keys of typo tolerance (docs/api.md#typo-tolerance): which words may differ by how many
 * edits, and the deletion neighbourhoods that find candidate words in the vocabulary index
 * (SymSpell). The import indexes each vocabulary word by indexDeletes(); a query looks up
 * queryDeletes() of its words (src/query/typos.ts verifies each candidate by its edit distance). Pure.
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
const HEAD = 8;

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
