/**
 * The typo fallback (docs/api.md#typo-tolerance, #a-place-in-the-text), after the strict answer and
 * the place readings of the first round trip (search.ts):
 *
 * - when the text names a region or country that exists and nothing there is the rest of its name,
 *   typos are forgiven in that place; elsewhere only when a correction of the whole text is some
 *   record's whole name (then the place's words are a name's: "The Majestic Staton Bar");
 * - otherwise, in one round trip, the whole text forgiven and the readings with a typo in their
 *   place; whichever's best record ranks first (fewest edits, then name tier) answers, a place in
 *   one more round trip;
 * - a strict answer whose names only start the text's words gives way only to a correction that is
 *   a whole name.
 */
import type { Language } from "../data-contract/languages.ts";
import { words } from "../data-contract/normalize.ts";
import { classless, classOfKey, OTHER, tierKey, type NameTier } from "../data-contract/ranking.ts";
import { nameToken } from "../data-contract/tokens.ts";
import { ftsFilters } from "../match/filters.ts";
import { anyOf, nameTierText, phrase, withFilters } from "../match/fts.ts";
import { oneName } from "../match/one-name.ts";
import { anyKept, CANDIDATE_POS } from "../match/capped.ts";
import type { SearchParams } from "../params/search-params.ts";
import { refuseBeyondWindow } from "../params/window.ts";
import { int, join, raw, sql, type Sql } from "../sql/sql.ts";
import { corrections } from "./corrections.ts";
import { betterPlace, placeAnswer, usable } from "./place-answers.ts";
import { correctedReadings } from "./place-typos.ts";
import {
  namedPlace,
  PLACES,
  placeReadings,
  placeReadingsSql,
  readingParams,
  type PlaceCandidate,
  type PlacesAsked,
} from "./places.ts";
import type { Page } from "./records.ts";
import type { ResourceQueries, Runner } from "./resource.ts";
import { Trip, type TripRows } from "./trip.ts";
import { someMatch } from "./names.ts";
import { fuzzyTrip, totalAndRows, type FuzzyTrip, type Merges } from "./trips.ts";
import { bestReading, type Reading } from "./typos.ts";

/** A one-row statement's number in `column`, -1 without one. */
const cell = (rows: TripRows, name: string, column: string) => Number(rows.rows(name)[0]?.[column] ?? -1);

/** What the first round trip left for the fallback. */
export interface Fallback<R> {
  strict: Page<R>;
  fallbackRow: Record<string, unknown> | undefined;
  /** The places the text's end may stand for, and the strict answer's best tier. */
  candidates: readonly PlaceCandidate[];
  strictTier: NameTier | null;
  /** Whether the filters, kind and area may hold a record (held.ts), when the corrections' row says. */
  filtersHold: boolean | undefined;
  /** Where its trips read several venue databases at once (merged-names.ts). */
  merges?: Merges;
}

/** A trip that holds a fuzzy search under `prefix` (and place readings asking `places`), merged where `f` merges. */
async function runFuzzy<R>(
  f: Fallback<R>,
  session: Runner,
  what: string,
  trip: Trip,
  fuzzy: { trip: FuzzyTrip | null; prefix: string; places?: PlacesAsked },
  p: SearchParams,
) {
  const asked = { search: fuzzy.trip?.search ?? null, prefix: fuzzy.prefix, places: fuzzy.places };
  const merged = await f.merges?.search(trip, asked, p);
  return merged ?? trip.run(session, what);
}

/** A statement of one row (column n): 1 when a corrected reading of the name is a record's whole name. */
function correctedWholeName<R>(q: ResourceQueries<R>, p: SearchParams, list: readonly Reading[]): Sql {
  const fts = raw(q.fts);
  const names = anyOf(list.map((r) => phrase(nameToken(r.words.join(" ")))));
  return sql`SELECT EXISTS (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ${withFilters(names, ftsFilters(p, q.fts))}) AS n`;
}

