/** The remote path: its files applied to SQLite, resumed after a failure, the same rows as the local path. */

import { DEFAULT_SELECTION } from "../../scripts/import/sources/venue-selection.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { build } from "../../scripts/import/phases/build.ts";
import { createBuildFile } from "../../scripts/import/phases/build-file.ts";
import { ImportError, Problems } from "../../scripts/import/problems.ts";
import { MAX_STATEMENT_BYTES, remoteFiles, type RemoteDatabase } from "../../scripts/import/publish/remote.ts";
import { runImport } from "../../scripts/import/run.ts";
import { ensureSchema } from "../../scripts/import/target.ts";
import { fixture } from "../support/seed.ts";
import { dir, FIXTURES, open, quiet, snapshot } from "../support/import-fixtures.ts";

/** A remote database that is a local SQLite file: files applied whole or not at all. */
function sqliteRemote(path: string, failAt: number | null = null): RemoteDatabase & { appliedFiles: string[] } {
  let applied = 0;
  const appliedFiles: string[] = [];
  return {
    appliedFiles,
    async applied(version) {
      const db = new Database(path, { readonly: true });
      try {
        return new Set(
          db.prepare("SELECT file FROM import_progress WHERE version = ?").pluck().all(version) as number[],
        );
      } catch {
        return new Set();
      } finally {
        db.close();
      }
    },
    async apply(file) {
      if (applied++ === failAt) throw new ImportError(`upload of ${file} failed`);
      const db = new Database(path);
      try {
        db.exec("BEGIN");
        db.exec(readFileSync(file, "utf8"));
        db.exec("COMMIT");
        appliedFiles.push(file);
      } finally {
        if (db.inTransaction) db.exec("ROLLBACK");
        db.close();
      }
    },
  };
}

describe("remote import", () => {
  it("stays within D1's limits, resumes after a failed file, swaps at the end, and loads the same rows as the local path", async () => {
    const remote = join(dir, "remote.sqlite");
    ensureSchema(remote);
    const db = new Database(remote);
    // Something served before the upload, which must survive until the swap file runs.
    db.exec("INSERT INTO meta (key, value) VALUES ('data_version', 'old')");
    db.close();

    const failing = sqliteRemote(remote, 5);
    const options = { ...FIXTURES, venues: [fixture("venues.csv")] };
    await expect(runImport({ ...options, target: { kind: "remote", database: failing } }, quiet)).rejects.toThrow(
      /upload of .* failed/,
    );
    expect(failing.appliedFiles).toHaveLength(5);
    expect(snapshot(remote).version).toBe("old");

    const resumed = sqliteRemote(remote);
    const summary = await runImport({ ...options, target: { kind: "remote", database: resumed } }, quiet);
    expect(summary.remote?.skipped).toBe(5);
    expect(resumed.appliedFiles).toHaveLength((summary.remote?.files ?? 0) - 5);
    for (const file of resumed.appliedFiles) expect(file).toMatch(/\.sql$/);
    expect(
      open(remote, (r) =>
        r
          .prepare(
            "SELECT name FROM sqlite_master WHERE name GLOB 'stage_*' OR name GLOB 'old_*' OR name = 'import_progress'",
          )
          .all(),
      ),
    ).toEqual([]);

    const local = join(dir, "local.sqlite");
    const localSummary = await runImport({ ...options, target: { kind: "file", path: local } }, quiet);
    expect(snapshot(remote)).toEqual(snapshot(local));
    expect(snapshot(remote).version).toBe(localSummary.dataVersion);
  }, 120_000);

  it("keeps every statement under D1's limit", async () => {
    const db = createBuildFile(join(dir, "limits.sqlite"));
    await build(
      db,
      { ...FIXTURES, venueFiles: [], venueCount: 3000, seed: "x", selection: DEFAULT_SELECTION },
      new Problems(false),
      quiet,
    );
    let statements = 0;
    for (const file of remoteFiles(db, [["data_version", "x"]], "x", "t")) {
      for (const s of file.statements) {
        expect(Buffer.byteLength(s)).toBeLessThan(MAX_STATEMENT_BYTES + 1000);
        statements++;
      }
    }
    expect(statements).toBeGreaterThan(20);
    db.close();
  }, 60_000);
});
