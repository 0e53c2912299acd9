/**
 * The data version: a content hash of everything an import's rows are made from — the source
 * files' bytes, the options (venue count, seed), the schema (migrations/), and the code that
 * turns sources into rows. Same inputs, same version; so a cache keyed by it stays valid across
 * re-imports, and `npm start` can tell without importing whether the local database is current.
 *
 * "The code" is found, not listed: the project files that the build module imports, directly or
 * not (esbuild's dependency graph of build.ts). An edit to the normalizer, the token format or
 * the language list changes the version; an edit to the benchmark does not.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { build } from "esbuild";
import { ROOT } from "../tools/project.ts";
import { migrationFiles } from "./migrations.ts";

/** Project files (relative to the root) that the build module depends on, and the migrations. */
export async function dataCodeFiles(): Promise<string[]> {
  const result = await build({
    entryPoints: [join(ROOT, "scripts", "import", "phases", "build.ts")],
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    packages: "external",
    logLevel: "silent",
  });
  const code = Object.keys(result.metafile.inputs).map((f) => relative(ROOT, join(ROOT, f)));
  const migrations = migrationFiles().map((f) => `migrations/${f}`);
  return [...code, ...migrations].sort();
}

export async function dataVersion(sourceFiles: readonly string[], options: Record<string, unknown>): Promise<string> {
  const hash = createHash("sha256");
  for (const file of await dataCodeFiles()) {
    hash.update(`code ${file}\n`);
    hash.update(await readFile(join(ROOT, file)));
  }
  hash.update(`options ${JSON.stringify(options, Object.keys(options).sort())}\n`);
  for (const file of sourceFiles) {
    hash.update("source\n");
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  }
  return hash.digest("hex").slice(0, 16);
}
