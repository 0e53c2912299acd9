/**
 * Stored totals of one-word name searches (table name_prefix_counts): for the word prefixes that
 * match many records, how many they match in all, per country and per state. Memory does not grow
 * with the records: candidates come from the sorted vocabulary in one pass, and records are
 * counted scope by scope, grouped by country and state.
 */
import { compareCodePoints } from "../../../src/data-contract/normalize.ts";
import { EXACT, STARTS, WORDS, type NameTier } from "../../../src/data-contract/ranking.ts";
import { scopeKey } from "../../../src/data-contract/scopes.ts";
import { IntRows, PrefixTrie, RecordPrefixes } from "./prefix-trie.ts";

/** Longest prefix (in characters) that gets a stored total. */
const PREFIX_COUNT_MAX_LENGTH = 24;

/**
 * The prefixes whose words occur in at least `min` records (the sum of the words' record counts,
 * an upper bound of the records the prefix matches), from the vocabulary in sorted order — any
 * order that keeps the words of a prefix together. One pass; the result is prefix-closed. A word
 * is compared with the one before it: only the prefixes it does not share with it open or close
 * (a prefix of every length sliced from every word cost 1.6 s of 2.8M words; 2026-11-27).
 */
export function prefixCandidates(
  sortedWords: Iterable<readonly [word: string, records: number]>,
  min: number,
): Set<string> {
  const candidates = new Set<string>();
  // The open prefixes are those of `open` of length 1 … depth (in code points), ending at ends[length].
  let open = "";
  let depth = 0;
  const ends = new Int32Array(PREFIX_COUNT_MAX_LENGTH + 1);
  const sums = new Float64Array(PREFIX_COUNT_MAX_LENGTH + 1);
  const closeAbove = (length: number) => {
    for (; depth > length; depth--) if ((sums[depth] ?? 0) >= min) candidates.add(open.slice(0, ends[depth]));
  };
  for (const [word, records] of sortedWords) {
    let shared = 0;
    while (shared < depth && sameUnits(open, word, ends[shared] ?? 0, ends[shared + 1] ?? 0)) shared++;
    closeAbove(shared);
    for (let unit = ends[depth] ?? 0; depth < PREFIX_COUNT_MAX_LENGTH && unit < word.length;) {
      const code = word.charCodeAt(unit);
      unit = Math.min(word.length, unit + (code >= 0xd800 && code < 0xdc00 ? 2 : 1));
      depth++;
      ends[depth] = unit;
      sums[depth] = 0;
    }
    for (let length = 1; length <= depth; length++) sums[length] = (sums[length] ?? 0) + records;
    open = word;
  }
  closeAbove(0);
  return candidates;
}

/** Whether `b` holds the code units of `a` from `from` to `to`. */
function sameUnits(a: string, b: string, from: number, to: number): boolean {
  if (to > b.length) return false;
  for (let k = from; k < to; k++) if (a.charCodeAt(k) !== b.charCodeAt(k)) return false;
  return true;
}

/** A record: its words (normalized, separated by spaces; repeats allowed) and its region. */
export interface PrefixRecord {
  text: string;
  countryCode: string | null;
  admin1Code: string | null;
}

/** Counts per prefix number for one scope, and the prefixes counted since the last flush. */
class ScopeCounts {
  key = "";
  readonly counts: Int32Array;
  private readonly touched: number[] = [];

  constructor(size: number) {
    this.counts = new Int32Array(size);
  }

  add(prefixes: readonly number[]): void {
    for (const p of prefixes) {
      const n = this.counts[p] ?? 0;
      if (n === 0) this.touched.push(p);
      this.counts[p] = n + 1;
    }
  }

  /** When the scope changes: its counts of at least `min`, then zero. */
  flush(next: string, min: number, prefixes: readonly string[], out: [string, string, number][]): void {
    if (this.key === next) return;
    for (const p of this.touched) {
      const n = this.counts[p] ?? 0;
      if (n >= min) out.push([this.key, prefixes[p] ?? "", n]);
      this.counts[p] = 0;
    }
    this.touched.length = 0;
    this.key = next;
  }
}

/**
 * [scope, prefix, records] for every candidate prefix matching at least `min` records in a scope:
 * all records, a country or a state (src/data-contract/scopes.ts). The records must come grouped by
 * country, and by state within a country (records without a country anywhere).
 */
