/**
 * Stands in for js-yaml in the worker's bundle (wrangler.toml [alias]): xmlbuilder2 reads YAML
 * with it, which the worker never asks for, and it was 43 KB of the bundle (12 KiB gzip of the
 * 120 KiB budget).
 */
export function load(): never {
  throw new Error("YAML is not read here");
}
