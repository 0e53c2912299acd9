/**
 * The version of the data in D1 (meta.data_version, a content hash written by the import), as
 * this isolate last saw it. It is part of every cache key, so a re-import never serves old pages.
 * Remembered for a few seconds rather than read per request: a cache hit then costs no D1 round
 * trip, and a re-import is visible within MAX_AGE_MS. A miss reads the version again, with its
 * rows (src/d1/session.ts), and the answer is stored under the version it was built from.
 */
const MAX_AGE_MS = 5_000;

let memo: { version: string; readAt: number } | null = null;

/** The version seen less than MAX_AGE_MS ago, or null. */
export function rememberedVersion(now = Date.now()): string | null {
  return memo !== null && now - memo.readAt < MAX_AGE_MS ? memo.version : null;
}

export function rememberVersion(version: string, now = Date.now()): void {
  memo = { version, readAt: now };
}

/** Forgets the remembered version (tests that re-seed the database). */
export function forgetDataVersion(): void {
  memo = null;
}
