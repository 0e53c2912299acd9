/**
 * The answer of a place read at the end of the text (docs/api.md#a-place-in-the-text): the reading
 * whose best record ranks first, when in a better tier than the text as typed, searched strictly.
 */
import type { Language } from "../data-contract/languages.ts";
import type { NameTier } from "../data-contract/ranking.ts";
import type { SearchParams } from "../params/search-params.ts";
import { bestReading, readingParams, type PlaceCandidate } from "./places.ts";
import type { Page } from "./records.ts";
import type { ResourceQueries, Runner } from "./resource.ts";
import { firstTrip, totalAndRows, type Merges } from "./trips.ts";

/** A reading of the text with a place, searched strictly, in one more round trip; null when empty. */
export async function placeAnswer<R>(
  q: ResourceQueries<R>,
  session: Runner,
  read: SearchParams,
  language: Language,
  merges?: Merges,
): Promise<Page<R> | null> {
  const strict = { ...read, typos: false, places: false };
  const first = firstTrip(q, strict, language);
  if (first === null) return null;
  const results =
    (await merges?.first(first, strict)) ??
    (await first.trip.run(session, `${q.resource} search of a place in the text`));
  const { rows, ...total } = totalAndRows(results);
  if (total.total === 0) return null;
  return { page: read.page, ...total, items: rows.map((r) => q.record(r)), match: "place", readAs: read };
}

/** The place reading whose best record ranks first, when it ranks in a better tier than the strict answer's. */
export function betterPlace(candidates: readonly PlaceCandidate[], strictTier: NameTier | null): PlaceCandidate | null {
  const place = bestReading(candidates);
  if (place === null || place.tier === null) return null;
  return strictTier === null || place.tier < strictTier ? place : null;
}

/** The readings that add to the filters given: a place never replaces one. */
export const usable = (p: SearchParams, candidates: readonly PlaceCandidate[]): PlaceCandidate[] =>
  candidates.filter((c) => readingParams(p, c) !== null);
