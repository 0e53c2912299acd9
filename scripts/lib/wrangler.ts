/**
 * The project's wrangler setup: the D1 database named in wrangler.toml, the local D1 file
 * that `wrangler dev` serves, and running the wrangler CLI.
 */
import { spawn } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ImportError } from "./problems.ts";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WRANGLER = join(ROOT, "node_modules", ".bin", "wrangler");

/** The `DB` binding's database_id and database_name from wrangler.toml. */
export function d1Database(configPath = join(ROOT, "wrangler.toml")): { id: string; name: string } {
  const toml = readFileSync(configPath, "utf8");
  for (const block of toml.split(/^\[\[d1_databases\]\]\s*$/m).slice(1)) {
    const body = block.split(/^\[/m)[0] ?? "";
    const field = (key: string) => new RegExp(`^\\s*${key}\\s*=\\s*"([^"]*)"`, "m").exec(body)?.[1];
    if (field("binding") === "DB") {
      const id = field("database_id");
      const name = field("database_name");
      if (id && name) return { id, name };
    }
  }
  throw new ImportError(`${configPath}: no [[d1_databases]] entry with binding = "DB", database_name and database_id`);
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

/** Runs the wrangler CLI; resolves when it exits 0. Output goes to ours unless `quiet`. */
export function wrangler(args: string[], options: { quiet?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(WRANGLER, args, {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: process.env.CI ?? "1" },
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString();
      if (!options.quiet) process.stderr.write(d);
    });
    child.stderr.on("data", (d: Buffer) => {
      output += d.toString();
      if (!options.quiet) process.stderr.write(d);
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve(output);
      else reject(new ImportError(`wrangler ${args.join(" ")} failed (exit ${code}):\n${output.trim().slice(-2000)}`));
    });
  });
}

/** Applies migrations/ to the local D1 database (creating its file on first use). */
export async function migrateLocal(persistTo?: string): Promise<void> {
  const persist = persistTo === undefined ? [] : ["--persist-to", persistTo];
  await wrangler(["d1", "migrations", "apply", "DB", "--local", ...persist], { quiet: true });
}
