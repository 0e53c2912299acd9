import type { D1Migration } from "@cloudflare/vitest-plugin";

declare global {
  namespace Cloudflare {
    interface Env {
      DB: D1Database;
      TEST_MIGRATIONS: D1Migration[];
      TEST_SEED: string[];
      FUZZ_RUNS: string;
      RATE_LIMIT: string;
    }
    interface GlobalProps {
      mainModule: typeof import("../src/index.ts");
    }
  }
}
