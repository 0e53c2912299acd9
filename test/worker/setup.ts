import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Each test file gets the schema and the fixture rows (setup files run once per file).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
const seeded = await env.DB.prepare("SELECT count(*) AS n FROM meta").first<{ n: number }>();
if (seeded?.n === 0) {
  await env.DB.batch(env.TEST_SEED.map((sql) => env.DB.prepare(sql)));
}
