/**
 * The answers of a place read at the end of the text (docs/api.md#a-place-in-the-text): a reading
 * searched strictly, when its best record ranks in a better tier than the text as typed; and a
 * place with a typo, its words corrected as words of place names, asked about in one round trip.
 */
import type { Language } from "../data-contract/languages.ts";
import type { NameTier } from "../data-contract/ranking.ts";
import { nameTierText } from "../match/fts.ts";
import type { SearchParams } from "../params/search-params.ts";
import { numbered } from "../sql/sql.ts";
import { corrections } from "./corrections.ts";
import {
  bestReading,
  correctedReadings,
  placeReadings,
  placeReadingsSql,
  readingParams,
  type PlaceCandidate,
} from "./places.ts";
import type { TextReading } from "./readings.ts";
import type { Page } from "./records.ts";
import type { ResourceQueries, Runner } from "./resource.ts";
import { firstTrip, totalAndRows } from "./trips.ts";

/** A reading of the text with a place, searched strictly, in one more round trip; null when empty. */
export async function placeAnswer<R>(
  q: ResourceQueries<R>,
  session: Runner,
  read: SearchParams,
  language: Language,
): Promise<Page<R> | null> {
  const first = firstTrip(q, { ...read, typos: false, places: false }, language);
  if (first === null) return null;
  const results = await session.run(`${q.resource} search of a place in the text`, first.statements);
  const { total, rows } = totalAndRows(first.search, results);
  if (total === 0) return null;
  return { page: read.page, total, items: rows.map((r) => q.record(r)), match: "place", readAs: read };
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

/** A reading's whole text: its name, then its place's parts. */
const readingText = (r: TextReading): string =>
  [...r.nameWords, r.city, r.region, r.country].filter((w) => w !== undefined).join(" ");

/**
 * A typo in the place (`Paris, Texsa`): the readings with their place's words corrected, asked
 * about in one round trip; the one whose best record ranks first, in a better tier than the text
 * as typed, answers in one more, forgiving (X-Match: fuzzy, the corrected text, X-Read-As).
 */
export async function correctedPlaceAnswer<R>(
  q: ResourceQueries<R>,
  session: Runner,
  p: SearchParams,
  language: Language,
  how: { fallbackRow: Record<string, unknown> | undefined; strictTier: NameTier | null },
): Promise<Page<R> | null> {
  const list = correctedReadings(p, q.resource, corrections(how.fallbackRow, p.nameWords.length).candidates);
  const text = nameTierText(p.name ?? "");
  if (list.length === 0 || text === null) return null;
  const [result] = await session.run(`${q.resource} places with a typo`, [
    numbered(placeReadingsSql(q, p, text, list)),
  ]);
  const place = betterPlace(usable(p, placeReadings(list, result?.rows ?? []).candidates), how.strictTier);
  const read = place === null ? null : readingParams(p, place);
  if (place === null || read === null) return null;
  const answer = await placeAnswer(q, session, read, language);
  return answer === null ? null : { ...answer, match: "fuzzy", suggestion: readingText(place.reading) };
}
