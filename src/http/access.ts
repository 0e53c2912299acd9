/**
 * Access control: optional API keys and rate limits. Keys are compared as SHA-256 digests in
 * constant time, and never logged.
 */
import type { Env } from "../env.ts";
import { ApiError } from "./errors.ts";

/** The period of the [[ratelimits]] binding in wrangler.toml, in seconds (Retry-After). */
export const RATE_LIMIT_PERIOD_SECONDS = 60;

let parsed: { source: string; hashes: Uint8Array[] } | null = null;

/** The configured key hashes; malformed entries are dropped (and reported, without values). */
function keyHashes(source: string): Uint8Array[] {
  if (parsed?.source === source) return parsed.hashes;
  const entries = source.split(/[\s,]+/).filter(Boolean);
  const hashes = entries.filter((e) => /^[0-9a-fA-F]{64}$/.test(e)).map(fromHex);
  if (hashes.length < entries.length) {
    console.error(
      `API_KEY_HASHES: ${entries.length - hashes.length} of ${entries.length} entries are not SHA-256 hex digests`,
    );
  }
  parsed = { source, hashes };
  return hashes;
}

function fromHex(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function toHex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * When keys are configured, the request's x-api-key must be one of them: 401 without a key,
 * 403 with an unknown one. Returns the key's digest (hex), or null when no keys are configured.
 */
export async function requireApiKey(request: Request, env: Env): Promise<string | null> {
  const source = env.API_KEY_HASHES?.trim() ?? "";
  if (source === "") return null;
  const hashes = keyHashes(source);
  const key = request.headers.get("x-api-key")?.trim() ?? "";
  if (key === "") throw new ApiError(401, "an API key is required: send it in the x-api-key header");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)));
  let known = false;
  for (const hash of hashes) known = crypto.subtle.timingSafeEqual(digest, hash) || known; // no early exit
  if (!known) throw new ApiError(403, "the API key in x-api-key is not valid");
  return toHex(digest);
}

/** A loopback address: the client is on the machine that runs the worker (`wrangler dev`). */
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/**
 * Counts the request against its client's limit (its API key, or its IP without keys); cached
 * answers count too. Over the limit: 429 with Retry-After. A failing limiter lets requests
 * through rather than failing them.
 *
 * RATE_LIMIT "off" turns limiting off, "on" limits every client; by default every client is
 * limited except one on the worker's own machine — deployed, Cloudflare sets CF-Connecting-IP to
 * the real client, never a loopback address; under `wrangler dev` every local client is
 * 127.0.0.1, and a developer's test suite should not be throttled.
 */
export async function enforceRateLimit(request: Request, env: Env, keyDigest: string | null): Promise<void> {
  if (env.RATE_LIMIT === "off" || env.RATE_LIMITER === undefined) return;
  const ip = request.headers.get("CF-Connecting-IP");
  if (env.RATE_LIMIT !== "on" && ip !== null && LOOPBACK.test(ip)) return;
  const client = keyDigest !== null ? `key:${keyDigest}` : `ip:${ip ?? "unknown"}`;
  let allowed = true;
  try {
    allowed = (await env.RATE_LIMITER.limit({ key: client })).success;
  } catch (error) {
    console.error("rate limiter failed; the request goes through", error);
  }
  if (!allowed) {
    throw new ApiError(429, `too many requests: retry after ${RATE_LIMIT_PERIOD_SECONDS} seconds`, {
      "Retry-After": String(RATE_LIMIT_PERIOD_SECONDS),
    });
  }
}
