/**
 * The configurations `wrangler dev` runs with (docs/architecture.md#the-pages-files): the worker's
 * own — wrangler.toml, or the one the arguments give first (an import's wrangler.shards.toml, a
 * benchmark's) — and, where that one binds the page's files, their worker (wrangler.files.toml)
 * beside it, so that one port serves the API and the page as a deployment does.
 */
import { join } from "node:path";
import { wranglerConfig } from "../import/wrangler.ts";
import { ROOT } from "./project.ts";

const FILES_CONFIG = join(ROOT, "wrangler.files.toml");

/** The paths that `--config`/`-c` name in `args`, in order. */
function givenConfigs(args: readonly string[]): string[] {
  return args.flatMap((arg, i) => {
    if (arg.startsWith("--config=")) return [arg.slice("--config=".length)];
    return arg === "--config" || arg === "-c" ? [args[i + 1] ?? ""] : [];
  });
}

/** Whether the configuration at `path` binds the worker of the page's files. */
function bindsFiles(path: string): boolean {
  const files = wranglerConfig(FILES_CONFIG).name;
  const services = wranglerConfig(path).services;
  return Array.isArray(services) && services.some((s) => (s as { service?: unknown }).service === files);
}

/**
 * `wrangler dev`'s arguments with its configurations completed; without the files' worker where
 * `pageFiles` is false (a profile, the load test's heap: `wrangler dev`'s inspector follows the
 * files' worker when both run).
 */
export function devConfigArgs(args: readonly string[], pageFiles = true): string[] {
  const given = givenConfigs(args);
  const primary = given[0] ?? join(ROOT, "wrangler.toml");
  const own = given.length === 0 ? ["--config", primary] : [];
  const wanted = pageFiles && bindsFiles(primary) && !given.includes(FILES_CONFIG);
  const files = wanted ? ["--config", FILES_CONFIG] : [];
  return [...own, ...args, ...files];
}
