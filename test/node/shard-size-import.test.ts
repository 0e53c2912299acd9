/**
 * `npm run db:import -- --shard-size SIZE` (docs/deploy.md#a-size-per-database) on the fixture:
 * the main database's build chooses how many venue databases, the manifest names that many, every
 * venue lands in one of them, and the import says each one's estimate beside its size after —
 * which the files on disk confirm. The same size again finds every database current, and says
 * the same choice and estimates.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FAST } from "../../scripts/import/publish/steps.ts";
import { runShardedImport } from "../../scripts/import/shards/import.ts";
import { parseImportArgs } from "../../scripts/import/cli.ts";
import { shardFile, SHARD_PLAN_KEY, type ShardManifest } from "../../src/data-contract/shards.ts";
import { FIXTURES } from "../support/import-fixtures.ts";

const DATA = { ...FIXTURES, venueCount: 2000, prefixCountMin: 20, pacing: FAST };

const read = <T>(path: string, query: (db: Database.Database) => T): T => {
  const db = new Database(path, { readonly: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
};

const manifestOf = (path: string): ShardManifest =>
  JSON.parse(
    read(path, (db) => db.prepare("SELECT value FROM meta WHERE key = ?").pluck().get(SHARD_PLAN_KEY) as string),
  ) as ShardManifest;

const venuesIn = (path: string): number =>
  read(path, (db) => db.prepare("SELECT count(*) FROM venues").pluck().get() as number);

describe("a size per venue database", () => {
  it("is asked for instead of a number, not beside one", () => {
    expect(parseImportArgs(["--shard-size", "4GB"]).shards).toEqual({ size: 4e9 });
    expect(parseImportArgs(["--shard-size", "4GB", "--main-venues", "none"]).options.mainVenues).toBe("none");
    expect(() => parseImportArgs(["--shards", "3", "--shard-size", "4GB"])).toThrow(
      "--shards and --shard-size exclude each other",
    );
    expect(() => parseImportArgs(["--shard-size", "20GB"])).toThrow("--shard-size wants a size from 1MB to 10GB");
    expect(() => parseImportArgs(["--remote", "--plan", "free", "--shard-size", "1GB"])).toThrow("500MB");
  });

  it("chooses the fewest venue databases whose estimates fit, and says each one's size after", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vcs-shard-size-"));
    const roomy = await runShardedImport(
      { ...DATA, target: { kind: "file", path: join(dir, "one.sqlite") } },
      { size: 10e9 },
      true,
    );
    expect(roomy.shards).toHaveLength(1);
    const whole = roomy.sized?.estimates[0] ?? 0;
    expect(whole).toBeGreaterThan(0);

    const path = join(dir, "main.sqlite");
    const size = Math.round(whole * 0.6);
    const sized = await runShardedImport({ ...DATA, target: { kind: "file", path } }, { size }, true);
    const count = sized.shards.length;
    expect(count).toBeGreaterThanOrEqual(2);
    expect(manifestOf(path)).toHaveLength(count);
    expect(sized.sized?.estimates).toHaveLength(count);
    for (const estimate of sized.sized?.estimates ?? []) expect(estimate).toBeLessThanOrEqual(0.95 * size);
    const files = Array.from({ length: count }, (_, i) => shardFile(path, i + 1));
    // What it says after is what the files hold; the estimate within a third of it at this scale.
    expect(sized.sized?.after).toEqual(files.map((f) => statSync(f).size));
    for (const [i, after] of (sized.sized?.after ?? []).entries())
      expect(Math.abs((after ?? 0) / (sized.sized?.estimates[i] ?? 1) - 1), files[i]).toBeLessThan(0.34);
    expect(files.reduce((n, f) => n + venuesIn(f), 0)).toBe(2000);

    const again = await runShardedImport({ ...DATA, target: { kind: "file", path } }, { size }, true);
    expect(again.main.skippedAsCurrent).toBe(true);
    expect(again.shards.map((s) => s.summary.skippedAsCurrent)).toEqual(files.map(() => true));
    // It says the choice again: the estimates the manifest keeps, the sizes the files hold.
    expect(again.sized).toEqual({ ...sized.sized, after: files.map((f) => statSync(f).size) });

    // Venue databases lost, the main database current: each plans itself, without the main
    // database's reading (dropped once the first import ended), and lands the version its manifest names.
    for (const f of files) rmSync(f);
    const rebuilt = await runShardedImport({ ...DATA, target: { kind: "file", path } }, { size }, true);
    expect(rebuilt.main.skippedAsCurrent).toBe(true);
    expect(rebuilt.shards.map((s) => s.summary.dataVersion)).toEqual(manifestOf(path).map((m) => m.version));
    expect(files.reduce((n, f) => n + venuesIn(f), 0)).toBe(2000);
  });
});
