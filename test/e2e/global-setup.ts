/**
 * The browser tests' servers, started once for every file of test/e2e: `wrangler dev` on the
 * default data, in the tests' local D1 state of it (scripts/tools/default-data-state.ts: the one of
 * `npm start` is left alone; the first run imports into it), with the map's tiles off (MAP_TILES, see
 * docs/deploy.md#map-tiles): nothing goes to the network. A second one on the same data has tiles
 * from a server on this machine that nothing runs (TILE_PORT): a test serves them, or leaves
 * them unavailable (test/e2e/map-tiles.test.ts); it keeps no cache, so that only the first writes.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startDevServer } from "../../scripts/tools/dev-server.ts";
import { DEFAULT_DATA_STATE as STATE, importDefaultDataState } from "../../scripts/tools/default-data-state.ts";

const PORT = 8789;
const TILES_PORT = 8790;
/** Where the second server's tiles are: nothing listens there unless a test's browser answers. */
const TILE_PORT = 8798;

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
  await importDefaultDataState();
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
