/**
 * Running a search (docs/api.md#matching, #typo-tolerance, #a-place-in-the-text): the first round
 * trip reads the strict answer and, for a name, what the other readings need (trips.ts). Then:
 *
 * 1. when a record's name is the text as typed (the first tier), the strict answer stands;
 * 2. a place read at the end of the text answers when the rest of the text has a record there in
 *    a better tier than the strict answer's best, or the strict answer is empty (one more trip);
 * 3. the typo fallback (forgiving.ts) answers when the strict answer is empty, or when its names
 *    only hold the text's words at the start of theirs and a correction is a whole name; in the
 *    place the text names, or with a typo in the place, whichever ranks first.
 */
import type { Language } from "../data-contract/languages.ts";
import { EXACT, WORDS } from "../data-contract/ranking.ts";
import type { SearchParams } from "../params/search-params.ts";
import { forgiving } from "./forgiving.ts";
import { betterPlace, placeAnswer, usable } from "./place-answers.ts";
import { placeReadings, readingParams, type PlaceReadings } from "./places.ts";
import type { Page } from "./records.ts";
import type { ResourceQueries, Runner } from "./resource.ts";
import { firstTrip, firstTripRows, totalAndRows, type Merges } from "./trips.ts";

/** What the first round trip gave: the strict answer, and the rows for the other readings. */
interface Strict<R> {
  page: Page<R>;
  /** Whether the typo fallback may run (its corrections were read). */
  fuzzy: boolean;
  fallbackRow: Record<string, unknown> | undefined;
  /** Whether the filters, kind and area may hold a record (held.ts), when the corrections' row says. */
  filtersHold: boolean | undefined;
}

/**
 * After the strict answer and the place readings: a place read in the text when the rest of the
 * name ranks better there, else typos forgiven, else the strict answer.
 */
async function readings<R>(
  q: ResourceQueries<R>,
  session: Runner,
  p: SearchParams,
  language: Language,
  strict: Strict<R>,
  places: PlaceReadings,
  merges?: Merges,
): Promise<Page<R>> {
  const total = strict.page.total;
  const strictTier = total === 0 ? null : places.strictTier;
  if (strictTier === EXACT) return strict.page;
  const candidates = usable(p, places.candidates);
  const place = betterPlace(candidates, strictTier);
  const read = place === null ? null : readingParams(p, place);
  const answer = read === null ? null : await placeAnswer(q, session, read, language, merges);
  if (answer !== null) return answer;
  if (!strict.fuzzy || (total > 0 && strictTier !== WORDS)) return strict.page;
  return forgiving(q, session, p, language, {
    strict: strict.page,
    fallbackRow: strict.fallbackRow,
    candidates,
    strictTier,
    filtersHold: strict.filtersHold,
    ...(merges === undefined ? {} : { merges }),
  });
}

/**
 * A search's page. Run in one venue database (`session.within`: src/d1/route.ts), its area is read
 * within that database's bounds (src/geo/places.ts): a search asks it alone when no other venue
 * database's bounds meet the area, so no venue of the area lies outside them.
 */
export async function runSearch<R>(
  q: ResourceQueries<R>,
  session: Runner,
  p: SearchParams,
  language: Language,
  merges?: Merges,
): Promise<Page<R>> {
  const within = session.within;
  const scoped = within === undefined ? q : { ...q, places: { ...q.places, within } };
  return searchOf(scoped, session, p, language, merges);
}

async function searchOf<R>(
  q: ResourceQueries<R>,
  session: Runner,
  p: SearchParams,
  language: Language,
  merges?: Merges,
): Promise<Page<R>> {
  const first = firstTrip(q, p, language);
  if (first === null) return { page: p.page, total: 0, items: [], match: "exact" };
  const results = (await merges?.first(first, p)) ?? (await first.trip.run(session, `${q.resource} search`));
  const { rows, ...total } = totalAndRows(results);
  const after = firstTripRows(results);
  const strict: Strict<R> = {
    page: { page: p.page, ...total, items: rows.map((r) => q.record(r)), match: "exact" },
    fuzzy: first.fuzzy,
    fallbackRow: after.corrections,
    filtersHold: after.filtersHold,
  };
  if (after.places !== null)
    return readings(q, session, p, language, strict, placeReadings(first.readings, after.places), merges);
  if (total.total > 0 || !first.fuzzy) return strict.page;
  return forgiving(q, session, p, language, {
    strict: strict.page,
    fallbackRow: after.corrections,
    candidates: [],
    strictTier: null,
    filtersHold: strict.filtersHold,
    ...(merges === undefined ? {} : { merges }),
  });
}
