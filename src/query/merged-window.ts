/**
 * The window of a search in an area over several venue databases (docs/deploy.md#past-one-database):
 * one database reads the first candidates of the area's cover in pos order (src/match/capped.ts,
 * PLACED_CANDIDATES: a page in a box, a total within filters), which pos, global, spreads over
 * every venue database. Each reads its candidates in pos order, in rounds, until those up to a pos
 * that every one has read past are as many as the window: the window is then the first of them.
 * A round asks only the databases that read least far, for what the window still lacks, so that
 * they read about the window once more at most, however many databases the search asks.
 */
import type { Language } from "../data-contract/languages.ts";
import { MERGED, rowsOfEach, type Row } from "./merged-rows.ts";
import { pageRecords } from "./records.ts";
import type { InAreaMerge, Runner } from "./resource.ts";

/** A candidate of the cover: its pos, whether it lies in the area, how far near a point (else null), its database. */
export interface Candidate {
  pos: number;
  kept: boolean;
  dist: number | null;
  shard: number;
}

/** What one venue database has read of its candidates: each, in pos order, and whether it has no more. */
export interface Read {
  candidates: readonly Candidate[];
  done: boolean;
}

/** The window when the reads hold it, else how many more candidates each database reads (0: none). */
export type Step = { window: Candidate[] } | { more: number[] };

/** Rounds of reads at most; a search past them is not merged. */
export const WINDOW_ROUNDS = 10;

/**
 * Where a page needs only the window's first candidates (its total counted apart): whether the
 * window's start read so far holds it, and how many each database reads first (4 times more
 * each round after, while the page is not held).
 */
export interface PageNeed {
  holds(start: readonly Candidate[]): boolean;
  first: number;
}

const lastPos = (read: Read) => read.candidates.at(-1)?.pos ?? -1;

/**
 * The next step of the window of `size` candidates from the reads so far: the candidates up to the
 * least pos that every database still reading has read (all, where none is) are every candidate up
 * to it, so the window once they are `size` (or, for a page, its start where that holds the page);
 * else the databases that read least far read what it lacks, shared among them.
 */
export function windowStep(reads: readonly Read[], size: number, page?: PageNeed, round = 0): Step {
  const reading = reads.filter((r) => !r.done);
  const upTo = reading.length === 0 ? Infinity : Math.min(...reading.map(lastPos));
  const known = reads.flatMap((r) => r.candidates.filter((c) => c.pos <= upTo)).sort((a, b) => a.pos - b.pos);
  if (known.length >= size || reading.length === 0 || page?.holds(known) === true) {
    return { window: known.slice(0, size) };
  }
  const least = reads.map((r) => !r.done && lastPos(r) === upTo);
  const each = Math.ceil((size - known.length) / least.filter(Boolean).length);
  const asked = page === undefined ? each : Math.min(each, page.first * 4 ** round);
  return { more: least.map((reading) => (reading ? asked : 0)) };
}

const candidateOf = (row: Row, shard: number): Candidate => ({
  pos: Number(row.pos),
  kept: Number(row.kept) === 1,
  dist: row.dist === null || row.dist === undefined ? null : Number(row.dist),
  shard,
});

/**
 * The first `size` candidates of the cover of `inArea` over `shards`, in pos order (windowStep; for
 * a `page`, the start of them that holds it), or null past WINDOW_ROUNDS rounds.
 */
export async function coverWindow(
  shards: readonly Runner[],
  inArea: InAreaMerge,
  size: number,
  page?: PageNeed,
): Promise<Candidate[] | null> {
  let reads: Read[] = shards.map(() => ({ candidates: [], done: false }));
  let step = windowStep(reads, size, page);
  for (let round = 0; round < WINDOW_ROUNDS && "more" in step; round++) {
    const asked = step.more;
    const rows = await rowsOfEach(shards, `${MERGED}: the area's first candidates`, (i) =>
      (asked[i] ?? 0) > 0 ? inArea.window(lastPos(reads[i] ?? { candidates: [], done: true }), asked[i] ?? 0) : null,
    );
    reads = reads.map((read, i) => {
      const more = (rows[i] ?? []).map((row) => candidateOf(row, i));
      const done = read.done || ((asked[i] ?? 0) > 0 && more.length < (asked[i] ?? 0));
      return { candidates: [...read.candidates, ...more], done };
    });
    step = windowStep(reads, size, page, round + 1);
  }
  return "window" in step ? step.window : null;
}

/** The records of `page` (candidates in the page's order) from their databases, each with `extra` (a total). */
export async function windowRecords(
  shards: readonly Runner[],
  inArea: InAreaMerge,
  page: readonly Candidate[],
  language: Language,
  extra: Row = {},
): Promise<Row[]> {
  const records = await rowsOfEach(shards, MERGED, (i) => {
    const own = page.filter((c) => c.shard === i).map((c) => c.pos);
    return own.length === 0 ? null : pageRecords("venues", inArea.placed(own), language, false, true);
  });
  const byPos = new Map(records.flat().map((r) => [Number(r.by_pos), r]));
  return page.flatMap((c) => {
    const record = byPos.get(c.pos);
    return record === undefined ? [] : [{ ...record, ...extra }];
  });
}
