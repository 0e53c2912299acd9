/**
 * Loads a Dataset into the Cloudflare D1 database with `wrangler d1 execute --remote --file`.
 * Rows go first into stage_* tables, in files of bounded size and statements under D1's
 * 100 KB limit; only the last file touches the served tables, replacing their rows from the
 * stage tables and rebuilding the search indexes. An upload that fails part-way leaves the
 * served data as it was (the next import drops the stage tables and starts over).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Dataset } from "./dataset.ts";
import type { Progress } from "./progress.ts";
import { insertStatements, literal } from "./sql-text.ts";
import { BUILD_SEARCH_INDEXES, CLEAR_SEARCH_INDEXES, metaRows, tableData } from "./tables.ts";
import { wrangler } from "./wrangler.ts";

const MAX_FILE_BYTES = 20 * 1024 * 1024;

/** The SQL files of a remote import, in order: stage tables, row chunks, swap. */
export function remoteImportFiles(dataset: Dataset, dataVersion: string, sources: string): string[] {
  const tables = tableData(dataset);
  const stage = tables.flatMap((t) => [
    `DROP TABLE IF EXISTS stage_${t.name};`,
    `CREATE TABLE stage_${t.name} AS SELECT ${t.columns.join(", ")} FROM ${t.name} WHERE 0;`,
  ]);
  const files = [stage.join("\n")];
  let chunk: string[] = [];
  let bytes = 0;
  for (const t of tables) {
    for (const statement of insertStatements(t, `stage_${t.name}`)) {
      if (bytes + statement.length > MAX_FILE_BYTES && chunk.length > 0) {
        files.push(chunk.join("\n"));
        chunk = [];
        bytes = 0;
      }
      chunk.push(statement);
      bytes += statement.length + 1;
    }
  }
  if (chunk.length > 0) files.push(chunk.join("\n"));

  const swap = [
    ...[...tables].reverse().map((t) => `DELETE FROM ${t.name};`),
    "DELETE FROM meta;",
    ...CLEAR_SEARCH_INDEXES.map((s) => `${s};`),
    ...tables.map(
      (t) => `INSERT INTO ${t.name} (${t.columns.join(", ")}) SELECT ${t.columns.join(", ")} FROM stage_${t.name};`,
    ),
    // D1 documents `PRAGMA optimize` (which runs ANALYZE where it helps) for gathering planner
    // statistics; a bare ANALYZE is what the local writer runs.
    ...BUILD_SEARCH_INDEXES.map((s) => (s === "ANALYZE" ? "PRAGMA optimize;" : `${s};`)),
    ...metaRows(dataset, dataVersion, sources).map(
      ([k, v]) => `INSERT INTO meta (key, value) VALUES (${literal(k)}, ${literal(v)});`,
    ),
    ...tables.map((t) => `DROP TABLE stage_${t.name};`),
  ];
  files.push(swap.join("\n"));
  return files;
}

export async function writeRemote(
  dataset: Dataset,
  dataVersion: string,
  sources: string,
  databaseName: string,
  progress: Progress,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "venue-city-search-import-"));
  try {
    progress.phase("applying migrations to the remote database");
    await wrangler(["d1", "migrations", "apply", databaseName, "--remote"], { quiet: true });
    const files = remoteImportFiles(dataset, dataVersion, sources);
    for (const [i, sql] of files.entries()) {
      const path = join(dir, `${String(i).padStart(4, "0")}.sql`);
      await writeFile(path, sql);
      const what =
        i === 0 ? "creating stage tables" : i === files.length - 1 ? "swapping in the new rows" : "uploading rows";
      progress.phase(`remote: ${what} (file ${i + 1} of ${files.length})`);
      await wrangler(["d1", "execute", databaseName, "--remote", "--yes", `--file=${path}`], { quiet: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
