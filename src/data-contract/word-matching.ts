/**
 * Which word of a name each word of a text is (docs/api.md#matching): each its own word of the
 * name, never one word read for two. Used where a name is compared with words word by word: the
 * import, to leave out a name whose words another name holds (spellings.ts), and the suggestions,
 * to say where the typed words are in the name that matched (src/suggest/matched.ts). Pure.
 */

/**
 * The most words of a text that distinct words of a name can take (Kuhn's augmenting paths: a
 * name and a text have few words), as each text word's word of the name (its index), or null for a
 * word left without one. Each text word tries the name's words in their order, so words that fit
 * in order take the name's words in order.
 */
export function assignWords(
  count: number,
  nameWords: number,
  fits: (word: number, nameWord: number) => boolean,
): (number | null)[] {
  const owner: (number | null)[] = Array.from({ length: nameWords }, () => null);
  const take = (word: number, seen: boolean[]): boolean => {
    for (let n = 0; n < nameWords; n++) {
      if (seen[n] === true || !fits(word, n)) continue;
      seen[n] = true;
      const held = owner[n] ?? null;
      if (held === null || take(held, seen)) {
        owner[n] = word;
        return true;
      }
    }
    return false;
  };
  for (let word = 0; word < count; word++) take(word, []);
  const assigned: (number | null)[] = Array.from({ length: count }, () => null);
  owner.forEach((word, n) => {
    if (word !== null) assigned[word] = n;
  });
  return assigned;
}

/** Whether every word of a text has a word of the name of its own. */
export const everyWordAssigned = (count: number, nameWords: number, fits: (w: number, n: number) => boolean): boolean =>
  assignWords(count, nameWords, fits).every((n) => n !== null);
