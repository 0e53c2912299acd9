/**
 * A name's page deeper than the venue databases may read whole together (merged-names.ts,
 * docs/deploy.md#past-one-database): each tier's first matches up to the page's end over them all,
 * as one database's statement reads them (names.ts: bestTiers), read in slices. Each database
 * first reads its share of each tier (the page's end over the databases asked). Where their reads
 * together hold the page's end, that match's pos bounds the tier, and a database that stopped
 * before it reads on to it; where they hold fewer, each one not at its last match reads as many as
 * are missing, and then on to the bound. Ranked as one (rankedOnce): the page. The databases so
 * read about the page's end a tier in all, where each reading the page's end read it times their
 * number.
 */
import { rankedOnce } from "../match/own-names.ts";
import { ITEMS_PER_PAGE } from "../params/paging.ts";
import { MERGED, rowsOfEach, sizedOf, type Row } from "./merged-rows.ts";
import type { Runner, Search, TierSlice } from "./resource.ts";

/**
 * The matches a tier reads at most over every venue database asked in one round trip, the page's
 * end in each. A tier's reads cost a few rows a match (its checks), more than one database's for as
 * many matches (docs/deploy.md#past-one-database), and the typo fallback may read after them,
 * within the 20,000 of a request (docs/api.md#what-one-request-may-cost); deeper pages are read in
 * slices, but a broad word alone's (its anchors: merged-names.ts).
 */
const MOST_MERGED_MATCHES = 600;

/** What a name search's statements give a merge (names.ts: tiered). */
export type MergeParts = NonNullable<Search["merge"]>;

/** Whether a page is deeper than `shards` may read together. */
export const tooDeep = (shards: readonly Runner[], offset: number) =>
  shards.length * (offset + ITEMS_PER_PAGE.venues) > MOST_MERGED_MATCHES;

/** What one database has given of one tier: its pos in order, and the pos up to which it has given every match. */
interface Given {
  pos: number[];
  through: number;
}

/** Round trips at most: the shares, the missing, on to the bound; one more than the worst case needs. */
const ROUNDS = 4;

/** The tier's matches read, each once (a database answering in the main one's stead gives every venue), in pos order. */
const readOf = (given: readonly Given[]) => [...new Set(given.flatMap((g) => g.pos))].sort((a, b) => a - b);

/** The pos of the page's end among the tier's matches read, or Infinity where fewer were read. */
const boundOf = (given: readonly Given[], end: number) => readOf(given)[end - 1] ?? Infinity;

/**
 * What a database still reads of the tier `key` (null: nothing): on to the bound where one is known,
 * at most `end` matches (were there more before it, the page's end lies before them); else `limit`.
 */
function sliceOf(key: number, g: Given, bound: number, limit: { end: number; missing: number }): TierSlice | null {
  if (g.through >= bound) return null;
  const after = g.through === -Infinity ? null : g.through;
  if (bound === Infinity) return { key, after, until: null, limit: Math.max(1, limit.missing) };
  return { key, after, until: bound, limit: limit.end };
}

/** The given matches of a database after a read of `slice` that gave `pos` (each after the ones given). */
function givenAfter(g: Given, slice: TierSlice, pos: number[]): Given {
  const through =
    pos.length < slice.limit ? (slice.until ?? Infinity) : pos.reduce((a, b) => Math.max(a, b), g.through);
  return { pos: [...g.pos, ...pos], through };
}

/** Per tier, per database, the slices still to read in this round. */
function nextSlices(keys: readonly number[], given: readonly Given[][], end: number, first: boolean) {
  return keys.map((key, t) => {
    const tier = given[t] ?? [];
    const bound = boundOf(tier, end);
    const missing = first ? Math.ceil(end / tier.length) : end - readOf(tier).length;
    return tier.map((g) => sliceOf(key, g, bound, { end, missing }));
  });
}

/**
 * The merged page of a name's tiers at `offset` from `shards`, read in slices; null where the
 * rounds did not settle every tier (then the main database answers it).
 */
export async function slicedPage(shards: readonly Runner[], parts: MergeParts, offset: number) {
  const end = offset + ITEMS_PER_PAGE.venues;
  const given = parts.keys.map(() => shards.map((): Given => ({ pos: [], through: -Infinity })));
  const lists: Row[][] = shards.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    const slices = nextSlices(parts.keys, given, end, round === 0);
    const asked = shards.map((_, i) => slices.map((s) => s[i] ?? null).filter((s) => s !== null));
    if (asked.every((a) => a.length === 0)) return rankedSlices(parts.keys, given, lists, { offset, end });
    const read = await rowsOfEach(shards, `${MERGED}: slices of the tiers`, (i) => {
      const mine = asked[i] ?? [];
      return mine.length === 0 ? null : parts.slices(mine);
    });
    read.forEach((rows, i) => {
      lists[i]?.push(...rows);
      for (const slice of asked[i] ?? []) {
        const t = parts.keys.indexOf(slice.key);
        const pos = rows.filter((r) => Number(r.k) === slice.key).map((r) => Number(r.pos));
        const tier = given[t];
        if (tier !== undefined) tier[i] = givenAfter(tier[i] ?? { pos: [], through: -Infinity }, slice, pos);
      }
    });
  }
  return null;
}

/** The page from the rows read: each tier's first `end` matches over every database, ranked as one statement ranks them. */
function rankedSlices(
  keys: readonly number[],
  given: readonly Given[][],
  lists: Row[][],
  at: { offset: number; end: number },
) {
  const firsts = new Map(keys.map((key, t) => [key, new Set(readOf(given[t] ?? []).slice(0, at.end))]));
  const rows = lists
    .flat()
    .filter((r) => firsts.get(Number(r.k))?.has(Number(r.pos)) === true)
    .map(sizedOf);
  const page = rankedOnce(rows)
    .slice(at.offset, at.end)
    .map((r) => r.pos);
  return { page, lists };
}

/**
 * How a fallback trip's page is read: deeper than the databases read whole together, in slices
 * first (null where they did not settle: the main database's trip); else its best tiers, with the
 * trip's other statements; neither where the trip holds no name search (`parts` null).
 */
export async function fallbackPage(shards: readonly Runner[], parts: MergeParts | null, offset: number) {
  if (parts === null) return { sliced: null, best: null };
  if (!tooDeep(shards, offset)) return { sliced: null, best: parts.best };
  const sliced = await slicedPage(shards, parts, offset);
  return sliced === null ? null : { sliced, best: null };
}
