/**
 * The long words an isolate has read from one database's vocabulary (docs/api.md#long-words), at
 * one data version. A statement that asks a long word in SQL (src/match/long-words.ts) is larger
 * and slower to compile: a vocabulary lookup in each text, about 4 times the SQL of the same
 * statement without. And D1 keeps a compiled statement by its text, within a bounded size: large
 * ones push out the others' (docs/benchmarks.md#what-one-request-may-cost). A long word read once
 * is bound as its words afterwards, in a statement whose text is the plain one.
 *
 * The words are the data's: the round trip that binds them also reads the data version, and an
 * answer that bound words of another version starts again (src/d1/session.ts).
 */
import type { Sql } from "../sql/sql.ts";
import { askedAs, readLongWords, rewriteLongWords, type AskedAs } from "./long-words.ts";

/** The most long words a book keeps (each at most 64 words: under 3 MB): the oldest go first. */
const MOST_KEPT = 4096;

/** The most long words one round trip reads for the book (each up to 65 rows of the vocabulary's index). */
const MOST_READ_A_TRIP = 16;

/** A round trip's statements as the book writes them, and what to learn from its answer. */
export interface Written {
  statements: Sql[];
  /** The data version of the words bound, when any was. */
  boundAt: string | null;
  /** Whether the last statement reads long words for the book (readLongWords). */
  reads: boolean;
}

export class LongWordBook {
  private version: string | null = null;
  private readonly words = new Map<string, AskedAs>();

  /** The statements with the long words known bound as their words; the others asked in SQL, and read by a last statement. */
  write(statements: readonly Sql[]): Written {
    const known = (word: string) => this.words.get(word);
    const rewritten = statements.map((s) => rewriteLongWords(s, known));
    const unknown = [...new Set(rewritten.flatMap((r) => r.unknown))].slice(0, MOST_READ_A_TRIP);
    const written = rewritten.map((r) => r.statement);
    const bound = statements.some((s, i) => s.binds.some((b, j) => written[i]?.binds[j] !== b));
    return {
      statements: unknown.length === 0 ? written : [...written, readLongWords(unknown)],
      boundAt: bound ? this.version : null,
      reads: unknown.length > 0,
    };
  }

  /**
   * After the round trip, at the data version it read: false when it bound words of another
   * version (the book starts again; so must the answer). `read` is the last statement's rows.
   */
  learn(written: Written, version: string, read: readonly Record<string, unknown>[] | undefined): boolean {
    if (version !== this.version) {
      this.words.clear();
      this.version = version;
    }
    if (written.boundAt !== null && written.boundAt !== version) return false;
    if (!written.reads) return true;
    for (const row of read ?? []) {
      const entry = askedAs(row);
      if (entry === null) continue;
      this.words.delete(entry[0]);
      this.words.set(...entry);
      if (this.words.size > MOST_KEPT) this.words.delete(this.words.keys().next().value ?? "");
    }
    return true;
  }
}
