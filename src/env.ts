export interface Env {
  DB: D1Database;
  /** "off" answers every request from D1 (benchmarks of the miss path, debugging). */
  EDGE_CACHE?: string;
  /**
   * SHA-256 hashes (hex, comma-separated) of the accepted API keys, set as a secret
   * (`npm run api-key`). Unset or empty: no key is needed.
   */
  API_KEY_HASHES?: string;
  /** The Workers rate-limit binding (wrangler.toml, [[ratelimits]]). */
  RATE_LIMITER?: RateLimit;
  /**
   * "on" limits every client, "off" none; unset, every client but those on this machine (a
   * loopback address: `wrangler dev`).
   */
  RATE_LIMIT?: string;
  /** "full": the city of a venue in a venue search has coords and country (SPEC §10.4). */
  VENUE_CITY_DETAIL?: string;
}
