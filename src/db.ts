import { ApiError } from "./errors";

/**
 * Runs statements in one D1 round trip. Any failure of D1 itself (unreachable, overloaded,
 * schema missing) is a 503 for the caller; the details go to the log only.
 */
export async function runBatch<T>(db: D1Database, statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
  try {
    return await db.batch<T>(statements);
  } catch (error) {
    console.error("D1 batch failed", error);
    throw new ApiError(503, "the database is unavailable; please try again shortly");
  }
}

export function rowsRead(results: readonly D1Result[]): number {
  return results.reduce((n, r) => n + (r.meta?.rows_read ?? 0), 0);
}

/** Runs a count statement (one row, column `n`) and a page statement in one round trip. */
export async function countAndPage<T>(
  db: D1Database,
  count: D1PreparedStatement,
  page: D1PreparedStatement,
): Promise<{ total: number; rows: T[]; rowsRead: number }> {
  const results = await runBatch<unknown>(db, [count, page]);
  const n = (results[0]?.results[0] as { n?: number } | undefined)?.n;
  return { total: Number(n ?? 0), rows: (results[1]?.results ?? []) as T[], rowsRead: rowsRead(results) };
}
