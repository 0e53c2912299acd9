/**
 * A re-import does not leave the served file at twice its data: the old tables' pages are given
 * back after the drop (scripts/import/publish/compact.ts), in short steps while others read.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { dir, fixtureImport, open, snapshot } from "../support/import-fixtures.ts";

const pages = (path: string) =>
  open(path, (db) => ({
    mode: db.pragma("auto_vacuum", { simple: true }) as number,
    count: db.pragma("page_count", { simple: true }) as number,
    free: db.pragma("freelist_count", { simple: true }) as number,
  }));

describe("a re-import", () => {
  it("gives the old data's pages back, in steps while others read, and serves the same rows", async () => {
    const path = join(dir, "compact.sqlite");
    await fixtureImport(path, { venueCount: 3000 });
    const first = pages(path);
    expect(first.mode).toBe(2); // incremental: a new file is put in that mode by its first import
    // Paced as for a running wrangler dev: short transactions with pauses.
    const summary = await fixtureImport(path, { venueCount: 3200, pacing: { transactionMs: 25, pauseMs: 1 } });
    const after = pages(path);
    expect(after.free).toBe(0);
    expect(after.count).toBeLessThan(first.count * 1.2);
    expect(summary.phases.map((p) => p.name)).toContain("giving the old tables' pages back (incremental vacuum)");
    // The file on disk too, once the WAL is checkpointed: not the old data and the new.
    const db = new Database(path);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    expect(statSync(path).size).toBeLessThan(first.count * 4096 * 1.2);

    // The rows are those of an import into a new file.
    const fresh = join(dir, "compact-fresh.sqlite");
    await fixtureImport(fresh, { venueCount: 3200 });
    expect(snapshot(path)).toEqual(snapshot(fresh));
  }, 120_000);
});
