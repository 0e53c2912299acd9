/**
 * A total counted by several venue databases in turn (src/query/merged-browse.ts) against the
 * capped count of one database that holds every match (src/match/capped.ts), both run by SQLite:
 * the same total and the same lower-bound flag, for every way of spreading the matches.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { cappedCount } from "../../src/match/capped.ts";
import { countedInTurn } from "../../src/query/merged-browse.ts";
import type { Runner } from "../../src/query/resource.ts";
import { anonymous, numbered, raw, type Sql } from "../../src/sql/sql.ts";

/** A database of `n` matches (table m, pos in order) as a runner of statements. */
function database(n: number, from: number): Runner & { db: Database.Database } {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE m (pos INTEGER PRIMARY KEY)");
  const insert = db.prepare("INSERT INTO m VALUES (?)");
  for (let i = 0; i < n; i++) insert.run(from + i);
  return {
    db,
    run(_what: string, statements: readonly Sql[]) {
      return Promise.resolve(
        statements.map((s) => {
          const { text, binds } = anonymous(numbered(s));
          return { rows: db.prepare(text).all(...binds) as Record<string, unknown>[] };
        }),
      );
    },
  };
}

const countWithin = (limit: number) => cappedCount(raw("SELECT pos FROM m ORDER BY pos"), null, { limit });

describe("a total counted by venue databases in turn", () => {
  it("is one database's capped count of all their matches, its lower bound included", async () => {
    const cap = 10;
    const spreads = [[0], [3, 4], [10, 0, 0], [5, 5, 1], [11], [0, 12, 3], [4, 3, 2, 1], [9, 0, 1, 0], [6, 6, 6]];
    for (const spread of spreads) {
      let from = 1;
      const shards = spread.map((n) => {
        const d = database(n, from);
        from += n;
        return d;
      });
      const whole = database(from - 1, 1);
      const [one] = await whole.run("one database", [countWithin(cap)]);
      const row = one?.rows[0];
      const expected =
        Number(row?.more) > 0 ? { total: Number(row?.n), totalAtLeast: true } : { total: Number(row?.n) };
      expect(await countedInTurn(shards, countWithin, cap), spread.join("+")).toEqual(expected);
      for (const d of [...shards, whole]) d.db.close();
    }
  });
});
