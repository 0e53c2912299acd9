/**
 * wrangler.toml's `run_worker_first` patterns and the worker's paths (src/http/paths.ts, which
 * src/routes.ts builds every route on) name the same paths in two files: every path of the worker
 * must match a pattern (or it pays the assets' lookup on every request), and no static asset may
 * (the worker would answer for it, and it would never be served).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "smol-toml";
import { beforeAll, describe, expect, it } from "vitest";
import { API_BASES, PAGE_PATH } from "../../src/http/paths.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const config = parse(readFileSync(join(ROOT, "wrangler.toml"), "utf8")) as {
  assets?: { directory?: string; run_worker_first?: string[] };
};
const patterns = (config.assets?.run_worker_first ?? []).map(
  (glob) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`),
);
const firstToWorker = (path: string) => patterns.some((p) => p.test(path));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe("run_worker_first", () => {
  // The assets are built (as wrangler's [build] does), so a fresh clone has them too.
  beforeAll(async () => {
    await import("../../scripts/page/build.ts");
  });

  it("covers every path of the worker", () => {
    const paths = [PAGE_PATH, ...API_BASES.flatMap((base) => [`${base}/search/venues`, `${base}/venue/1a47f311`])];
    expect(paths.filter((path) => !firstToWorker(path))).toEqual([]);
  });

  it("covers no static asset", () => {
    const dir = join(ROOT, config.assets?.directory ?? "public");
    const shadowed = files(dir)
      .map((f) => `/${relative(dir, f).split("\\").join("/")}`)
      .filter(firstToWorker);
    expect(shadowed).toEqual([]);
  });
});