/** A statement of one row (column k): the tierKey of the fallback's first record, -1 when none. */
function firstKey<R>(q: ResourceQueries<R>, p: SearchParams, trip: FuzzyTrip): Sql {
  const filters = ftsFilters(p, q.fts);
  // Edits and tier by any of a record's names: how the readings compare (not the order's classes).
  const whens = trip.tiers
    .filter((t) => classOfKey(t.key) === OTHER)
    .map(
      (t) =>
        sql`WHEN ${anyKept(q.fts, withFilters(t.text, filters), oneName(q.fts, CANDIDATE_POS, t.readings ?? []))} THEN ${int(classless(t.key))}`,
    );
  // Nothing matches any tier when nothing matches every match's text: the tiers are then not read.
  const none = sql`WHEN NOT ${someMatch(q.fts, withFilters(trip.every, filters))} THEN -1`;
  return sql`SELECT CASE ${none} ${join(whens, " ")} ELSE -1 END AS k`;
}

/** The fallback's page from its trip's rows, or null when it found nothing. */
function fuzzyPage<R>(q: ResourceQueries<R>, p: SearchParams, trip: FuzzyTrip, found: TripRows, readAs?: SearchParams) {
  const { rows, ...total } = totalAndRows(found);
  if (total.total === 0) return null;
  const items = rows.map((r) => q.record(r));
  const suggested = items[0] === undefined ? null : bestReading(trip.options, q.names(items[0]).map(words));
  const suggestion = (suggested ?? trip.readings[0])?.words.join(" ");
  const page: Page<R> = { page: p.page, ...total, items, match: "fuzzy" };
  if (suggestion !== undefined) page.suggestion = suggestion;
  if (readAs !== undefined) page.readAs = readAs;
  return page;
}

/** The first round trip's corrections, read once: which query words match as typed, and the candidates. */
type Fixes = ReturnType<typeof corrections>;

/** The fallback's round trip for `p`, whose name is the text's or its first words (a reading's). */
const tripOf = <R>(q: ResourceQueries<R>, p: SearchParams, language: Language, f: Fallback<R>, fixes: Fixes) =>
  fuzzyTrip(q, p, language, fixes.candidates, {
    present: fixes.present.slice(0, p.nameWords.length),
    typedMatches: f.strict.total > 0,
  });

/** Typos forgiven in the region or country the text names; elsewhere only for a whole name. */
async function inNamedPlace<R>(
  q: ResourceQueries<R>,
  session: Runner,
  p: SearchParams,
  language: Language,
  f: Fallback<R> & { readAs: SearchParams },
  fixes: Fixes,
): Promise<Page<R>> {
  const inPlace = tripOf(q, f.readAs, language, f, fixes);
  const whole = tripOf(q, p, language, f, fixes);
  const trip = new Trip()
    .add("whole name", whole === null ? null : correctedWholeName(q, p, whole.readings))
    .include("in place", inPlace?.trip ?? null);
  const what = `${q.resource} search forgiving typos`;
  const fuzzy = { trip: inPlace, prefix: "in place." };
  const results = await runFuzzy(f, session, `${what} in the place named`, trip, fuzzy, f.readAs);
  const page = inPlace === null ? null : fuzzyPage(q, f.readAs, inPlace, results.of("in place"), f.readAs);
  if (page !== null || whole === null || cell(results, "whole name", "n") <= 0) return page ?? f.strict;
  const again = await runFuzzy(f, session, what, whole.trip, { trip: whole, prefix: "" }, p);
  return fuzzyPage(q, p, whole, again) ?? f.strict;
}

/**
 * The whole text forgiven and the readings with a typo in their place, in one round trip: the
 * place readings ("places"), the whole text's first tierKey ("key", weighed only against a place
 * with a typo), whether a correction is a whole name ("whole name", when a strict answer would be
 * overruled), and the whole text's search ("whole").
 */
