/**
 * The worker's bindings and vars: generated from wrangler.toml into worker-configuration.d.ts by
 * `npm run types` (`npm run check` fails when it is out of date), plus the one secret, which
 * wrangler.toml does not name.
 */
export type Env = Cloudflare.Env & {
  /**
   * SHA-256 hashes (hex, comma-separated) of the accepted API keys, set as a secret
   * (`npm run api-key`). Unset or empty: no key is needed.
   */
  API_KEY_HASHES?: string;
};
