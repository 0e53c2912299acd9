/**
 * Requests whose area spans several venue databases and holds more than one database reads whole
 * (test/node/shards.test.ts, over a main database without venues).
 */
import type { ShardManifest } from "../../src/data-contract/shards.ts";

/**
 * Searches without a name in areas over several venue databases whose covers hold more candidates
 * than one database reads (src/query/merged-window.ts): the world's box alone, with a kind and
 * with the country of `split` (a country held by several venue databases, which reads its
 * filters), the Americas' box, circles of thousands of km; at pages up to the window's last.
 */
export function windowedPaths(split: string, kind: string): string[] {
  const areas = [
    "bbox=-180,-90,180,90",
    `bbox=-180,-90,180,90&kind=${kind}`,
    `bbox=-180,-90,180,90&country=${split}`,
    "bbox=-170,-60,-30,75",
    "lat=48.85&long=2.35&radius=5000",
    `lat=40&long=-100&radius=9000&kind=${kind}`,
    `lat=40&long=-100&radius=9000&country=${split}`,
  ];
  return areas.flatMap((area) => [1, 2, 7, 20, 33].map((p) => `/1.0/search/venues?${area}&p=${p}`));
}

/** A country whose regions several venue databases hold, from the manifest. */
export function splitCountry(manifest: ShardManifest): string | undefined {
  const holders = new Map<string, Set<number>>();
  for (const s of manifest)
    for (const r of s.regions) holders.set(r.country, (holders.get(r.country) ?? new Set()).add(s.shard));
  return [...holders].find(([, shards]) => shards.size > 1)?.[0];
}
