/**
 * Phase 3, derive the vocabulary (docs/api.md#typo-tolerance): every distinct normalized word of
 * 3 or more letters of the venues' and cities' names, with how many of each hold it, and its
 * deletion neighbourhood (src/format/typo-keys.ts), the document words_fts indexes.
 */
import type Database from "better-sqlite3";
import { indexDeletes } from "../../../src/format/typo-keys.ts";
import type { Progress } from "../progress.ts";

export function vocabulary(db: Database.Database, progress: Progress): number {
  progress.phase("vocabulary of names (for the stored prefix totals and typo tolerance)");
  db.exec(`
    INSERT INTO words (word, venues, cities)
    SELECT value, sum(kind = 'v'), sum(kind = 'c') FROM (
      SELECT 'v' AS kind, j.value FROM temp.ordered_venues, json_each('["' || replace(name_norm, ' ', '","') || '"]') j
      UNION ALL
      SELECT 'c', j.value FROM raw_cities, json_each('["' || replace(words, ' ', '","') || '"]') j
    ) WHERE length(value) >= 3 GROUP BY value ORDER BY value`);
  const count = db.prepare("SELECT count(*) FROM words").pluck().get() as number;
  progress.phase("deletion neighbourhoods of the vocabulary (typo tolerance)", count);
  // A function called by SQLite streams the words through, without reading them out in batches.
  db.function("index_deletes", { deterministic: true }, (word) => indexDeletes(String(word)));
  db.exec("INSERT INTO word_docs (pos, doc) SELECT id, index_deletes(word) FROM words ORDER BY id");
  progress.tick(count);
  return count;
}
