/**
 * The class and name tier of a record for each broad prefix (src/data-contract/ranking.ts
 * classTier: found by one of its own names or only by another; the name is the prefix, starts with
 * it, or another word does), as the worker's FTS5 sets of a broad word read them
 * (src/query/anchored.ts), in English and in each served language where its names there are its
 * own. Pure, over a trie of the prefixes; memory grows with the prefixes, not the records.
 */
import { classTier, EXACT, OTHER, OWN, STARTS, WORDS, type NameTier } from "../../../src/data-contract/ranking.ts";
import { readOwnToken } from "../../../src/data-contract/tokens.ts";
import { type PrefixTrie, RecordPrefixes } from "./prefix-trie.ts";

/** A record in its place of the default order: its words, its names as name tokens (`_new_york`), its own names' tokens. */
export interface TierRecord {
  pos: number;
  /** Its words (normalized, separated by spaces; repeats allowed). */
  text: string;
  nameTokens: readonly string[];
  /** Its own names' tokens (src/data-contract/tokens.ts readOwnToken); null when its one name is its own. */
  own: string | null;
}

/** A record's own names in one language: name tokens (`_new_york`) and words. */
interface OwnNames {
  tokens: string[];
  words: string[];
}

/** A record's own names per language ('' English, the names every language has), from its own tokens. */
function ownNamesOf(own: string): Map<string, OwnNames> {
  const out = new Map<string, OwnNames>();
  for (const token of own.split(" ")) {
    const read = readOwnToken(token);
    if (read === null) continue;
    const names = out.get(read.language) ?? { tokens: [], words: [] };
    out.set(read.language, names);
    if (read.kind === "name") names.tokens.push(`_${read.text}`);
    else names.words.push(read.text);
  }
  return out;
}

/** The best name tier of each prefix in a record's names, by prefix number, stamped per record. */
class BestTiers {
  private readonly stamp: Int32Array;
  private readonly tier: Uint8Array;
  private record = 0;

  constructor(
    private readonly trie: PrefixTrie,
    private readonly words: RecordPrefixes,
  ) {
    this.stamp = new Int32Array(trie.prefixes.length);
    this.tier = new Uint8Array(trie.prefixes.length);
  }

  /** A new record. */
  clear(): void {
    this.record++;
  }

  /** Names as tokens: the prefixes of the first word start the name; the whole word, when it is the whole name, is it. */
  addNames(tokens: readonly string[]): void {
    for (const token of tokens) {
      const end = token.indexOf("_", 1);
      const first = token.slice(1, end < 0 ? token.length : end);
      this.trie.walk(first, (p) => {
        const exact = end < 0 && (this.trie.prefixes[p] ?? "").length === first.length;
        this.set(p, exact ? EXACT : STARTS);
      });
    }
  }

  /** Words: their prefixes are words of a name. */
  addWords(words: string): void {
    for (const p of this.words.of(words)) this.set(p, WORDS);
  }

  /** The best tier of prefix `p`, or null when no name holds it. */
  of(p: number): NameTier | null {
    return this.stamp[p] === this.record ? ((this.tier[p] ?? WORDS) as NameTier) : null;
  }

  private set(p: number, tier: NameTier): void {
    if (this.stamp[p] !== this.record || tier < (this.tier[p] ?? WORDS)) {
      this.stamp[p] = this.record;
      this.tier[p] = tier;
    }
  }
}

/** A record's classTier for each prefix its words hold, in English and in the languages of its own names. */
export class RecordClasses {
  private readonly any: BestTiers;
  private readonly own: BestTiers;
  private readonly present: RecordPrefixes;
  /** The present prefixes of the current record and their classTier in English. */
  readonly prefixes: number[] = [];
  readonly classes: number[] = [];
  /** The languages of the current record's own names besides English. */
  languages: string[] = [];
  private owned: Map<string, OwnNames> | null = null;

  constructor(trie: PrefixTrie) {
    this.present = new RecordPrefixes(trie);
    this.any = new BestTiers(trie, new RecordPrefixes(trie));
    this.own = new BestTiers(trie, new RecordPrefixes(trie));
  }

  /** Reads a record: its present prefixes with their class in English. */
  read(r: TierRecord): void {
    this.prefixes.length = 0;
    this.classes.length = 0;
    this.prefixes.push(...this.present.of(r.text));
    this.any.clear();
    this.any.addNames(r.nameTokens);
    this.owned = r.own === null ? null : ownNamesOf(r.own);
    this.languages = this.owned === null ? [] : [...this.owned.keys()].filter((l) => l !== "");
    this.ownIn("");
    for (const p of this.prefixes) this.classes.push(this.classOf(p));
  }

  /** The current record's classTier of each of `prefixes` in `lang` (one of `languages`); call after read(). */
  classesIn(lang: string): number[] {
    this.ownIn(lang);
    return this.prefixes.map((p) => this.classOf(p));
  }

  /** The own names of English and, for another language, its own too. */
  private ownIn(lang: string): void {
    this.own.clear();
    if (this.owned === null) return;
    for (const l of lang === "" ? [""] : ["", lang]) {
      const names = this.owned.get(l);
      if (names === undefined) continue;
      this.own.addNames(names.tokens);
      this.own.addWords(names.words.join(" "));
    }
  }

  private classOf(p: number): number {
    const anyTier = this.any.of(p) ?? WORDS;
    if (this.owned === null) return classTier(OWN, anyTier);
    const ownTier = this.own.of(p);
    return ownTier === null ? classTier(OTHER, anyTier) : classTier(OWN, ownTier);
  }
}