export function scopedPrefixCounts(
  records: Iterable<PrefixRecord>,
  candidates: ReadonlySet<string>,
  min: number,
): [string, string, number][] {
  const trie = new PrefixTrie(candidates);
  const size = trie.prefixes.length;
  const out: [string, string, number][] = [];
  const all = new ScopeCounts(size);
  const country = new ScopeCounts(size);
  const state = new ScopeCounts(size);
  const present = new RecordPrefixes(trie);
  for (const r of records) {
    const prefixes = present.of(r.text);
    if (prefixes.length === 0) continue;
    all.add(prefixes);
    if (r.countryCode === null) continue;
    country.flush(scopeKey(r.countryCode), min, trie.prefixes, out);
    country.add(prefixes);
    if (r.admin1Code === null) continue;
    state.flush(scopeKey(r.countryCode, r.admin1Code), min, trie.prefixes, out);
    state.add(prefixes);
  }
  country.flush("\u0000end", min, trie.prefixes, out);
  state.flush("\u0000end", min, trie.prefixes, out);
  all.flush("\u0000end", min, trie.prefixes, out);
  return out.sort(([a, b], [c, d]) => compareCodePoints(a, c) || compareCodePoints(b, d));
}

/** A record in its place of the default order: its words (as PrefixRecord's) and its names as name tokens (`_new_york`). */
export interface TierRecord {
  pos: number;
  text: string;
  nameTokens: readonly string[];
}

/**
 * Anchors of deep pages (tables name_tiers, name_anchors): for each prefix, how many records match
 * it in each name tier (src/data-contract/ranking.ts: a name is the word, a name starts with it, only
 * another word does) and the pos of every `every`-th record of each tier. The records must come in pos order.
 */
export function nameAnchors(
  records: Iterable<TierRecord>,
  prefixes: ReadonlySet<string>,
  every: number,
): {
  tiers: [prefix: string, tier0: number, tier1: number, tier2: number][];
  anchors: Iterable<[prefix: string, tier: number, k: number, pos: number]>;
} {
  const trie = new PrefixTrie(prefixes);
  const size = trie.prefixes.length;
  const sizes = [new Int32Array(size), new Int32Array(size), new Int32Array(size)];
  // Anchors grow with the records (1.8 million at 10 million venues): kept as numbers.
  const anchors = new IntRows(4);
  const present = new RecordPrefixes(trie);
  // The best tier of each prefix in the current record (EXACT or STARTS; WORDS when not stamped with it).
  const tierStamp = new Int32Array(size);
  const tierOf = new Uint8Array(size);
  let record = 0;
  for (const r of records) {
    record++;
    for (const token of r.nameTokens) {
      // `_word` or `_first_more_words`: the prefixes of the first word start the name; the whole
      // word, when it is the whole name, is the name.
      const end = token.indexOf("_", 1);
      const first = token.slice(1, end < 0 ? token.length : end);
      trie.walk(first, (p) => {
        const tier = end < 0 && (trie.prefixes[p] ?? "").length === first.length ? EXACT : STARTS;
        if (tierStamp[p] !== record || tier < (tierOf[p] ?? WORDS)) {
          tierStamp[p] = record;
          tierOf[p] = tier;
        }
      });
    }
    for (const p of present.of(r.text)) {
      const tier = (tierStamp[p] === record ? (tierOf[p] ?? WORDS) : WORDS) as NameTier;
      const counts = sizes[tier] as Int32Array;
      const n = (counts[p] ?? 0) + 1;
      counts[p] = n;
      if (n % every === 0) anchors.push([p, tier, n / every, r.pos]);
    }
  }
  const tiers: [string, number, number, number][] = [];
  trie.prefixes.forEach((prefix, p) => {
    const [a, b, c] = sizes.map((s) => s[p] ?? 0) as [number, number, number];
    if (a + b + c > 0) tiers.push([prefix, a, b, c]);
  });
  return {
    tiers,
    anchors: (function* (): Generator<[string, number, number, number]> {
      for (const row of anchors) yield [trie.prefixes[row[0] ?? 0] ?? "", row[1] ?? 0, row[2] ?? 0, row[3] ?? 0];
    })(),
  };
}
