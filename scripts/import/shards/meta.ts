/**
 * What a database of a shard plan says about itself (src/data-contract/shards.ts): its own data
 * version, which database it is, and, in the main database, the manifest.
 *
 * The main database serves every place and every venue: its version is that of all the sources.
 * A venue database serves its own regions' places and venues: its version is that of the places'
 * sources, its regions and the digest of its venues (venues.ts), so a change of the venues in one
 * region leaves the other venue databases' versions as they were, and their imports skip them as
 * current (docs/deploy.md#past-one-database).
 */
import { createHash } from "node:crypto";
import {
  MAIN_HOLDS_EVERY_VENUE,
  MAIN_VENUES_KEY,
  SHARD_KEY,
  SHARD_PLAN_KEY,
  type MainVenues,
  type ShardManifest,
} from "../../../src/data-contract/shards.ts";
import type { BuildCounts } from "../phases/counts.ts";
import { ImportError } from "../problems.ts";
import type { ImportOptions } from "../options.ts";
import { dataVersion } from "../version.ts";
import { shardDatabases } from "../wrangler.ts";
import { checkRemote } from "./remote-databases.ts";
import type { BuiltPlan, ShardChoice } from "./venues.ts";

const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/** What the main database of a plan holds of the venues. */
const mainVenuesOf = (shards: ShardChoice): MainVenues => shards.mainVenues ?? MAIN_HOLDS_EVERY_VENUE;

/** The main database's data version; `version` that of the sources (a main database without venues another). */
function mainVersion(version: string, shards: ShardChoice | undefined): string {
  if (shards === undefined) return version;
  const held = mainVenuesOf(shards);
  const asked = shards.size === undefined ? String(shards.count) : `size ${shards.size}`;
  return digest(`${version}/${asked}/main${held === MAIN_HOLDS_EVERY_VENUE ? "" : `/${held}`}`);
}

/** Each venue database's data version under a plan the build made; `placesVersion` that of the places' sources. */
function venueVersions(placesVersion: string, plan: BuiltPlan): string[] {
  return plan.digests.map((venues, i) => {
    const regions = JSON.stringify(plan.shards[i]?.regions ?? []);
    return digest(`${placesVersion}/${plan.digests.length}/${i + 1}/${venues}/${regions}`);
  });
}

/** The manifest of a plan the build made (the main database's meta row). */
function builtManifest(counts: BuildCounts, placesVersion: string): ShardManifest {
  const versions = venueVersions(placesVersion, counts.shardPlan);
  const estimates = counts.shardPlan.estimates;
  return counts.shardPlan.shards.map((s, i) => ({
    shard: i + 1,
    regions: s.regions,
    venues: s.venues,
    version: versions[i] ?? "",
    ...(estimates?.[i] === undefined ? {} : { estimated: estimates[i] }),
  }));
}

/** The meta rows of a database of a plan: in the main one the manifest and which venues it holds, in each its number. */
function shardMetaRows(
  shards: ShardChoice | undefined,
  counts: BuildCounts,
  placesVersion: string,
): [string, string][] {
  if (shards === undefined) return [];
  if (shards.index !== null) return [[SHARD_KEY, String(shards.index + 1)]];
  return [
    [SHARD_KEY, "main"],
    [SHARD_PLAN_KEY, JSON.stringify(builtManifest(counts, placesVersion))],
    [MAIN_VENUES_KEY, mainVenuesOf(shards)],
  ];
}

/**
 * One import's part in a plan (scripts/import/run.ts): the version of the database it writes, the
 * choice its build makes, the check of a venue database's venues, its meta rows and the manifest
 * it says it serves. Without a plan: one database, as always.
 */
export class PlanImport {
  private constructor(
    private readonly shards: ShardChoice | undefined,
    private readonly placesVersion: string,
  ) {}

  static async of(shards: ShardChoice | undefined, s: { placeFiles: string[]; placeVersionOptions: object }) {
    const places = shards === undefined ? "" : await dataVersion(s.placeFiles, { ...s.placeVersionOptions });
    return new PlanImport(shards, places);
  }

  /** The data version of the database it writes: one database's, the main one's, or the venue database's its manifest names. */
  version(sourcesVersion: string): string {
    const shards = this.shards;
    if (shards?.index === null || shards?.index === undefined) return mainVersion(sourcesVersion, shards);
    if (shards.version === undefined) throw new Error("a venue database's import needs the version its manifest names");
    return shards.version;
  }

  /** The build's choice; the main database keeps the regions of the manifest it serves (`served`: plan.ts). */
  choice(served: ShardManifest | null): ShardChoice | undefined {
    const shards = this.shards;
    if (shards?.index !== null || served === null) return shards;
    return { ...shards, kept: served.map((s) => s.regions) };
  }

  /** A venue database built from other venues than its manifest names: the sources changed meanwhile. */
  check(version: string, counts: BuildCounts): void {
    const index = this.shards?.index;
    if (index === null || index === undefined) return;
    if (venueVersions(this.placesVersion, counts.shardPlan)[index] !== version)
      throw new ImportError(
        `venue database ${index + 1}: the sources changed since the main database was imported; run the same command again`,
      );
  }

  metaRows(counts: BuildCounts): [string, string][] {
    return shardMetaRows(this.shards, counts, this.placesVersion);
  }

  manifest(counts: BuildCounts): ShardManifest {
    return builtManifest(counts, this.placesVersion);
  }

  /**
   * The summary's part: the manifest the main database of a plan serves, and the estimates a size
   * chose it by (its own, whether built now, resumed from files or found current). For a remote
   * target, the venue databases a size chose are checked declared (remote-databases.ts) here,
   * before anything is sent, whether built now or resumed from files.
   */
  served(
    manifest: ShardManifest | null,
    options: ImportOptions,
  ): { shardManifest?: ShardManifest; shardEstimates?: number[] } {
    if (this.shards?.index !== null || manifest === null) return {};
    if (this.shards.size !== undefined && options.target.kind === "remote")
      checkRemote(options, shardDatabases(manifest.length));
    const estimates = manifest.map((m) => m.estimated);
    if (this.shards.size === undefined || !estimates.every((e): e is number => e !== undefined))
      return { shardManifest: manifest };
    return { shardManifest: manifest, shardEstimates: estimates };
  }
}
