/**
 * npm run api-key — makes a new API key and prints it with its SHA-256 hash, the value the
 * worker keeps (API_KEY_HASHES, comma-separated). `npm run api-key -- --hash KEY` prints the
 * hash of an existing key.
 */
import "./node-version.ts";
import { createHash, randomBytes } from "node:crypto";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { hash: { type: "string" } } });
const key = values.hash ?? randomBytes(24).toString("base64url");
const hash = createHash("sha256").update(key).digest("hex");

if (values.hash === undefined) console.log(`API key (give it to the client; it is not stored): ${key}`);
console.log(`SHA-256 hash (what the worker keeps): ${hash}

To require keys, put the hashes of all valid keys, comma-separated, in API_KEY_HASHES:
  deployed:        npx wrangler secret put API_KEY_HASHES
  local (npm start): a line API_KEY_HASHES=${hash} in .dev.vars
Clients send the key in the x-api-key header.`);
