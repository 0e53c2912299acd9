import "./scripts/node-version.ts";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { fixtureSeedStatements } from "./test/support/seed.ts";

/**
 * The files of a minute or more, the longest first. Without timings of an earlier run (a clean
 * clone: CI) vitest starts the largest files first, and these small ones, most of them waiting on
 * the import and wrangler in processes of their own, started late: `npm test` ended with one core
 * idle, minutes after the other.
 */
const SLOWEST = [
  "import-remote-refresh",
  "import-remote-cost",
  "import-remote",
  "geonames-areas",
  "shard-remote",
  "import-lock",
  "shards",
  "order-brute-force",
  "import",
  "one-name",
  "geo-fuzzy",
].map((name) => `/test/node/${name}.test.ts`);

/**
 * Node's cache of compiled code for every process the tests start: most of a wrangler or import
 * process's start is compiling wrangler's and Miniflare's bundles (1.3 s → 0.7 s a call), and the
 * remote import's tests start hundreds of them.
 */
process.env.NODE_COMPILE_CACHE ??= join(import.meta.dirname, "node_modules", ".cache", "node-compile-cache");

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = SLOWEST.findIndex((end) => f.moduleId.endsWith(end));
      return i === -1 ? SLOWEST.length : i;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: SlowestFirst },
    // Every core: vitest's default leaves one free, which on a 2-core machine runs the files one by one.
    maxWorkers: availableParallelism(),
    projects: [
      {
        // The worker, inside workerd, over a real local D1 seeded from test/fixtures.
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              // The page's files (wrangler.files.toml) are served by wrangler dev and tested in the
              // browser tests; here their worker holds none, so such a path is the contract's 404.
              workers: [
                {
                  name: "venue-city-search-files",
                  modules: true,
                  script: "export default { fetch: () => new Response(null, { status: 404 }) };",
                  compatibilityDate: "2026-11-09",
                },
              ],
              bindings: {
                // Thousands of requests come from one client here; the limiter's own test turns it on.
                RATE_LIMIT: "off",
                FUZZ_RUNS: process.env.FUZZ_RUNS ?? "10000",
                TEST_MIGRATIONS: await readD1Migrations("./migrations"),
                TEST_SEED: await fixtureSeedStatements(),
              },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          // A test that walks every page went past vitest's default of 5 s once on a busy machine.
          // Slowness is the benchmark's to judge, not a test's.
          testTimeout: 30_000,
          setupFiles: ["./test/worker/setup.ts"],
        },
      },
      {
        // The search page in headless Chromium (npm run test:e2e; not part of npm test).
        test: {
          name: "e2e",
          environment: "node",
          include: ["test/e2e/**/*.test.ts"],
          // One server for every file.
          globalSetup: ["test/e2e/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
      {
        // The import scripts and shared pure code, under Node.
        test: {
          name: "node",
          environment: "node",
          include: ["test/node/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
