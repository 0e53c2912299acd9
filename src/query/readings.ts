/**
 * The ways of reading a place at the end of a name (docs/api.md#a-place-in-the-text): the last one
 * to four words, cut into one to three parts, read right to left as a country, a region and (for
 * venues) a city, in that order from the end, each at most once; the words before them are the
 * name. `Springfield IL USA`: the name `springfield`, the region `il`, the country `usa`. Commas
 * need not be typed: normalization has removed them, and the readings try every cut. Pure.
 */
import type { Resource } from "../params/paging.ts";

/** One reading: the name's words, and the normalized text of each part of the place it has. */
export interface TextReading {
  nameWords: string[];
  city?: string;
  region?: string;
  country?: string;
  /** Edits of a place written with a typo (place-typos.ts); none as typed. */
  edits?: number;
}

type Role = "city" | "region" | "country";

/** The roles of a place's parts, first to last, as they may follow each other. */
const ROLE_ORDERS: Record<Resource, readonly (readonly Role[])[]> = {
  venues: [
    ["country"],
    ["region"],
    ["city"],
    ["region", "country"],
    ["city", "country"],
    ["city", "region"],
    ["city", "region", "country"],
  ],
  cities: [["country"], ["region"], ["region", "country"]],
};

/** The place's words at most, and a part's. */
const PLACE_WORDS = 4;
const PART_WORDS = 3;

/** Every way of cutting `words` into consecutive parts of 1 to PART_WORDS words. */
function cuts(words: readonly string[]): string[][][] {
  if (words.length === 0) return [[]];
  const out: string[][][] = [];
  for (let n = 1; n <= Math.min(PART_WORDS, words.length); n++) {
    for (const rest of cuts(words.slice(n))) out.push([words.slice(0, n), ...rest]);
  }
  return out;
}

/** The readings of a name's words with a place at the end, shortest place first; none for one word. */
export function textReadings(words: readonly string[], resource: Resource): TextReading[] {
  const readings: TextReading[] = [];
  for (let k = 1; k <= Math.min(PLACE_WORDS, words.length - 1); k++) {
    const nameWords = words.slice(0, words.length - k);
    for (const parts of cuts(words.slice(words.length - k))) {
      for (const roles of ROLE_ORDERS[resource]) {
        if (roles.length !== parts.length) continue;
        const reading: TextReading = { nameWords };
        roles.forEach((role, i) => (reading[role] = (parts[i] ?? []).join(" ")));
        readings.push(reading);
      }
    }
  }
  return readings;
}
