/**
 * A page numbered after its LIMIT (numberedPage, src/data-contract/ranking.ts) against SQLite's own
 * numbering of the whole order (a window over every row, then the page): the same rows, the same
 * ranks, on records with many ties in their keys and distances, for pages from the first to past
 * the last, in the orders of a name, a box and a point.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { numberedPage, rankOrder } from "../../src/data-contract/ranking.ts";
import { anonymous, numbered, raw, sql, type Sql } from "../../src/sql/sql.ts";
import { random as seeded } from "../../scripts/tools/random.ts";

const RECORDS = 500;
const SIZE = 30;

/** Records (pos, k, away): keys of a few tiers, of own names and others', and distances with many ties. */
function records(): Database.Database {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE r (pos INTEGER PRIMARY KEY, k INTEGER, away REAL)");
  const random = seeded("numbered pages");
  const keys = [0, 1, 2, 3000, 3001, 3002, 3, 4, 3003];
  const insert = db.prepare("INSERT INTO r VALUES (?, ?, ?)");
  for (let pos = 1; pos <= RECORDS; pos++) {
    insert.run(pos * 7, keys[Math.floor(random() * keys.length)], Math.floor(random() * 40) / 3);
  }
  return db;
}

const rows = (db: Database.Database, statement: Sql) => {
  const { text, binds } = anonymous(numbered(statement));
  return db.prepare(text).all(...binds);
};

describe("a page numbered after its LIMIT", () => {
  const db = records();
  const orders = {
    name: rankOrder({ key: raw("k"), pos: raw("pos") }),
    box: raw("pos"),
    point: rankOrder({ key: raw("k"), distance: raw("away"), pos: raw("pos") }),
  };
  it.each(Object.entries(orders))("numbers every page of the %s order as the whole order does", (_, order) => {
    for (const offset of [0, SIZE, 7 * SIZE, RECORDS - SIZE + 3, RECORDS, RECORDS + SIZE]) {
      const whole = sql`SELECT pos, rank, dist FROM (
        SELECT pos, row_number() OVER (ORDER BY ${order}) AS rank, away AS dist FROM r)
        WHERE rank > ${offset} ORDER BY rank LIMIT ${SIZE}`;
      const page = numberedPage(raw("SELECT * FROM r"), order, { first: offset, size: SIZE }, raw("away"));
      const expected = rows(db, whole);
      expect(rows(db, sql`${page} ORDER BY rank`)).toEqual(expected);
      expect(expected.length).toBe(Math.max(0, Math.min(SIZE, RECORDS - offset)));
    }
  });
});
