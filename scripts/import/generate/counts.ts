/** How many of the generated venues each city gets (venues.ts): split in proportion to weights, exactly. */

/**
 * Splits `total` over cities (given in geonameid order) in proportion to their weights
 * (venueWeight; largest remainder, ties to the earlier city), so the counts add up exactly.
 */
export function venueCounts(weights: ArrayLike<number>, total: number): Uint32Array {
  return venueCountsOver(Float64Array.from(weights), total);
}

/**
 * venueCounts with the weights given in a typed array that it overwrites with what each count
 * left over: with the counts, 12 bytes a city and no sort (the remainders that get one more venue
 * are found by bisecting on their value), so 5 million cities take 60 MB.
 */
export function venueCountsOver(remainders: Float64Array, total: number): Uint32Array {
  const n = remainders.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += remainders[i] ?? 0;
  const counts = new Uint32Array(n);
  if (sum === 0) return counts;
  let given = 0;
  for (let i = 0; i < n; i++) {
    const exact = (total * (remainders[i] ?? 0)) / sum;
    counts[i] = Math.floor(exact);
    remainders[i] = exact - Math.floor(exact);
    given += counts[i] ?? 0;
  }
  const extra = Math.min(total - given, n);
  if (extra > 0) giveExtra(counts, remainders, extra);
  return counts;
}

/** One more to each of the `extra` largest remainders (ties to the earlier city). */
function giveExtra(counts: Uint32Array, remainders: Float64Array, extra: number): void {
  const n = remainders.length;
  const { lo, hi } = remainderThreshold(remainders, extra);
  let left = extra;
  for (let i = 0; i < n; i++) {
    if ((remainders[i] ?? 0) > hi) {
      counts[i] = (counts[i] ?? 0) + 1;
      left--;
    }
  }
  // The rest to the remainders just at the threshold, the earlier cities first.
  for (let i = 0; i < n && left > 0; i++) {
    const r = remainders[i] ?? 0;
    if (r > lo && r <= hi) {
      counts[i] = (counts[i] ?? 0) + 1;
      left--;
    }
  }
}

/** Bisects for lo < hi: more than `extra` remainders lie above lo, at most `extra` above hi. */
function remainderThreshold(remainders: Float64Array, extra: number): { lo: number; hi: number } {
  const above = (t: number) => {
    let c = 0;
    for (const r of remainders) if (r > t) c++;
    return c;
  };
  let lo = -1;
  let hi = 1;
  for (let step = 0; step < 64 && hi - lo > 0; step++) {
    const mid = (lo + hi) / 2;
    if (mid <= lo || mid >= hi) break;
    if (above(mid) > extra) lo = mid;
    else hi = mid;
  }
  return { lo, hi };
}
