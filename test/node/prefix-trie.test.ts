/**
 * The prefix structures the stored totals and cell counts are counted with (prefix-trie.ts,
 * prefixCandidates) against a brute force over random words: every prefix of every word summed
 * in a Map, every prefix of a record's words tested with startsWith. Words mix ASCII, accented
 * letters and characters outside the BMP (a surrogate pair is one character of a prefix).
 */
import { describe, expect, it } from "vitest";
import { prefixCandidates } from "../../scripts/import/phases/prefix-totals.ts";
import { PrefixTrie, RecordPrefixes } from "../../scripts/import/phases/prefix-trie.ts";
import { compareCodePoints } from "../../src/data-contract/normalize.ts";

const LETTERS = ["a", "b", "c", "é", "ß", "𝔰", "𝔱", "1"];
const MAX_LENGTH = 24;

/** A seeded generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomWord(next: () => number): string {
  const length = 1 + Math.floor(next() * (next() < 0.1 ? 30 : 5));
  return Array.from({ length }, () => LETTERS[Math.floor(next() * LETTERS.length)]).join("");
}

describe("prefix candidates", () => {
  it("are the prefixes (up to 24 characters) whose words' records reach the minimum, as a brute force sums them", () => {
    const next = random(7);
    const counts = new Map<string, number>();
    for (let i = 0; i < 5000; i++) counts.set(randomWord(next), 1 + Math.floor(next() * 5));
    const sorted = [...counts].sort(([a], [b]) => compareCodePoints(a, b));
    for (const min of [1, 3, 20, 200]) {
      const sums = new Map<string, number>();
      for (const [word, n] of sorted) {
        const characters = [...word];
        for (let length = 1; length <= Math.min(MAX_LENGTH, characters.length); length++) {
          const prefix = characters.slice(0, length).join("");
          sums.set(prefix, (sums.get(prefix) ?? 0) + n);
        }
      }
      const expected = [...sums].filter(([, n]) => n >= min).map(([prefix]) => prefix);
      expect([...prefixCandidates(sorted, min)].sort()).toEqual(expected.sort());
    }
  });
});

describe("a record's prefixes", () => {
  it("are each prefix in the set that starts one of its words, once", () => {
    const next = random(11);
    const prefixes = Array.from({ length: 3000 }, () => randomWord(next).slice(0, 1 + Math.floor(next() * 4)));
    const trie = new PrefixTrie(prefixes);
    const present = new RecordPrefixes(trie);
    for (let i = 0; i < 2000; i++) {
      const words = Array.from({ length: 1 + Math.floor(next() * 4) }, () => randomWord(next));
      const found = present.of(words.join(" ")).map((p) => trie.prefixes[p]);
      const expected = trie.prefixes.filter((prefix) => words.some((word) => word.startsWith(prefix)));
      expect([...found].sort()).toEqual(expected.sort());
      expect(new Set(found).size).toBe(found.length);
    }
  });
});
