/**
 * A document as its index holds it (scripts/import/publish/fts-terms.ts), against FTS5 itself: the
 * terms `fts5vocab` lists for each of 2,000 drawn documents (ASCII letters of both cases, digits,
 * `_`, punctuation, accented and other-script letters, a character outside the BMP, the marks and
 * filter tokens the documents hold), and the 'delete' of a document by its terms alone, in a
 * contentless `detail = 'none'` index as migrations/ makes them, which leaves no entry of it.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { documentTerms } from "../../scripts/import/publish/fts-terms.ts";

const PIECES = [
  "a",
  "Z",
  "Qu",
  "0",
  "9",
  "_",
  " ",
  "  ",
  "-",
  ".",
  "'",
  "é",
  "Ü",
  "ß",
  "東京",
  "𝒳",
  "\u0300",
  "__c_us",
  "_new_york",
  "\t",
];

/** A document drawn from PIECES by a small linear congruential generator (the same every run). */
function drawn(seed: number): string {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2147483648);
  return Array.from({ length: 1 + (next() % 12) }, () => PIECES[next() % PIECES.length]).join("");
}

const INDEX = `USING fts5 (doc, content = '', detail = 'none', columnsize = 0, prefix = '1 2 3',
  tokenize = "ascii tokenchars '_'")`;

describe("a document's terms", () => {
  it("are the terms FTS5's ascii tokenizer indexes, and delete every entry of the document", () => {
    const db = new Database(":memory:");
    db.exec(`CREATE VIRTUAL TABLE t ${INDEX}; CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')`);
    const docs = Array.from({ length: 2000 }, (_, i) => drawn(i + 1));
    const insert = db.prepare("INSERT INTO t (rowid, doc) VALUES (?, ?)");
    docs.forEach((doc, i) => insert.run(i + 1, doc));
    const indexed = new Map(
      (
        db.prepare("SELECT doc, group_concat(term, ' ') AS terms FROM v GROUP BY doc").all() as {
          doc: number;
          terms: string;
        }[]
      ).map((r) => [r.doc, r.terms]),
    );
    docs.forEach((doc, i) => {
      const terms = documentTerms(doc);
      expect(new Set(terms === "" ? [] : terms.split(" ")), JSON.stringify(doc)).toEqual(
        new Set(indexed.get(i + 1)?.split(" ") ?? []),
      );
      expect(documentTerms(indexed.get(i + 1) ?? "")).toBe(terms);
    });
    const remove = db.prepare("INSERT INTO t (t, rowid, doc) VALUES ('delete', ?, ?)");
    docs.forEach((doc, i) => remove.run(i + 1, documentTerms(doc)));
    expect(db.prepare("SELECT count(*) FROM v").pluck().get()).toBe(0);
    expect(db.prepare("SELECT count(*) FROM t WHERE t MATCH 'a*'").pluck().get()).toBe(0);
    db.exec("INSERT INTO t (t) VALUES ('integrity-check')");
    db.close();
  });
});
