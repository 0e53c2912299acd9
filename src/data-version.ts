/**
 * The version of the data in D1 (meta.data_version, a content hash written by the import).
 * It is part of every cache key, so a re-import never serves old pages. Read once per isolate
 * every few seconds rather than per request: a cache hit then costs no D1 round trip, and a
 * re-import is visible within MAX_AGE_MS.
 */
import { d1 } from "./db";
import { ApiError } from "./errors";

export const MAX_AGE_MS = 5_000;

let memo: { version: string; readAt: number } | null = null;

export async function dataVersion(db: D1Database): Promise<string> {
  const now = Date.now();
  if (memo !== null && now - memo.readAt < MAX_AGE_MS) return memo.version;
  const row = await d1("reading the data version", () =>
    db.prepare("SELECT value FROM meta WHERE key = 'data_version'").first<{ value: string }>(),
  );
  if (row === null) throw new ApiError(503, "the database holds no data yet; run the import");
  memo = { version: row.value, readAt: now };
  return row.value;
}

/** Forgets the remembered version (tests that re-seed the database). */
export function forgetDataVersion(): void {
  memo = null;
}
