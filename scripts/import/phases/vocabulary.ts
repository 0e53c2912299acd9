/**
 * Phase 3, derive the vocabulary (docs/api.md#typo-tolerance): every distinct normalized word of
 * 3 or more letters of the venues', cities' and places' names (place_names: a typo in the place of
 * a name is forgiven too), with how many of each hold it, and its
 * deletion neighbourhood (src/data-contract/typo-keys.ts), the document words_fts indexes.
 */
import type Database from "better-sqlite3";
import { indexDeletes } from "../../../src/data-contract/typo-keys.ts";
import type { Progress } from "../progress.ts";
import { withSortHelper } from "../sort-helper.ts";

/**
 * A word's number (words.id, the rowid of its words_fts document) is its own: a 24-bit hash of it
 * (FNV-1a over its UTF-16 code units, folded), times 16, plus its rank among the words of the same
 * hash (5.6M words at 10M venues fill a third of the 2^24; 16 in one is never seen). Numbered in
 * alphabetical order, one new word renumbered every word after it, and a refresh rewrote half the
 * vocabulary and its index (docs/deploy.md#a-refresh-that-writes-what-changed). Not more bits:
 * FTS5 stores a document list as the differences of its rowids, and 48 bits made words_fts twice
 * its size (60 → 124 MiB at 1M venues). Not SHA-1: a digest object a word made the phase 3 × as
 * long (2.8M words: 7.1 → 25.6 s).
 */
function wordHash(value: unknown): number {
  const word = String(value);
  let h = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 0x01000193);
  return ((h >>> 24) ^ h) & 0xffffff;
}

export function vocabulary(db: Database.Database, progress: Progress): number {
  progress.phase("vocabulary of names (for the stored prefix totals and typo tolerance)");
  db.function("word_hash", { deterministic: true }, wordHash);
  // Every word once, counted; the words of 1 and 2 letters stay in a temp table, for the prefixes
  // that the cell counts count (cell-counts.ts). One sort of every word of every name.
  withSortHelper(db, () =>
    db.exec(`
    CREATE TEMP TABLE all_words AS
    SELECT value AS word, sum(kind = 'v') AS venues, sum(kind = 'c') AS cities, sum(kind = 'p') AS places FROM (
      SELECT 'v' AS kind, j.value FROM temp.ordered_venues, json_each('["' || replace(words, ' ', '","') || '"]') j
      UNION ALL
      SELECT 'c', j.value FROM raw_cities, json_each('["' || replace(words, ' ', '","') || '"]') j
      UNION ALL
      SELECT 'p', j.value FROM place_names, json_each('["' || replace(form, ' ', '","') || '"]') j
    ) GROUP BY value ORDER BY value;
    INSERT INTO words (id, word, venues, cities, places)
    SELECT h * 16 + row_number() OVER (PARTITION BY h ORDER BY word) - 1, word, venues, cities, places
    FROM (SELECT word_hash(word) AS h, * FROM temp.all_words WHERE length(word) >= 3) ORDER BY 1;
    -- The build's own: the prefix totals and cell counts read the words in word order.
    CREATE INDEX build_words_by_word ON words (word, venues, cities);
    CREATE TEMP TABLE short_words AS SELECT word, venues, cities FROM temp.all_words WHERE length(word) < 3;
    DROP TABLE temp.all_words;`),
  );
  const count = db.prepare("SELECT count(*) FROM words").pluck().get() as number;
  progress.phase("deletion neighbourhoods of the vocabulary (typo tolerance)", count);
  // A function called by SQLite streams the words through, without reading them out in batches.
  db.function("index_deletes", { deterministic: true }, (word) => indexDeletes(String(word)));
  db.exec("INSERT INTO side_words.word_docs (pos, doc) SELECT id, index_deletes(word) FROM words ORDER BY id");
  progress.tick(count);
  return count;
}