function wholeAndPlaces<R>(q: ResourceQueries<R>, p: SearchParams, language: Language, f: Fallback<R>, fixes: Fixes) {
  const whole = tripOf(q, p, language, f, fixes);
  const typos = p.places ? correctedReadings(p, q.resource, fixes.candidates) : [];
  const text = nameTierText(p.name ?? "");
  const asked = typos.length > 0 && text !== null ? { p, strict: text, list: typos } : undefined;
  const places = asked === undefined ? null : placeReadingsSql(q, p, asked.strict, asked.list);
  const trip = new Trip()
    .add(PLACES, places)
    .add("key", whole !== null && places !== null ? firstKey(q, p, whole) : null)
    .add("whole name", whole !== null && f.strict.total > 0 ? correctedWholeName(q, p, whole.readings) : null)
    .include("whole", whole?.trip ?? null);
  return { whole, typos, trip, asked };
}

/** The reading with a typo in its place, searched, when its best record ranks before the whole text's. */
async function placeTypoAnswer<R>(
  q: ResourceQueries<R>,
  session: Runner,
  p: SearchParams,
  language: Language,
  how: { candidates: readonly PlaceCandidate[]; strictTier: NameTier | null; wholeKey: number; merges?: Merges },
): Promise<Page<R> | null> {
  const place = betterPlace(usable(p, how.candidates), how.strictTier);
  if (place === null) return null;
  const key = tierKey(place.reading.edits ?? 0, place.tier ?? 0);
  if (how.wholeKey >= 0 && key >= how.wholeKey) return null;
  // Fewest edits first: a typo in the place ranks after every record the text as typed finds
  // (`the club` read as "the" in Cuba came before The Anchor Club, whose name holds both words).
  if (how.strictTier !== null && key >= tierKey(0, how.strictTier)) return null;
  const read = readingParams(p, place);
  const answer = read === null ? null : await placeAnswer(q, session, read, language, how.merges);
  if (answer === null) return null;
  const { nameWords, city, region, country } = place.reading;
  const text = [...nameWords, city, region, country].filter((w) => w !== undefined).join(" ");
  return { ...answer, match: "fuzzy", suggestion: text };
}

/**
 * The whole text forgiven, against the readings with a typo in their place, in one round trip;
 * the better answers (a place in one more round trip).
 */
async function wholeOrPlace<R>(
  q: ResourceQueries<R>,
  session: Runner,
  p: SearchParams,
  language: Language,
  f: Fallback<R>,
  fixes: Fixes,
): Promise<Page<R>> {
  const { whole, typos, trip, asked } = wholeAndPlaces(q, p, language, f, fixes);
  if (trip.empty) return f.strict;
  const fuzzy = { trip: whole, prefix: "whole.", ...(asked === undefined ? {} : { places: asked }) };
  const results = await runFuzzy(f, session, `${q.resource} search forgiving typos`, trip, fuzzy, p);
  const candidates = results.has(PLACES) ? placeReadings(typos, results.rows(PLACES)).candidates : [];
  const wholeKey = results.has("key") ? cell(results, "key", "k") : -1;
  const how = {
    candidates,
    strictTier: f.strictTier,
    wholeKey,
    ...(f.merges === undefined ? {} : { merges: f.merges }),
  };
  const place = await placeTypoAnswer(q, session, p, language, how);
  if (place !== null) return place;
  if (whole === null || (results.has("whole name") && cell(results, "whole name", "n") <= 0)) return f.strict;
  return fuzzyPage(q, p, whole, results.of("whole")) ?? f.strict;
}

/**
 * The answer once typos are forgiven, or the strict answer when nothing forgiven answers better
 * (or nothing can: the filters hold no record).
 */
export function forgiving<R>(
  q: ResourceQueries<R>,
  session: Runner,
  p: SearchParams,
  language: Language,
  f: Fallback<R>,
): Promise<Page<R>> {
  refuseBeyondWindow(q.resource, p, true);
  if (f.filtersHold === false) return Promise.resolve(f.strict);
  const fixes = corrections(f.fallbackRow, p.nameWords.length);
  const place = f.strict.total === 0 ? namedPlace(f.candidates) : null;
  const readAs = place === null ? null : readingParams(p, place);
  return readAs === null
    ? wholeOrPlace(q, session, p, language, f, fixes)
    : inNamedPlace(q, session, p, language, { ...f, readAs }, fixes);
}
