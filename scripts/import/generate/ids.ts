/** The generated venues' ids (venues.ts). */
import { random } from "../../tools/random.ts";

/**
 * Venue ids: 8 hex digits, unique without remembering them — the n-th id is a bijection of n
 * (a Feistel network on 32 bits keyed by the seed), so no two venues share one, and a city's
 * venues can be made in any order of the cities, knowing the number of its first venue.
 */
export class VenueIds {
  private readonly keys: number[];
  constructor(seed: string) {
    const rng = random(`${seed}:ids`);
    this.keys = [0, 1, 2, 3].map(() => Math.floor(rng() * 0x10000));
  }
  /** The id of the venue numbered `i` (from 0). */
  at(i: number): string {
    let left = (i >>> 16) & 0xffff;
    let right = i & 0xffff;
    for (const key of this.keys) {
      const f = (Math.imul((right ^ key) + 0x7f4a, 0x9e3779b1) >>> 13) & 0xffff;
      [left, right] = [right, left ^ f];
    }
    return (((left << 16) | right) >>> 0).toString(16).padStart(8, "0");
  }
}
