/**
 * A typo in the place of a name (docs/api.md#a-place-in-the-text): the readings of the last words
 * with a region's or a country's words corrected as words of place names (the typo vocabulary's
 * candidates with `places` > 0), each with the edits that took. A venue's city is not corrected: a
 * venue's own words are as near as any town's name. Pure.
 */
import { allowedEdits } from "../data-contract/typo-keys.ts";
import type { SearchParams } from "../params/search-params.ts";
import { asked, type AskedReading } from "./places.ts";
import { textReadings, type TextReading } from "./readings.ts";
import type { ResourceQueries } from "./resource.ts";
import { editDistance, type Candidate } from "./typos.ts";

/** Corrections of a place's words at most, per reading. */
const CORRECTED_PER_READING = 4;

interface Way {
  text: string | undefined;
  edits: number;
}

/** A word of a region's or country's part as typed, then its corrections: place words within the allowed edits. */
function wordWays(word: string, candidates: readonly Candidate[]): Way[] {
  const max = allowedEdits(Array.from(word).length);
  const fixes = candidates
    .filter((c) => c.word !== word && c.places > 0)
    .map((c) => ({ text: c.word, edits: max === 0 ? 1 : editDistance(word, c.word, max) }))
    .filter((c) => c.edits <= max)
    .sort((a, b) => a.edits - b.edits || ((a.text ?? "") < (b.text ?? "") ? -1 : 1));
  return [{ text: word, edits: 0 }, ...fixes];
}

/** A part of a place as typed, then each way of correcting its words (`waysOf`: wordWays() of a word). */
function partWays(part: string | undefined, waysOf: (word: string) => Way[]): Way[] {
  if (part === undefined) return [{ text: undefined, edits: 0 }];
  let ways: { words: string[]; edits: number }[] = [{ words: [], edits: 0 }];
  for (const word of part.split(" ")) {
    ways = ways.flatMap((w) =>
      waysOf(word).map((x) => ({ words: [...w.words, x.text ?? ""], edits: w.edits + x.edits })),
    );
  }
  return ways.map((w) => ({ text: w.words.join(" "), edits: w.edits }));
}

/** The readings with a typo in their place forgiven, fewest edits first; the readings as typed left out. */
export function correctedReadings(
  p: SearchParams,
  resource: ResourceQueries<unknown>["resource"],
  candidates: readonly Candidate[],
): AskedReading[] {
  const out: TextReading[] = [];
  // A word is the region's or the country's part of many readings: its corrections read once.
  const known = new Map<string, Way[]>();
  const waysOf = (word: string) => known.get(word) ?? known.set(word, wordWays(word, candidates)).get(word) ?? [];
  for (const r of textReadings(p.nameWords, resource)) {
    const corrected: TextReading[] = [];
    for (const region of partWays(r.region, waysOf)) {
      for (const country of partWays(r.country, waysOf)) {
        const edits = region.edits + country.edits;
        if (edits === 0) continue;
        const read: TextReading = { nameWords: r.nameWords, edits };
        if (r.city !== undefined) read.city = r.city;
        if (region.text !== undefined) read.region = region.text;
        if (country.text !== undefined) read.country = country.text;
        corrected.push(read);
      }
    }
    out.push(...corrected.sort((a, b) => (a.edits ?? 0) - (b.edits ?? 0)).slice(0, CORRECTED_PER_READING));
  }
  return asked(out);
}
