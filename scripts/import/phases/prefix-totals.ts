/**
 * Stored totals of one-word name searches (table name_prefix_counts): for the word prefixes that
 * match many records, how many they match in all, per country and per state. Memory does not grow
 * with the records: candidates come from the sorted vocabulary in one pass, and records are
 * counted scope by scope, grouped by country and state.
 */
import { compareCodePoints } from "../../../src/data-contract/normalize.ts";
import { EXACT, STARTS, WORDS, type NameTier } from "../../../src/data-contract/ranking.ts";
import { scopeKey } from "../../../src/data-contract/scopes.ts";
import { codePointPrefix, IntRows, PrefixTrie, RecordPrefixes } from "./prefix-trie.ts";

/** Longest prefix (in characters) that gets a stored total. */
const PREFIX_COUNT_MAX_LENGTH = 24;

/**
 * The prefixes whose words occur in at least `min` records (the sum of the words' record counts,
 * an upper bound of the records the prefix matches), from the vocabulary in sorted order — any
 * order that keeps the words of a prefix together. One pass; the result is prefix-closed.
 */
export function prefixCandidates(
  sortedWords: Iterable<readonly [word: string, records: number]>,
  min: number,
): Set<string> {
  const candidates = new Set<string>();
  const current: (string | null)[] = new Array<string | null>(PREFIX_COUNT_MAX_LENGTH + 1).fill(null);
  const sums = new Array<number>(PREFIX_COUNT_MAX_LENGTH + 1).fill(0);
  const close = (length: number) => {
    const prefix = current[length];
    if (prefix != null && (sums[length] ?? 0) >= min) candidates.add(prefix);
  };
  for (const [word, records] of sortedWords) {
    for (let length = 1; length <= PREFIX_COUNT_MAX_LENGTH; length++) {
      const prefix = codePointPrefix(word, length);
      if (prefix === null) break;
      if (current[length] !== prefix) {
        close(length);
        current[length] = prefix;
        sums[length] = 0;
      }
      sums[length] = (sums[length] ?? 0) + records;
    }
  }
  for (let length = 1; length <= PREFIX_COUNT_MAX_LENGTH; length++) close(length);
  return candidates;
}

/** A record: its words (repeats allowed) and its region. */
export interface PrefixRecord {
  words: readonly string[];
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
    const prefixes = present.of(r.words);
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

/** A record in its place of the default order: its words and its names as name tokens (`_new_york`). */
export interface TierRecord {
  pos: number;
  words: readonly string[];
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
    for (const p of present.of(r.words)) {
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
