/** Writing a stream of rows into the build file in transactions of BATCH rows. */
import type Database from "better-sqlite3";

/** Rows per transaction while streaming sources in. */
const BATCH = 20_000;

/** Runs `write` over an async stream of items in transactions of BATCH items; returns how many. */
export async function inBatches<T>(
  db: Database.Database,
  items: AsyncIterable<T> | Iterable<T>,
  write: (item: T) => void,
  tick: (n: number) => void,
): Promise<number> {
  let n = 0;
  db.exec("BEGIN");
  try {
    for await (const item of items) {
      write(item);
      if (++n % BATCH === 0) {
        db.exec("COMMIT");
        tick(n);
        db.exec("BEGIN");
      }
    }
    db.exec("COMMIT");
  } catch (e) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw e;
  }
  tick(n);
  return n;
}

export function isUniqueViolation(e: unknown): boolean {
  return e instanceof Error && "code" in e && String(e.code).startsWith("SQLITE_CONSTRAINT");
}
