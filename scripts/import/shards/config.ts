/**
 * The wrangler configuration of a local import in venue databases (docs/deploy.md#past-one-database):
 * wrangler.shards.toml, written by the import beside wrangler.toml, is wrangler.toml with a
 * `[[d1_databases]]` binding for each venue database it does not declare itself. `npm start`
 * serves with it while the local main database holds a plan (start.ts).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../tools/project.ts";
import { CONFIG, type BoundDatabase } from "../wrangler.ts";

export const SHARDS_CONFIG = join(ROOT, "wrangler.shards.toml");

const binding = (db: BoundDatabase): string =>
  `\n[[d1_databases]]\nbinding = "${db.binding}"\ndatabase_name = "${db.name}"\ndatabase_id = "${db.id}"\n`;

/** Writes wrangler.shards.toml for these venue databases (at the project's root, where its paths lead). */
export function writeShardsConfig(databases: readonly BoundDatabase[], path = SHARDS_CONFIG): void {
  const header =
    "# Written by `npm run db:import -- --shards N` (scripts/import/shards/config.ts): wrangler.toml with\n" +
    "# a binding for each venue database it does not declare. Do not edit: the next import rewrites it.\n";
  const added = databases.filter((db) => !db.declared).map(binding);
  writeFileSync(path, `${header}${readFileSync(CONFIG, "utf8")}${added.join("")}`);
}

/** The `wrangler dev` arguments that serve a local import in venue databases: none without one. */
export function shardsConfigArgs(args: readonly string[], planned: boolean, config = SHARDS_CONFIG): string[] {
  const ownConfig = args.some((a) => a === "--config" || a === "-c" || a.startsWith("--config="));
  return planned && !ownConfig && existsSync(config) ? ["--config", config] : [];
}
