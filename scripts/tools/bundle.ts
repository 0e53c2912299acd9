/**
 * The worker bundle as `wrangler deploy` would upload it (a dry run, no account needed), and its
 * size against the budget. Used by CI (`npm run bundle`) and the benchmark.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { wrangler } from "../import/wrangler.ts";

/** The gzip size the deployed worker may take. */
export const BUDGET_GZIP_KIB = 120;

export async function bundleSize(): Promise<{ kib: number; gzipKib: number }> {
  const outdir = mkdtempSync(join(tmpdir(), "vcs-bundle-"));
  try {
    await wrangler(["deploy", "--dry-run", "--outdir", outdir]);
    const code = readFileSync(join(outdir, "index.js"));
    return { kib: code.length / 1024, gzipKib: gzipSync(code, { level: 9 }).length / 1024 };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
