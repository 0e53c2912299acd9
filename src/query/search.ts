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
import {
  bestReading as bestPlace,
  namedPlace,
  placeReadings,
  readingParams,
  type PlaceCandidate,
  type PlaceReadings,
} from "./places.ts";
import type { Page } from "./records.ts";
import type { ResourceQueries, Runner } from "./resource.ts";
import { firstTrip, firstTripRows, fuzzyTrip, totalAndRows } from "./trips.ts";
import { bestReading, type Reading } from "./typos.ts";

/** A reading of the text with a place, searched strictly, in one more round trip; null when empty. */
async function placeAnswer<R>(
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

/** The place reading whose best record ranks first, when it ranks in a better tier than the strict answer's. */
function betterPlace(candidates: readonly PlaceCandidate[], strictTier: NameTier | null): PlaceCandidate | null {
  const place = bestPlace(candidates);
  if (place === null || place.tier === null) return null;
  return strictTier === null || place.tier < strictTier ? place : null;
}

/** What the first round trip gave: the strict answer, and the rows for the other readings. */
interface Strict<R> {
  page: Page<R>;
  /** Whether the typo fallback may run (its corrections were read). */
  fuzzy: boolean;
  fallbackRow: Record<string, unknown> | undefined;
}

/**
 * After the strict answer and the place readings: a place read in the text when the rest of the
 * name ranks better there, else typos forgiven (in the place the text names, if any), else the
 * strict answer.
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
  // Only the readings that add to the filters given (a place never replaces one).
  const candidates = places.candidates.filter((c) => readingParams(p, c) !== null);
  const place = betterPlace(candidates, strictTier);
  const read = place === null ? null : readingParams(p, place);
  if (read !== null) {
    const answer = await placeAnswer(q, session, read, language);
    if (answer !== null) return answer;
  }
  if (!strict.fuzzy || (total > 0 && strictTier !== WORDS)) return strict.page;
  const named = total === 0 ? namedPlace(candidates) : null;
  const readAs = (named === null ? null : readingParams(p, named)) ?? undefined;
  const forgiven = await forgivingTypos(q, session, readAs ?? p, language, {
    fallbackRow: strict.fallbackRow,
    overrule: total > 0,
    ...(readAs === undefined ? {} : { readAs }),
  });
  return forgiven ?? strict.page;
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
    return readings(q, session, p, language, strict, placeReadings(p, q.resource, after.places));
  if (total > 0 || !first.fuzzy) return strict.page;
  return (
    (await forgivingTypos(q, session, p, language, { fallbackRow: after.corrections, overrule: false })) ?? strict.page
  );
}
