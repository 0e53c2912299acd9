/**
 * Stored totals of one-word name searches (table name_prefix_counts): for the word prefixes that
 * match many records, how many they match in all, per country and per state. Memory does not grow
 * with the records: candidates come from the sorted vocabulary in one pass, and records are
 * counted scope by scope, grouped by country and state.
 */
import { compareCodePoints } from "../../../src/data-contract/normalize.ts";
import { TRANSLATED } from "../../../src/data-contract/languages.ts";
import { CLASS_TIERS } from "../../../src/data-contract/ranking.ts";
import { scopeKey } from "../../../src/data-contract/scopes.ts";
import { RecordClasses, type TierRecord } from "./name-classes.ts";
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

/** The languages of the stored tiers and anchors, by number: English ('') first. */
const LANGUAGES = ["", ...TRANSLATED];

/**
 * Per prefix number: the records of each classTier so far, in every language (number 0, '') and,
 * apart, where another differs, keyed by language number × prefixes + prefix (a number, not a
 * string made for each record and prefix).
 */
class ClassCounts {
  private readonly every: Int32Array;
  private readonly apart = new Map<number, Int32Array>();

  constructor(private readonly size: number) {
    this.every = new Int32Array(size * CLASS_TIERS);
  }

  /** Counts a record of `set` for prefix `p` in language number `lang`; its number in that set. */
  add(lang: number, p: number, set: number): number {
    let sizes = this.every;
    let at = p * CLASS_TIERS + set;
    if (lang !== 0) {
      const key = lang * this.size + p;
      sizes = this.apart.get(key) ?? new Int32Array(CLASS_TIERS);
      this.apart.set(key, sizes);
      at = set;
    }
    const n = (sizes[at] ?? 0) + 1;
    sizes[at] = n;
    return n;
  }

  *rows(prefixes: readonly string[]): Generator<[lang: string, prefix: string, ...sizes: number[]]> {
    for (let p = 0; p < this.size; p++) {
      const sizes = this.every.subarray(p * CLASS_TIERS, (p + 1) * CLASS_TIERS);
      if (sizes.some((n) => n > 0)) yield ["", prefixes[p] ?? "", ...sizes];
    }
    for (const [key, sizes] of this.apart) {
      yield [LANGUAGES[Math.floor(key / this.size)] ?? "", prefixes[key % this.size] ?? "", ...sizes];
    }
  }
}

/**
 * The (language, prefix) pairs whose classes differ from English's in some record: read from the
 * records with own names in another language (the others' are English's in every language).
 */
function differing(trie: PrefixTrie, records: Iterable<TierRecord>): Map<number, string[]> {
  const classes = new RecordClasses(trie);
  const out = new Map<number, string[]>();
  for (const r of records) {
    classes.read(r);
    for (const lang of classes.languages) {
      classes.classesIn(lang).forEach((set, i) => {
        const p = classes.prefixes[i] ?? 0;
        const langs = out.get(p) ?? [];
        if (set !== classes.classes[i] && !langs.includes(lang)) out.set(p, [...langs, lang]);
      });
    }
  }
  return out;
}

/** An anchor: [language, prefix number, classTier, k, pos]. */
type AnchorRow = [lang: string, prefix: string, tier: number, k: number, pos: number];

/**
 * Anchors of deep pages (tables name_tiers, name_anchors): for each prefix, how many records match
 * it in each class and name tier (src/data-contract/ranking.ts classTier, name-classes.ts) and the
 * pos of every `every`-th record of each; in English (lang '') and, where they differ, in another
 * language. `records` must come in pos order; `localized`, the records with own names in another
 * language, in any order.
 */
export function nameAnchors(
  records: Iterable<TierRecord>,
  localized: Iterable<TierRecord>,
  prefixes: ReadonlySet<string>,
  every: number,
): { tiers: [lang: string, prefix: string, ...sizes: number[]][]; anchors: Iterable<AnchorRow> } {
  const trie = new PrefixTrie(prefixes);
  const other = differing(trie, localized);
  const classes = new RecordClasses(trie);
  const counts = new ClassCounts(trie.prefixes.length);
  // Anchors grow with the records (1.8 million at 10 million venues): kept as numbers, the language by its index.
  const anchors = new IntRows(5);
  const count = (lang: number, p: number, set: number, pos: number) => {
    const n = counts.add(lang, p, set);
    if (n % every === 0) anchors.push([lang, p, set, n / every, pos]);
  };
  for (const r of records) {
    classes.read(r);
    if (classes.prefixes.length === 0) continue;
    const own =
      classes.languages.length === 0 ? null : new Map(classes.languages.map((l) => [l, classes.classesIn(l)]));
    classes.prefixes.forEach((p, i) => {
      const set = classes.classes[i] ?? 0;
      count(0, p, set, r.pos);
      const langs = other.get(p);
      if (langs !== undefined)
        for (const lang of langs) count(LANGUAGES.indexOf(lang), p, own?.get(lang)?.[i] ?? set, r.pos);
    });
  }
  return {
    tiers: [...counts.rows(trie.prefixes)],
    anchors: (function* (): Generator<AnchorRow> {
      for (const [l, p, set, k, pos] of anchors) {
        yield [LANGUAGES[l ?? 0] ?? "", trie.prefixes[p ?? 0] ?? "", set ?? 0, k ?? 0, pos ?? 0];
      }
    })(),
  };
}
