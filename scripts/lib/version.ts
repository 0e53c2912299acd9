/**
 * The data version: a content hash of everything an import's rows are made from — the source
 * files' bytes, the options (venue count, seed), and the code that turns them into rows (the
 * import modules, the normalization, the schema). Same inputs, same version; so a cache keyed
 * by it stays valid across re-imports, and `npm start` can tell without importing whether the
 * local database already holds the current data.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Files whose content decides what rows an import writes. */
async function codeFiles(): Promise<string[]> {
  const dirs = ["scripts/lib", "migrations"];
  const files = ["src/normalize.ts"];
  for (const dir of dirs) {
    for (const name of (await readdir(join(ROOT, dir))).sort()) files.push(`${dir}/${name}`);
  }
  return files;
}

export async function dataVersion(sourceFiles: readonly string[], options: Record<string, unknown>): Promise<string> {
  const hash = createHash("sha256");
  for (const file of await codeFiles()) {
    hash.update(`code ${file}\n`);
    hash.update(await readFile(join(ROOT, file)));
  }
  hash.update(`options ${JSON.stringify(options, Object.keys(options).sort())}\n`);
  for (const file of sourceFiles) {
    hash.update(`source\n`);
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  }
  return hash.digest("hex").slice(0, 16);
}
