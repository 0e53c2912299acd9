/**
 * The request path's routing to the venue databases (docs/deploy.md#past-one-database): which
 * database runs a venue search's round trips, by the rule of shards.ts.
 */
import { shardBinding, type ShardManifest } from "../data-contract/shards.ts";
import type { Env } from "../env.ts";
import { areaOf, type SearchParams } from "../params/search-params.ts";
import type { Runner } from "../query/resource.ts";
import { shardPlacesSql, shardPlanSql } from "../query/shard-places.ts";
import type { Sql } from "../sql/sql.ts";
import { NotCurrent, Session } from "./session.ts";
import { filterPlace, shardsFor } from "./shards.ts";

/** The binding of venue database `shard`, when the deployment binds it (wrangler.shards.toml). */
function boundShard(env: Env, shard: number): D1Database | undefined {
  const value = (env as unknown as Record<string, unknown>)[shardBinding(shard)];
  return typeof value === "object" && value !== null && "withSession" in value ? (value as D1Database) : undefined;
}

/** The manifest of the main database's import, parsed once per version in an isolate. */
let parsed: { version: string | null; manifest: ShardManifest | null } = { version: null, manifest: null };

function manifestOf(version: string | null, json: unknown): ShardManifest | null {
  if (version === null || parsed.version !== version) {
    const manifest = typeof json === "string" ? (JSON.parse(json) as ShardManifest) : null;
    parsed = { version, manifest };
  }
  return parsed.manifest;
}

/**
 * Runs a search's round trips in the one venue database it asks, while that holds the import the
 * main database names for it; else, from its first round trip on, in the main database (which
 * still holds every venue: docs/deploy.md#past-one-database).
 */
class InShard implements Runner {
  private inMain = false;

  constructor(
    private readonly shard: Session,
    private readonly main: Session,
  ) {}

  async run(what: string, statements: readonly Sql[]) {
    if (this.inMain) return this.main.run(what, statements);
    const rowsBefore = this.shard.rowsRead;
    try {
      const rows = await this.shard.run(what, statements);
      this.main.rowsRead += this.shard.rowsRead - rowsBefore;
      this.main.trips++;
      for (const label of this.shard.answeredBy) this.main.answeredBy.add(label);
      return rows;
    } catch (error) {
      if (!(error instanceof NotCurrent) || this.shard.trips > 1) throw error;
      this.inMain = true;
      return this.main.run(what, statements);
    }
  }
}

/**
 * What runs a venue search (docs/deploy.md#past-one-database): the venue database its filters and
 * area ask alone; else the main database. One round trip to the main database reads the plan and
 * the places the filters name; none where the deployment binds no venue database, or where the
 * search has neither filters nor an area (it asks every venue database).
 */
export async function venueRunner(env: Env, main: Session, p: SearchParams): Promise<Runner> {
  const area = areaOf(p);
  const placesSql = shardPlacesSql(p);
  if (boundShard(env, 1) === undefined || (placesSql === null && area === undefined)) return main;
  const [plan, placeRows] = await main.run("routing to a venue database", [
    shardPlanSql(),
    ...(placesSql === null ? [] : [placesSql]),
  ]);
  const manifest = manifestOf(main.version, plan?.rows[0]?.value);
  if (manifest === null) return main;
  const asked = shardsFor(manifest, placeRows === undefined ? null : placeRows.rows.map(filterPlace), area);
  const shard = asked.length === 1 ? manifest.find((s) => s.shard === asked[0]) : undefined;
  const db = shard === undefined ? undefined : boundShard(env, shard.shard);
  if (shard === undefined || db === undefined) return main;
  return new InShard(new Session(db, String(shard.shard), shard.version), main);
}
