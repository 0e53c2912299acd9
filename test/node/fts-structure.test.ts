/**
 * How many segments a search index is in, read from its FTS5 structure record
 * (scripts/import/publish/fts-settings.ts segmentsOf), against what SQLite's own tables say: the
 * distinct segment ids of the index's %_idx table.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { FTS5_STRUCTURE_ID, segmentsOf } from "../../scripts/import/publish/fts-settings.ts";

describe("the segments of an FTS5 index, from its structure record", () => {
  it("match the segment ids of its %_idx table, from empty through many writes to one merge", () => {
    const db = new Database(":memory:");
    db.exec(`CREATE VIRTUAL TABLE t USING fts5 (doc, content = '', detail = 'none', prefix = '1 2 3')`);
    const read = () =>
      segmentsOf(db.prepare(`SELECT hex(block) FROM t_data WHERE id = ?`).pluck().get(FTS5_STRUCTURE_ID) as string);
    const counted = () => db.prepare("SELECT count(DISTINCT segid) FROM t_idx").pluck().get() as number;
    expect(read()).toBe(0);
    const insert = db.prepare("INSERT INTO t (rowid, doc) VALUES (?, ?)");
    const seen = new Set<number>();
    // Each insert its own transaction, its own segment, until FTS5's automerge merges some.
    for (let i = 1; i <= 300; i++) {
      insert.run(i, `club hall_${i} word${i % 7}`);
      expect(read(), `after ${i} writes`).toBe(counted());
      seen.add(counted());
    }
    expect(Math.max(...seen)).toBeGreaterThan(5);
    db.exec("INSERT INTO t (t, rank) VALUES ('merge', -1000)");
    for (let i = 0; i < 5; i++) db.exec("INSERT INTO t (t, rank) VALUES ('merge', 1000)");
    expect([read(), counted()]).toEqual([1, 1]);
    db.close();
  });

  it("is null for a record it cannot read", () => {
    expect(segmentsOf("00000001")).toBeNull();
  });
});
