/**
 * The edge cache (docs/api.md#caching). The key is the canonical query plus format, language, the deployment's
 * variant (VENUE_CITY_DETAIL) and the data version, so equivalent requests share an entry, formats never cross, and a re-import starts
 * fresh. Two levels:
 *
 * - this isolate's memory: the most recently used answers (bounded by count and bytes), so a
 *   hot query costs no I/O at all — measured: caches.default alone served hits at half the
 *   empty worker's rate (docs/benchmarks.md);
 * - caches.default, shared by the isolates of a location.
 *
 * A failing cache never fails a request: it is answered from D1.
 */
import type { Format } from "../http/negotiate.ts";

export const CACHE_CONTROL = "public, max-age=300, s-maxage=604800";

const MEMORY_MAX_ENTRIES = 1000;
const MEMORY_MAX_BYTES = 16 * 1024 * 1024;

export interface CacheKey {
  url: string;
  etag: string;
}

export function cacheKey(
  origin: string,
  path: string,
  canonicalQuery: string,
  format: Format,
  language: string,
  dataVersion: string,
  variant = "",
): CacheKey {
  const url = `${origin}${path}?${canonicalQuery}&format=${format}&lang=${language}${variant === "" ? "" : `&${variant}`}&v=${dataVersion}`;
  return { url, etag: `"${dataVersion}-${hash64(url)}"` };
}

/** 64-bit FNV-1a as two 32-bit halves with different offsets: an ETag needs no crypto. */
function hash64(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

interface MemoryEntry {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
}

/** Insertion order is recency: a hit moves its entry to the end; eviction takes the front. */
const memory = new Map<string, MemoryEntry>();
let memoryBytes = 0;

function fromMemory(key: CacheKey): Response | undefined {
  const entry = memory.get(key.url);
  if (entry === undefined) return undefined;
  memory.delete(key.url);
  memory.set(key.url, entry);
  return new Response(entry.body, { status: entry.status, headers: entry.headers });
}

function remember(key: CacheKey, entry: MemoryEntry): void {
  const old = memory.get(key.url);
  if (old !== undefined) {
    memory.delete(key.url);
    memoryBytes -= old.body.byteLength;
  }
  if (entry.body.byteLength > MEMORY_MAX_BYTES / 16) return;
  memory.set(key.url, entry);
  memoryBytes += entry.body.byteLength;
  for (const [url, oldest] of memory) {
    if (memory.size <= MEMORY_MAX_ENTRIES && memoryBytes <= MEMORY_MAX_BYTES) break;
    memory.delete(url);
    memoryBytes -= oldest.body.byteLength;
  }
}

export async function cacheLookup(key: CacheKey): Promise<Response | undefined> {
  const remembered = fromMemory(key);
  if (remembered !== undefined) return remembered;
  let cached: Response | undefined;
  try {
    cached = await caches.default.match(new Request(key.url));
  } catch (error) {
    console.error("cache lookup failed; answering from D1", error);
    return undefined;
  }
  if (cached === undefined) return undefined;
  const body = new Uint8Array(await cached.arrayBuffer());
  const entry = { status: cached.status, headers: [...cached.headers], body };
  remember(key, entry);
  return new Response(body, { status: entry.status, headers: entry.headers });
}

/** Stores an answer in both levels; the edge write happens after the response (waitUntil). */
export function cacheStore(
  ctx: ExecutionContext,
  key: CacheKey,
  status: number,
  headers: Record<string, string>,
  body: string,
): void {
  const bytes = new TextEncoder().encode(body);
  remember(key, { status, headers: Object.entries(headers), body: bytes });
  const response = new Response(bytes, { status, headers });
  ctx.waitUntil(
    caches.default.put(new Request(key.url), response).catch((error: unknown) => {
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
