/**
 * `npm run db:import -- --shards N --database FILE` (docs/deploy.md#past-one-database): the main
 * database in FILE, which keeps every city and, until the worker asks the venue databases, every
 * venue too; then each venue database beside it (src/data-contract/shards.ts shardFile), each an
 * import of the same sources that keeps the venues of its regions. Every one of them plans alike
 * from the same placed venues (venues.ts) and writes the manifest into its meta rows. Each runs in
 * a process of its own (child.ts), one after the other.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { shardFile } from "../../../src/data-contract/shards.ts";
import { ImportError } from "../problems.ts";
import type { ImportOptions, ImportSummary } from "../run.ts";

export interface ShardedSummary {
  main: ImportSummary;
  /** Per venue database, from 1: its file and its import. */
  shards: { file: string; summary: ImportSummary }[];
}

const CHILD = fileURLToPath(new URL("child.ts", import.meta.url));

/** One import in a process of its own, its progress passed through; its summary, or its failure's line. */
function importApart(options: ImportOptions, quiet: boolean): Promise<ImportSummary> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  const child = spawn(process.execPath, ["--import", tsx, CHILD, JSON.stringify({ options, quiet })], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
    process.stderr.write(chunk);
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(JSON.parse(out) as ImportSummary);
      else reject(new ImportError(err.trim().split("\n").at(-1) ?? `the import stopped (exit code ${code})`));
    });
  });
}

export async function runShardedImport(options: ImportOptions, count: number, quiet: boolean): Promise<ShardedSummary> {
  const { target } = options;
  if (target.kind !== "file")
    throw new ImportError("--shards goes with --database FILE for now (docs/deploy.md#past-one-database)");
  const main = await importApart({ ...options, shards: { count, index: null } }, quiet);
  const shards: ShardedSummary["shards"] = [];
  for (let index = 0; index < count; index++) {
    const file = shardFile(target.path, index + 1);
    const summary = await importApart(
      { ...options, target: { kind: "file", path: file }, shards: { count, index } },
      quiet,
    );
    shards.push({ file, summary });
  }
  return { main, shards };
}
