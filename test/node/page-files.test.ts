/**
 * The page's files and the worker's paths (src/http/paths.ts, files.ts): the worker answers the page and
 * the API itself and asks the files' worker (wrangler.files.toml) for every other path, so no file
 * of public/ may lie at a path the worker answers (it would never be served); and wrangler.toml's
 * FILES binding names that worker.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parse } from "smol-toml";
import { beforeAll, describe, expect, it } from "vitest";
import { answersItself, API_BASES, PAGE_PATH } from "../../src/http/paths.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const toml = (name: string) => parse(readFileSync(join(ROOT, name), "utf8"));
const files = toml("wrangler.files.toml") as { name: string; assets?: { directory?: string } };
const worker = toml("wrangler.toml") as { services?: { binding: string; service: string }[]; assets?: unknown };

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}

describe("the page's files", () => {
  // The files are built (as wrangler.files.toml's [build] does), so a fresh clone has them too.
  beforeAll(async () => {
    await import("../../scripts/page/build.ts");
  });

  it("are the files worker's, bound as FILES, and the worker has no assets of its own", () => {
    expect(worker.services).toContainEqual({ binding: "FILES", service: files.name });
    expect(worker.assets).toBeUndefined();
  });

  it("the worker answers the page and every path of the API itself", () => {
    const paths = [PAGE_PATH, ...API_BASES.flatMap((base) => [`${base}/search/venues`, `${base}/venue/1a47f311`])];
    expect(paths.filter((path) => !answersItself(path))).toEqual([]);
    expect(["/app.js", "/favicon.ico", "/1.0.js", "/rest"].filter(answersItself)).toEqual([]);
  });

  it("none lies at a path the worker answers", () => {
    const dir = join(ROOT, files.assets?.directory ?? "public");
    const shadowed = filesUnder(dir)
      .map((f) => `/${relative(dir, f).split("\\").join("/")}`)
      .filter(answersItself);
    expect(shadowed).toEqual([]);
  });
});
