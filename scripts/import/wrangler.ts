/**
 * The project's wrangler setup: the D1 database named in wrangler.toml, the local D1 file that
 * `wrangler dev` serves, and running the wrangler CLI.
 */
import { createHash, createHmac } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { parse } from "smol-toml";
import { migrationFiles } from "./migrations.ts";
import { ImportError } from "./problems.ts";
import { bin, ROOT, run } from "../tools/project.ts";
import type { RemoteDatabase } from "./publish/remote.ts";

const CONFIG = join(ROOT, "wrangler.toml");

function wranglerConfig(configPath: string): Record<string, unknown> {
  try {
    return parse(readFileSync(configPath, "utf8"));
  } catch (error) {
    throw new ImportError(`${configPath}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The port `wrangler dev` serves on with these arguments: `--port N`, else wrangler.toml's [dev] port, else wrangler's 8787. */
export function devPort(args: readonly string[], configPath = CONFIG): number {
  const at = args.findIndex((a) => a === "--port" || a.startsWith("--port="));
  const given = at < 0 ? undefined : (args[at]?.split("=")[1] ?? args[at + 1]);
  if (given !== undefined) {
    if (!/^[0-9]{1,5}$/.test(given)) throw new ImportError(`--port wants a port number, not "${given}"`);
    return Number(given);
  }
  const dev = wranglerConfig(configPath).dev as { port?: unknown } | undefined;
  return typeof dev?.port === "number" ? dev.port : 8787;
}

/** The `DB` binding's database_id and database_name from wrangler.toml. */
export function d1Database(configPath = CONFIG): { id: string; name: string } {
  const config = wranglerConfig(configPath);
  const databases = Array.isArray(config.d1_databases) ? (config.d1_databases as Record<string, unknown>[]) : [];
  const db = databases.find((d) => d.binding === "DB");
  if (typeof db?.database_id !== "string" || typeof db.database_name !== "string") {
    throw new ImportError(
      `${configPath}: no [[d1_databases]] entry with binding = "DB", database_name and database_id`,
    );
  }
  return { id: db.database_id, name: db.database_name };
}

/**
 * Path of the local D1 SQLite file. Miniflare keeps each D1 database in a Durable Object whose
 * id is derived from the database id (idFromName); the file is named after that object id.
 */
export function localD1File(databaseId: string, persistTo: string = join(ROOT, ".wrangler", "state")): string {
  const uniqueKey = "miniflare-D1DatabaseObject";
  const key = createHash("sha256").update(uniqueKey).digest();
  const nameHmac = createHmac("sha256", key).update(databaseId).digest().subarray(0, 16);
  const hmac = createHmac("sha256", key).update(nameHmac).digest().subarray(0, 16);
  const objectId = Buffer.concat([nameHmac, hmac]).toString("hex");
  return join(persistTo, "v3", "d1", uniqueKey, `${objectId}.sqlite`);
}

/** Runs the wrangler CLI; resolves with its output when it exits 0. */
export function wrangler(args: string[], options: { echo?: boolean } = {}): Promise<string> {
  return run(bin("wrangler"), args, { echo: options.echo, env: { CI: process.env.CI ?? "1" } });
}

/** The migrations of migrations/ that the SQLite file has not applied (wrangler's d1_migrations table). */
function pendingMigrations(path: string): string[] {
  const all = migrationFiles();
  if (!existsSync(path)) return all;
  const db = new Database(path, { readonly: true });
  try {
    const applied = new Set(db.prepare("SELECT name FROM d1_migrations").pluck().all() as string[]);
    return all.filter((f) => !applied.has(f));
  } catch {
    return all; // no d1_migrations table yet
  } finally {
    db.close();
  }
}

/**
 * Applies migrations/ to the local D1 database (creating its file on first use), when any is
 * pending. wrangler applies them through a D1 of its own, which a busy `wrangler dev` on the same
 * file can lock out for a moment: it is tried again a few times.
 */
export async function migrateLocal(persistTo?: string): Promise<void> {
  if (pendingMigrations(localD1File(d1Database().id, persistTo)).length === 0) return;
  const persist = persistTo === undefined ? [] : ["--persist-to", persistTo];
  for (let attempt = 1; ; attempt++) {
    try {
      await wrangler(["d1", "migrations", "apply", "DB", "--local", ...persist]);
      return;
    } catch (error) {
      if (attempt >= 4 || !String(error).includes("SQLITE_BUSY")) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

/** The remote D1 database of wrangler.toml, through wrangler. */
export function wranglerDatabase(name: string): RemoteDatabase {
  return {
    async applied(version) {
      try {
        const output = await wrangler([
          "d1",
          "execute",
          name,
          "--remote",
          "--json",
          "--command",
          `SELECT file FROM import_progress WHERE version = '${version.replaceAll("'", "''")}'`,
        ]);
        const parsed = JSON.parse(output) as { results: { file: number }[] }[];
        return new Set(parsed.flatMap((r) => r.results.map((x) => x.file)));
      } catch {
        return new Set(); // no import_progress table: nothing applied yet
      }
    },
    async apply(path) {
      await wrangler(["d1", "execute", name, "--remote", "--yes", `--file=${path}`]);
    },
  };
}
