/**
 * `wrangler d1 migrations apply NAME --remote` for the local D1 that stands in for the remote
 * database (scripts/tools/wrangler-d1-stand-in.sh runs this for it), as wrangler does it: its
 * table of applied migrations created where missing, then each migration of migrations/ not in it
 * sent as one query, the file and the row that records it (wrangler's buildMigrationQuery), which D1
 * applies whole or not at all. Through the server that keeps the stand-in open
 * (scripts/tools/d1-stand-in-server.ts): wrangler's own command starts Miniflare once for each
 * migration, about 13 s for a new database. The local import applies them into its file itself
 * (scripts/import/wrangler.ts migrateLocal).
 *
 * Usage (as wrangler's): d1 migrations apply NAME --local --persist-to DIR
 */
import { parseArgs } from "node:util";
import { MIGRATIONS_TABLE, migrationSql, missingMigrations } from "../import/migrations.ts";
import { databaseNamed } from "../import/wrangler.ts";
import { sendToStandIn } from "./d1-stand-in-call.ts";

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  strict: false,
  options: { "persist-to": { type: "string" } },
});
const dir = String(values["persist-to"] ?? ".wrangler/state");
const databaseId = databaseNamed(String(positionals[3] ?? "")).id;

async function migrate(): Promise<string[]> {
  await sendToStandIn(dir, { databaseId, sql: MIGRATIONS_TABLE });
  const [listed] = await sendToStandIn(dir, { databaseId, sql: "SELECT name FROM d1_migrations ORDER BY id" });
  const applied = ((listed?.results ?? []) as { name: string }[]).map((row) => row.name);
  const missing = missingMigrations(applied);
  for (const name of missing) {
    await sendToStandIn(dir, {
      databaseId,
      sql: `${migrationSql(name)}\nINSERT INTO "d1_migrations" (name)\nvalues ('${name.replace(/'/g, "''")}');`,
    }).catch((error: unknown) => {
      throw new Error(`Migration ${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
  return missing;
}

migrate().then(
  (applied) => console.log(applied.length === 0 ? "✅ No migrations to apply!" : `✅ Applied ${applied.join(", ")}`),
  (error: unknown) => {
    // As wrangler says a failed migration: one [ERROR] line, exit 1.
    console.error(`✘ [ERROR] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
