/**
 * The edge cache (SPEC §7) over caches.default. The key is the canonical query plus format,
 * language and data version, so equivalent requests share an entry, formats never cross, and a
 * re-import starts fresh. A failing cache never fails a request: it is answered from D1.
 */
import type { Format } from "./negotiate";

export const CACHE_CONTROL = "public, max-age=300, s-maxage=604800";

export interface CacheKey {
  request: Request;
  etag: string;
}

export async function cacheKey(
  origin: string,
  path: string,
  canonicalQuery: string,
  format: Format,
  language: string,
  dataVersion: string,
): Promise<CacheKey> {
  const url = `${origin}${path}?${canonicalQuery}&format=${format}&lang=${language}&v=${dataVersion}`;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(url));
  const hex = [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { request: new Request(url), etag: `"${dataVersion}-${hex}"` };
}

export async function cacheLookup(key: CacheKey): Promise<Response | undefined> {
  try {
    return await caches.default.match(key.request);
  } catch (error) {
    console.error("cache lookup failed; answering from D1", error);
    return undefined;
  }
}

export function cacheStore(ctx: ExecutionContext, key: CacheKey, response: Response): void {
  ctx.waitUntil(
    caches.default.put(key.request, response.clone()).catch((error: unknown) => {
      console.error("cache write failed", error);
    }),
  );
}

/** Whether an If-None-Match header matches an entity tag (weak comparison, RFC 9110 §13.1.2). */
export function ifNoneMatch(header: string | null, etag: string | null): boolean {
  if (header === null || etag === null) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => opaque(tag) === opaque(etag));
}
