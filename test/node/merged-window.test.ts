/**
 * The window of a search in an area over several venue databases (src/query/merged-window.ts
 * windowStep), against a brute force: candidates drawn at random over 1–6 databases — one holding
 * most, ones holding none, interleaved and apart in pos — read round by round as the databases
 * would read them; the window is the first of every candidate in pos order, and the rounds read
 * about the window twice at most.
 */
import { describe, expect, it } from "vitest";
import { windowStep, WINDOW_ROUNDS, type Candidate, type PageNeed, type Read } from "../../src/query/merged-window.ts";
import { random } from "../../scripts/tools/random.ts";

/** Each database's candidates in pos order: `count` pos over `databases`, drawn with `rand`, a database's share skewed by `skew`. */
function drawn(rand: () => number, databases: number, count: number, skew: number): Candidate[][] {
  const each: Candidate[][] = Array.from({ length: databases }, () => []);
  let pos = 0;
  for (let n = 0; n < count; n++) {
    pos += 1 + Math.floor(rand() * 50);
    const shard = rand() < skew ? 0 : Math.floor(rand() * databases);
    each[shard]?.push({ pos, kept: rand() < 0.5, dist: null, shard });
  }
  return each;
}

/** The rounds of windowStep over `held` (each database's candidates), reading them as a database reads: after its last. */
function rounds(held: readonly Candidate[][], size: number, page?: PageNeed) {
  let reads: Read[] = held.map(() => ({ candidates: [], done: false }));
  let step = windowStep(reads, size, page);
  let [round, read] = [0, 0];
  while ("more" in step) {
    const asked = step.more;
    reads = reads.map((r, i) => {
      const after = r.candidates.at(-1)?.pos ?? -1;
      const own = held[i] ?? [];
      const more = own.filter((c) => c.pos > after).slice(0, asked[i] ?? 0);
      read += more.length;
      return {
        candidates: [...r.candidates, ...more],
        done: r.done || ((asked[i] ?? 0) > 0 && more.length < (asked[i] ?? 0)),
      };
    });
    round++;
    step = windowStep(reads, size, page, round);
  }
  return { window: step.window, round, read };
}

describe("the window of an area over several venue databases", () => {
  it("is the first candidates of every database in pos order, within the rounds, read about twice at most", () => {
    const rand = random("merged window");
    let most = 0;
    for (let trial = 0; trial < 600; trial++) {
      const databases = 1 + (trial % 6);
      const size = [1, 20, 1_501][trial % 3] ?? 1;
      const count = Math.floor(rand() * 3 * size) + (trial % 5 === 0 ? 0 : size);
      const held = drawn(rand, databases, count, [0, 0.5, 0.95][trial % 3] ?? 0);
      const { window, round, read } = rounds(held, size);
      const every = held.flat().sort((a, b) => a.pos - b.pos);
      expect(window, `trial ${trial}`).toEqual(every.slice(0, size));
      expect(round, `trial ${trial}`).toBeLessThanOrEqual(WINDOW_ROUNDS);
      expect(read, `trial ${trial}`).toBeLessThanOrEqual(2 * size + databases);
      most = Math.max(most, round);
    }
    // Some searches needed more than one round.
    expect(most).toBeGreaterThan(1);
  });

  it("holds a page's kept candidates from the window's start alone, read from fewer candidates", () => {
    const rand = random("merged window page");
    let [fewer, reads] = [0, 0];
    for (let trial = 0; trial < 600; trial++) {
      const databases = 1 + (trial % 6);
      const need = [30, 90, 990][trial % 3] ?? 30;
      const held = drawn(rand, databases, Math.floor(rand() * 4_000), [0, 0.5, 0.95][trial % 3] ?? 0);
      const kept = (list: readonly Candidate[]) => list.filter((c) => c.kept).slice(0, need);
      const page: PageNeed = { first: need, holds: (start) => kept(start).length >= need };
      const whole = rounds(held, 1_501);
      const start = rounds(held, 1_501, page);
      expect(kept(start.window), `trial ${trial}`).toEqual(kept(whole.window));
      expect(start.round, `trial ${trial}`).toBeLessThanOrEqual(WINDOW_ROUNDS);
      if (start.read < whole.read) fewer++;
      reads++;
    }
    // Most pages are held by the window's start.
    expect(fewer).toBeGreaterThan(reads / 3);
  });
});
