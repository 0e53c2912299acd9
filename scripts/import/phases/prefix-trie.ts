/**
 * The structures the stored totals are counted with (prefix-totals.ts): a trie of prefixes that a
 * word is walked through once, the prefixes of one record each once, and rows of integers kept in
 * typed chunks. Memory grows with the prefixes counted, not with the records.
 */

/** The first `n` code points of a word, or null when it is shorter. */
export function codePointPrefix(word: string, n: number): string | null {
  let end = 0;
  for (let k = 0; k < n; k++) {
    if (end >= word.length) return null;
    const unit = word.charCodeAt(end);
    end += unit >= 0xd800 && unit < 0xdc00 ? 2 : 1;
  }
  return word.slice(0, end);
}

/**
 * A set of prefixes as a trie over UTF-16 code units, each prefix numbered: a word is walked once,
 * without building its prefixes as strings (the records are many, the prefixes few).
 */
export class PrefixTrie {
  private readonly children: Map<number, number>[] = [new Map()];
  /** The number of the prefix that ends at each node, or -1 (no prefix, or inside a surrogate pair). */
  private readonly ending: number[] = [-1];
  readonly prefixes: string[] = [];

  constructor(prefixes: Iterable<string>) {
    for (const prefix of prefixes) this.add(prefix);
  }

  private add(prefix: string): void {
    let node = 0;
    for (let i = 0; i < prefix.length; i++) {
      const unit = prefix.charCodeAt(i);
      let next = this.children[node]?.get(unit);
      if (next === undefined) {
        next = this.children.length;
        this.children.push(new Map());
        this.ending.push(-1);
        this.children[node]?.set(unit, next);
      }
      node = next;
    }
    if (this.ending[node] === -1) {
      this.ending[node] = this.prefixes.length;
      this.prefixes.push(prefix);
    }
  }

  /** Calls `visit` with the number of each prefix of `word` in the set, shortest first. */
  walk(word: string, visit: (prefix: number) => void): void {
    let node = 0;
    for (let i = 0; i < word.length; i++) {
      const next = this.children[node]?.get(word.charCodeAt(i));
      if (next === undefined) return;
      node = next;
      const prefix = this.ending[node] ?? -1;
      if (prefix >= 0) visit(prefix);
    }
  }
}

/**
 * The prefixes of one record's words, each once (a record counts once per prefix, however many
 * of its words start with it): numbers of a trie, deduplicated by stamping them with the record.
 */
export class RecordPrefixes {
  readonly list: number[] = [];
  private readonly stamp: Int32Array;
  private record = 0;

  constructor(private readonly trie: PrefixTrie) {
    this.stamp = new Int32Array(trie.prefixes.length);
  }

  of(words: readonly string[]): readonly number[] {
    this.record++;
    this.list.length = 0;
    for (const word of words) {
      this.trie.walk(word, (p) => {
        if (this.stamp[p] !== this.record) {
          this.stamp[p] = this.record;
          this.list.push(p);
        }
      });
    }
    return this.list;
  }
}

/** Rows of `width` integers, in typed chunks: a few bytes a row, however many rows. */
export class IntRows {
  private readonly chunks: Int32Array[] = [];
  private used = 0;
  private static readonly CHUNK_ROWS = 65_536;

  constructor(private readonly width: number) {}

  push(row: readonly number[]): void {
    let chunk = this.chunks[this.chunks.length - 1];
    if (chunk === undefined || this.used === IntRows.CHUNK_ROWS) {
      chunk = new Int32Array(IntRows.CHUNK_ROWS * this.width);
      this.chunks.push(chunk);
      this.used = 0;
    }
    chunk.set(row, this.used * this.width);
    this.used++;
  }

  *[Symbol.iterator](): Generator<number[]> {
    for (const [i, chunk] of this.chunks.entries()) {
      const rows = i === this.chunks.length - 1 ? this.used : IntRows.CHUNK_ROWS;
      for (let r = 0; r < rows; r++) yield Array.from(chunk.subarray(r * this.width, (r + 1) * this.width));
    }
  }
}
