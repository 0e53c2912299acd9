/**
 * The FTS5 text of "each word starts a word of its own of a name" (src/match/fts.ts everyWordText)
 * against its definition read plainly: for every start of every typed word, the typed words all of
 * whose alternatives start with it, asked as a shared start where two or more do, in the order the
 * words name the starts; a start that a longer one asked as often implies left out. The text is
 * built in one pass over the words (the suggestions' typo fallback builds it for hundreds of
 * readings a request); drawn texts of few letters, some outside the BMP, so that starts are shared.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { startsOf } from "../../src/data-contract/name-index.ts";
import { ANY_NAME, ownWords } from "../../src/data-contract/tokens.ts";
import { everyWordText, prefixOf, wordsShared } from "../../src/match/fts.ts";

/** Every start of a word, by code point, as the definition reads it. */
const startsPlainly = (word: string) =>
  Array.from(word).map((_, i) =>
    Array.from(word)
      .slice(0, i + 1)
      .join(""),
  );

/** The shared starts the name must have, by their definition. */
function neededPlainly(groups: readonly (readonly string[])[]): [number, string][] {
  if (groups.length < 2) return [];
  const needed = [...new Set(groups.flat().flatMap(startsPlainly))]
    .map((a): [number, string] => [groups.filter((g) => g.length > 0 && g.every((w) => w.startsWith(a))).length, a])
    .filter(([n]) => n >= 2);
  return needed.filter(([n, a]) => !needed.some(([m, b]) => b !== a && b.startsWith(a) && m >= n));
}

const letter = fc.constantFrom("a", "b", "é", "𝔸", "𝔹", "ж");
const word = fc.array(letter, { minLength: 1, maxLength: 5 }).map((l) => l.join(""));
const groups = fc.array(fc.array(word, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 });

describe("the words of a text as a name must hold them", () => {
  it("asks the shared starts their definition says, in its order", () => {
    fc.assert(
      fc.property(groups, (g) => {
        for (const scope of [ANY_NAME, ownWords("de")]) {
          const words = g.map((alternatives) => everyWordText([alternatives], scope));
          const shared = neededPlainly(g).map(([n, start]) => prefixOf(scope.shared(n, start)));
          expect(everyWordText(g, scope)).toBe([...words, ...shared].join(" AND "));
        }
        expect(wordsShared(g)).toBe(neededPlainly(g).length > 0);
      }),
      { numRuns: 3000, seed: 63 },
    );
  });

  it("reads a word's starts by code point", () => {
    fc.assert(
      fc.property(word, (w) => {
        expect(startsOf(w)).toEqual(startsPlainly(w));
      }),
      { numRuns: 500, seed: 63 },
    );
  });
});
