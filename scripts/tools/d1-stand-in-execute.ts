/**
 * `wrangler d1 execute … --json` for the local D1 that stands in for the remote database
 * (scripts/tools/wrangler-d1-stand-in.sh runs this for it): what wrangler's own local execution
 * does — its SQL splitter, then the statements as one batch on Miniflare's D1, applied whole or not
 * at all — but answered as the remote database answers, with D1's meta: the rows read and written
 * and the database's size after. Wrangler's local answer keeps only the duration of that meta, and
 * the import reads what a file cost from it (docs/import.md#remote). The splitting and the batch
 * run in a process that keeps them loaded for the folder (scripts/tools/d1-stand-in-server.ts),
 * started by the first call.
 *
 * Usage (as wrangler's): d1 execute NAME --local --persist-to DIR --json (--file=PATH | --command SQL); NAME
 * one of the databases of the wrangler configuration the import reads (its id keys the local D1).
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { databaseNamed } from "../import/wrangler.ts";
import { sendToStandIn, type D1Result } from "./d1-stand-in-call.ts";

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  strict: false,
  options: { file: { type: "string" }, command: { type: "string" }, "persist-to": { type: "string" } },
});
const dir = String(values["persist-to"] ?? ".wrangler/state");

async function execute(): Promise<D1Result[]> {
  const sql = typeof values.file === "string" ? readFileSync(values.file, "utf8") : String(values.command ?? "");
  return await sendToStandIn(dir, { databaseId: databaseNamed(String(positionals[2] ?? "")).id, sql });
}

/** The remote answer's shape: a file's totals (as the D1 import API gives them), or each statement's result. */
function answer(results: D1Result[]): unknown[] {
  if (typeof values.file !== "string") return results;
  const meta = {
    rows_read: results.reduce((n, r) => n + (r.meta.rows_read ?? 0), 0),
    rows_written: results.reduce((n, r) => n + (r.meta.rows_written ?? 0), 0),
    size_after: results.at(-1)?.meta.size_after ?? 0,
    duration: results.reduce((n, r) => n + (r.meta.duration ?? 0), 0),
  };
  const totals = {
    "Total queries executed": results.length,
    "Rows read": meta.rows_read,
    "Rows written": meta.rows_written,
    "Database size (MB)": (meta.size_after / 1e6).toFixed(2),
  };
  return [{ results: [totals], success: true, finalBookmark: null, meta }];
}

execute().then(
  (results) => console.log(JSON.stringify(answer(results), null, 2)),
  (error: unknown) => {
    // As wrangler says a failed query with --json: D1's own message, exit 1.
    const text = error instanceof Error ? error.message : String(error);
    console.log(JSON.stringify({ error: { text } }, null, 2));
    process.exit(1);
  },
);
