/**
 * What a database of a shard plan says about itself (src/data-contract/shards.ts): its own data
 * version, and the manifest in its meta rows.
 */
import { createHash } from "node:crypto";
import { SHARD_KEY, SHARD_PLAN_KEY, type ShardManifest } from "../../../src/data-contract/shards.ts";
import type { BuildCounts } from "../phases/build.ts";
import type { ShardChoice } from "./venues.ts";

/** A database of a plan serves other rows than the one database of the same sources: its own version. */
export function shardVersion(version: string, shards: ShardChoice | undefined): string {
  if (shards === undefined) return version;
  const which = shards.index === null ? "main" : String(shards.index + 1);
  return createHash("sha256").update(`${version}/${shards.count}/${which}`).digest("hex").slice(0, 16);
}

/** The meta rows of a database of a plan; `version` the data version of the sources (before shardVersion()). */
export function shardMetaRows(
  shards: ShardChoice | undefined,
  counts: BuildCounts,
  version: string,
): [string, string][] {
  if (shards === undefined) return [];
  const manifest: ShardManifest = counts.shardPlan.map((s, i) => ({
    shard: i + 1,
    regions: s.regions,
    venues: s.venues,
    version: shardVersion(version, { count: shards.count, index: i }),
  }));
  return [
    [SHARD_KEY, shards.index === null ? "main" : String(shards.index + 1)],
    [SHARD_PLAN_KEY, JSON.stringify(manifest)],
  ];
}
