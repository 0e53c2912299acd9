/**
 * The browser tests' servers, started once for every file of test/e2e: `wrangler dev` on the
 * default data, in a local D1 state of its own (.wrangler/e2e-state, so the run leaves the one of
 * `npm start` alone; the first run imports into it), with the map's tiles off (MAP_TILES, see
 * docs/deploy.md#map-tiles): nothing goes to the network. A second one on the same data has tiles
 * from a server on this machine that nothing runs (TILE_PORT): a test serves them, or leaves
 * them unavailable (test/e2e/map-tiles.test.ts); it keeps no cache, so that only the first writes.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startDevServer } from "../../scripts/tools/dev-server.ts";
import { Progress } from "../../scripts/import/progress.ts";
import { FAST, runImport } from "../../scripts/import/run.ts";
import { ROOT } from "../../scripts/tools/project.ts";

const PORT = 8789;
const TILES_PORT = 8790;
/** Where the second server's tiles are: nothing listens there unless a test's browser answers. */
const TILE_PORT = 8798;
const STATE = join(ROOT, ".wrangler", "e2e-state");

declare module "vitest" {
  export interface ProvidedContext {
    /** The server's origin, http://127.0.0.1:8789. */
    base: string;
    /** The origin of the server whose page has tiles. */
    tilesBase: string;
    /** The tiles' origin, http://127.0.0.1:8798 (their URLs: /{z}/{x}/{y}.png). */
    tiles: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  // Nothing serves this state yet: no need to pace the writes for readers (paced, the import
  // takes minutes on a busy machine).
  await runImport({ target: { kind: "local", persistTo: STATE }, pacing: FAST }, new Progress(process.stderr, true));
  // Every run starts with an empty cache: what a page shows as a first answer (`X-Cache: MISS`,
  // docs.test.ts) is one, and no answer of an earlier run's code is served from the cache.
  rmSync(join(STATE, "v3", "cache"), { recursive: true, force: true });
  const server = await startDevServer({ port: PORT, args: ["--persist-to", STATE, "--var", "MAP_TILES:off"] });
  const tiles = `http://127.0.0.1:${TILE_PORT}`;
  // One after the other: each runs the page's build into public/ as it starts.
  const withTiles = await startDevServer({
    port: TILES_PORT,
    args: ["--persist-to", STATE, "--var", `MAP_TILES:${tiles}/{z}/{x}/{y}.png`, "--var", "EDGE_CACHE:off"],
  }).catch((error: unknown) => {
    server.stop();
    throw error;
  });
  project.provide("base", server.base);
  project.provide("tilesBase", withTiles.base);
  project.provide("tiles", tiles);
  return () => {
    withTiles.stop();
    server.stop();
  };
}
