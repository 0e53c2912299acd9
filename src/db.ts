import { ApiError } from "./errors";
import type { Sql } from "./queries/sql";

/**
 * Runs a D1 operation. Any failure of D1 itself (unreachable, overloaded, schema missing) is a
 * 503 for the caller; the details go to the log only.
 */
export async function d1<T>(what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    console.error(`D1: ${what} failed`, error);
    throw new ApiError(503, "the database is unavailable; please try again shortly");
  }
}

/** Runs a search statement: the page's rows, each with a `total` column (see queries/*-sql.ts). */
export async function pageWithTotal<T>(
  db: D1Database,
  search: Sql,
): Promise<{ total: number; rows: T[]; rowsRead: number }> {
  const result = await d1("search", () =>
    db
      .prepare(search.sql)
      .bind(...search.params)
      .all<T & { total: number }>(),
  );
  return { total: Number(result.results[0]?.total ?? 0), rows: result.results, rowsRead: result.meta.rows_read ?? 0 };
}

/** Runs a statement that finds at most one row. */
export async function firstRow<T>(db: D1Database, statement: Sql): Promise<{ row: T | null; rowsRead: number }> {
  const result = await d1("lookup", () =>
    db
      .prepare(statement.sql)
      .bind(...statement.params)
      .all<T>(),
  );
  return { row: result.results[0] ?? null, rowsRead: result.meta.rows_read ?? 0 };
}
