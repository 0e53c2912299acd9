/**
 * Stops a script at once, with one line, on a Node older than package.json's `engines` allows:
 * better-sqlite3 13 and wrangler 4 need Node 22.12 or newer, and on an older Node the first
 * crashes with a segmentation fault instead of saying so. Every entry point imports this module
 * first, so that it runs before anything else is loaded.
 */
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  engines: { node: string };
};
const needed = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(pkg.engines.node);
if (needed === null) throw new Error(`package.json engines.node should read ">=X.Y.Z", not ${pkg.engines.node}`);

const found = process.versions.node.split(".").map(Number);
const wanted = needed.slice(1).map(Number);
const diff = [0, 1, 2].map((i) => (found[i] ?? 0) - (wanted[i] ?? 0)).find((d) => d !== 0) ?? 0;
if (diff < 0) {
  console.error(
    `This project needs Node ${wanted.join(".")} or newer (Node 22 or 24 LTS; .nvmrc names 24); this is Node ${process.versions.node}.`,
  );
  process.exit(1);
}
