/**
 * The wrangler configuration of a local import in venue databases (scripts/import/shards/config.ts):
 * wrangler.toml with a binding for each venue database it does not declare, and when `npm start`
 * serves with it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "smol-toml";
import { afterAll, describe, expect, it } from "vitest";
import { shardsConfigArgs, writeShardsConfig } from "../../scripts/import/shards/config.ts";
import { d1Database, shardDatabases } from "../../scripts/import/wrangler.ts";

const DIR = mkdtempSync(join(tmpdir(), "vcs-shard-config-"));
const CONFIG = join(DIR, "wrangler.shards.toml");
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

describe("wrangler.shards.toml", () => {
  it("binds every venue database beside wrangler.toml's own, with ids of their own", () => {
    const databases = shardDatabases(3);
    writeShardsConfig(databases, CONFIG);
    const config = parse(readFileSync(CONFIG, "utf8")) as { d1_databases: Record<string, string>[]; main: string };
    expect(config.main).toBe("src/index.ts");
    expect(config.d1_databases.map((d) => d.binding)).toEqual(["DB", "DB_SHARD_1", "DB_SHARD_2", "DB_SHARD_3"]);
    const ids = config.d1_databases.map((d) => d.database_id);
    expect(new Set(ids).size).toBe(4);
    expect(ids[0]).toBe(d1Database().id);
    expect(shardDatabases(3).map((d) => d.id)).toEqual(ids.slice(1)); // the same each time
  });

  it("is what npm start serves with while the local database holds a plan, unless told another", () => {
    expect(existsSync(CONFIG)).toBe(true);
    expect(shardsConfigArgs(["--port", "8800"], true, CONFIG)).toEqual(["--config", CONFIG]);
    expect(shardsConfigArgs([], false, CONFIG)).toEqual([]);
    expect(shardsConfigArgs(["--config", "other.toml"], true, CONFIG)).toEqual([]);
    expect(shardsConfigArgs([], true, join(DIR, "none.toml"))).toEqual([]);
  });
});
