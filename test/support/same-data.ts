/**
 * Whether two served databases hold the same data: every row of every plain table (SQLite's
 * EXCEPT, both ways), the meta rows but when it was imported and the bytes the data takes (which
 * differ by the way it was written), and every (term, document) pair of every FTS index (fts5vocab 'instance': the indexes
 * are contentless, and their segments differ by the way they were written).
 */
import Database from "better-sqlite3";
import { FTS_DOCUMENTS, PLAIN_TABLES } from "../../scripts/import/phases/build-file.ts";
import { DATA_BYTES } from "../../scripts/import/publish/remote-replica.ts";

/** What differs, as `table: n rows only in a, m only in b`; empty when they hold the same data. */
export function dataDifferences(a: string, b: string): string[] {
  const db = new Database(a, { readonly: true });
  try {
    db.prepare("ATTACH DATABASE ? AS other").run(b);
    const count = (sql: string) => db.prepare(`SELECT count(*) FROM (${sql})`).pluck().get() as number;
    const both = (name: string, rows: (schema: string) => string) => {
      const [onlyA, onlyB] = [
        count(`${rows("main")} EXCEPT ${rows("other")}`),
        count(`${rows("other")} EXCEPT ${rows("main")}`),
      ];
      return onlyA + onlyB === 0 ? [] : [`${name}: ${onlyA} rows only in ${a}, ${onlyB} only in ${b}`];
    };
    const out = PLAIN_TABLES.flatMap((t) => both(t, (s) => `SELECT * FROM ${s}.${t}`));
    out.push(...both("meta", (s) => `SELECT * FROM ${s}.meta WHERE key NOT IN ('${DATA_BYTES}', 'imported_at')`));
    for (const { table } of FTS_DOCUMENTS) {
      for (const s of ["main", "other"]) {
        db.exec(`CREATE VIRTUAL TABLE temp.${s}_${table} USING fts5vocab(${s}, ${table}, 'instance')`);
      }
      out.push(...both(table, (s) => `SELECT term, doc FROM temp.${s}_${table}`));
    }
    return out;
  } finally {
    db.close();
  }
}
