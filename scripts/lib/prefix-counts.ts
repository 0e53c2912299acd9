/**
 * Stored totals of one-word name searches (table name_prefix_counts): for the word prefixes that
 * match many records, how many they match in all, per country and per state. Memory does not grow
 * with the records: candidates come from the sorted vocabulary in one pass, and records are
 * counted scope by scope, grouped by country and state.
 */
import { compareCodePoints } from "../../src/normalize.ts";

/** Longest prefix (in characters) that gets a stored total. */
export const PREFIX_COUNT_MAX_LENGTH = 24;

/** The first `n` code points of a word, or null when it is shorter. */
function codePointPrefix(word: string, n: number): string | null {
  let end = 0;
  for (let k = 0; k < n; k++) {
    if (end >= word.length) return null;
    const unit = word.charCodeAt(end);
    end += unit >= 0xd800 && unit < 0xdc00 ? 2 : 1;
  }
  return word.slice(0, end);
}

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

/** A record: its distinct words and its region. */
export interface PrefixRecord {
  words: readonly string[];
  countryCode: string | null;
  admin1Code: string | null;
}

/**
 * [scope, prefix, records] for every candidate prefix matching at least `min` records in a scope:
 * all records (""), a country ("c:US") or a state ("s:US:CA"). The records must come grouped by
 * country, and by state within a country (records without a country anywhere).
 */
export function scopedPrefixCounts(
  records: Iterable<PrefixRecord>,
  candidates: ReadonlySet<string>,
  min: number,
): [string, string, number][] {
  const out: [string, string, number][] = [];
  const all = new Map<string, number>();
  const country = { key: "", counts: new Map<string, number>() };
  const state = { key: "", counts: new Map<string, number>() };
  const flush = (scope: { key: string; counts: Map<string, number> }, next: string) => {
    if (scope.key !== next) {
      for (const [prefix, n] of scope.counts) if (n >= min) out.push([scope.key, prefix, n]);
      scope.counts.clear();
      scope.key = next;
    }
  };
  const present = new Set<string>();
  const add = (counts: Map<string, number>) => {
    for (const prefix of present) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  };
  for (const r of records) {
    present.clear();
    for (const w of r.words) {
      for (let length = 1; length <= PREFIX_COUNT_MAX_LENGTH; length++) {
        const prefix = codePointPrefix(w, length);
        if (prefix === null || !candidates.has(prefix)) break; // candidates are prefix-closed
        present.add(prefix);
      }
    }
    if (present.size === 0) continue;
    add(all);
    if (r.countryCode === null) continue;
    flush(country, `c:${r.countryCode}`);
    add(country.counts);
    if (r.admin1Code === null) continue;
    flush(state, `s:${r.countryCode}:${r.admin1Code}`);
    add(state.counts);
  }
  flush(country, "");
  flush(state, "");
  for (const [prefix, n] of all) if (n >= min) out.push(["", prefix, n]);
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
 * it in each name tier (0: a name is the word, 1: a name starts with it, 2: only another word
 * does) and the pos of every `every`-th record of each tier. The records must come in pos order.
 */
export function nameAnchors(
  records: Iterable<TierRecord>,
  prefixes: ReadonlySet<string>,
  every: number,
): {
  tiers: [prefix: string, tier0: number, tier1: number, tier2: number][];
  anchors: [prefix: string, tier: number, k: number, pos: number][];
} {
  const sizes = new Map<string, [number, number, number]>();
  const anchors: [string, number, number, number][] = [];
  const present = new Set<string>();
  for (const r of records) {
    present.clear();
    for (const w of r.words) {
      for (let length = 1; length <= PREFIX_COUNT_MAX_LENGTH; length++) {
        const prefix = codePointPrefix(w, length);
        if (prefix === null) break;
        if (prefixes.has(prefix)) present.add(prefix);
      }
    }
    for (const prefix of present) {
      const token = `_${prefix}`;
      const tier = r.nameTokens.includes(token) ? 0 : r.nameTokens.some((t) => t.startsWith(token)) ? 1 : 2;
      let counts = sizes.get(prefix);
      if (counts === undefined) sizes.set(prefix, (counts = [0, 0, 0]));
      const n = ++counts[tier];
      if (n % every === 0) anchors.push([prefix, tier, n / every, r.pos]);
    }
  }
  return { tiers: [...sizes].map(([prefix, [a, b, c]]) => [prefix, a, b, c]), anchors };
}
