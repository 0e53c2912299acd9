/**
 * The edit distance of the typo tolerance (src/query/typos.ts editDistance: insertions, deletions,
 * substitutions and swaps of neighbours, by code point, cut at `max`) against the whole table of
 * the optimal string alignment distance, on drawn words of few letters, some outside the BMP.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { editDistance } from "../../src/query/typos.ts";

/** The optimal string alignment distance, its whole table. */
function osa(a: string, b: string): number {
  const [s, t] = [Array.from(a), Array.from(b)];
  const d = Array.from({ length: s.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => i + j));
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[s.length] as number[])[t.length] as number;
}

const word = fc.array(fc.constantFrom("a", "b", "c", "é", "𝔸", "𝔹"), { maxLength: 7 }).map((l) => l.join(""));

describe("the edit distance of a typo", () => {
  it("is the optimal string alignment distance by code point, past max reported as max + 1", () => {
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        expect(editDistance(a, b, max)).toBe(Math.min(osa(a, b), max + 1));
      }),
      { numRuns: 5000, seed: 63 },
    );
  });
});
