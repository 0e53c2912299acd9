/**
 * Running a search (docs/api.md#matching, #typo-tolerance, #a-place-in-the-text): the first round
 * trip reads the strict answer and, for a name, what the other readings need (trips.ts). Then:
 *
 * 1. when a record's name is the text as typed (the first tier), the strict answer stands;
 * 2. a place read at the end of the text answers when the rest of the text has a record there in
 *    a better tier than the strict answer's best, or the strict answer is empty (one more trip);
 * 3. the typo fallback answers when the strict answer is empty, or when its names only hold the
 *    text's words at the start of theirs and a correction is a whole name (one more trip); when
 *    the text names a place that exists, typos are forgiven in that place only.
 */
import type { Language } from "../data-contract/languages.ts";
import { words } from "../data-contract/normalize.ts";
import { EXACT, WORDS, type NameTier } from "../data-contract/ranking.ts";
import { nameToken } from "../data-contract/tokens.ts";
import { ftsFilters } from "../match/filters.ts";
import { anyOf, phrase, withFilters } from "../match/fts.ts";
import type { SearchParams } from "../params/search-params.ts";
import { numbered, raw, sql, type Sql } from "../sql/sql.ts";
import { corrections } from "./corrections.ts";
import { betterPlace, correctedPlaceAnswer, placeAnswer, usable } from "./place-answers.ts";
import { namedPlace, placeReadings, readingParams, type PlaceCandidate, type PlaceReadings } from "./places.ts";
import type { Page } from "./records.ts";
import type { ResourceQueries, Runner } from "./resource.ts";
import { firstTrip, firstTripRows, fuzzyTrip, totalAndRows } from "./trips.ts";
import { bestReading, type Reading } from "./typos.ts";

/** A statement of one row (column n): 1 when a corrected reading of the name is a record's whole name. */
function correctedWholeName<R>(q: ResourceQueries<R>, p: SearchParams, list: readonly Reading[]): Sql {
  const fts = raw(q.fts);
  const names = anyOf(list.map((r) => phrase(nameToken(r.words.join(" ")))));
  return numbered(
    sql`SELECT EXISTS (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ${withFilters(names, ftsFilters(p, q.fts))}) AS n`,
  );
}

/** How the typo fallback runs: after an empty strict answer, or to overrule a words-only one. */
interface Forgiving {
  fallbackRow: Record<string, unknown> | undefined;
  /** The strict answer is not empty: only a correction that is a whole name overrules it. */
  overrule: boolean;
  /** The reading of a place the typos are forgiven in. */
  readAs?: SearchParams;
}

/** The answer of the typo fallback, or null when no reading matches (or none overrules). */
async function forgivingTypos<R>(
  q: ResourceQueries<R>,
  session: Runner,
  p: SearchParams,
  language: Language,
  how: Forgiving,
): Promise<Page<R> | null> {
  const { present, candidates } = corrections(how.fallbackRow, p.nameWords.length);
  const trip = fuzzyTrip(q, p, language, candidates, { present, typedMatches: how.overrule });
  if (trip === null) return null;
  const check = how.overrule ? [correctedWholeName(q, p, trip.readings)] : [];
  const results = await session.run(`${q.resource} search forgiving typos`, [...check, ...trip.statements]);
  if (how.overrule && Number(results[0]?.rows[0]?.n ?? 0) === 0) return null;
  const { total, rows } = totalAndRows(trip.search, results.slice(check.length));
  if (total === 0) return null;
  const items = rows.map((r) => q.record(r));
  const suggested = items[0] === undefined ? null : bestReading(trip.options, q.names(items[0]).map(words));
  const suggestion = (suggested ?? trip.readings[0])?.words.join(" ");
  return {
    page: p.page,
    total,
    items,
    match: "fuzzy",
    ...(suggestion === undefined ? {} : { suggestion }),
    ...(how.readAs === undefined ? {} : { readAs: how.readAs }),
  };
}

/** What the first round trip gave: the strict answer, and the rows for the other readings. */
interface Strict<R> {
  page: Page<R>;
  /** Whether the typo fallback may run (its corrections were read). */
  fuzzy: boolean;
  fallbackRow: Record<string, unknown> | undefined;
}

/**
 * Typos forgiven after the strict answer and the place readings: in the place the text names when
 * it names one that exists (never elsewhere), else in a place written with a typo, else in the
 * whole text (overruling a strict answer whose names only start the text's words).
 */
async function forgiving<R>(
  q: ResourceQueries<R>,
  session: Runner,
  p: SearchParams,
  language: Language,
  strict: Strict<R>,
  named: { candidates: readonly PlaceCandidate[]; strictTier: NameTier | null },
): Promise<Page<R>> {
  const total = strict.page.total;
  const { fallbackRow } = strict;
  const place = total === 0 ? namedPlace(named.candidates) : null;
  const readAs = place === null ? null : readingParams(p, place);
  if (readAs !== null) {
    return (
      (await forgivingTypos(q, session, readAs, language, { fallbackRow, overrule: false, readAs })) ?? strict.page
    );
  }
  const corrected = p.places
    ? await correctedPlaceAnswer(q, session, p, language, { fallbackRow, strictTier: named.strictTier })
    : null;
  return (
    corrected ?? (await forgivingTypos(q, session, p, language, { fallbackRow, overrule: total > 0 })) ?? strict.page
  );
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
): Promise<Page<R>> {
  const total = strict.page.total;
  const strictTier = total === 0 ? null : places.strictTier;
  if (strictTier === EXACT) return strict.page;
  const candidates = usable(p, places.candidates);
  const place = betterPlace(candidates, strictTier);
  const read = place === null ? null : readingParams(p, place);
  const answer = read === null ? null : await placeAnswer(q, session, read, language);
  if (answer !== null) return answer;
  if (!strict.fuzzy || (total > 0 && strictTier !== WORDS)) return strict.page;
  return forgiving(q, session, p, language, strict, { candidates, strictTier });
}

export async function runSearch<R>(
  q: ResourceQueries<R>,
  session: Runner,
  p: SearchParams,
  language: Language,
): Promise<Page<R>> {
  const first = firstTrip(q, p, language);
  if (first === null) return { page: p.page, total: 0, items: [], match: "exact" };
  const results = await session.run(`${q.resource} search`, first.statements);
  const { total, rows } = totalAndRows(first.search, results);
  const after = firstTripRows(first, results);
  const strict: Strict<R> = {
    page: { page: p.page, total, items: rows.map((r) => q.record(r)), match: "exact" },
    fuzzy: first.fuzzy,
    fallbackRow: after.corrections,
  };
  if (after.places !== null)
    return readings(q, session, p, language, strict, placeReadings(first.readings, after.places));
  if (total > 0 || !first.fuzzy) return strict.page;
  return (
    (await forgivingTypos(q, session, p, language, { fallbackRow: after.corrections, overrule: false })) ?? strict.page
  );
}
