/**
 * Typo tolerance on the query side (docs/api.md#typo-tolerance): the vocabulary's candidate
 * corrections of each query word (found through src/data-contract/typo-keys.ts), verified by their edit
 * distance, combined into readings of the query and into spreads of edits over its words, and the
 * reading a record's name fits, for "did you mean". Pure.
 */
import { allowedEdits, queryDeletes } from "../data-contract/typo-keys.ts";

/**
 * The optimal string alignment distance (insertions, deletions, substitutions and swaps of
 * neighbours, each 1) between two words, by code point; any value above `max` is reported as
 * max + 1, so long words cost little.
 */
export function editDistance(a: string, b: string, max: number): number {
  return distanceFrom(Array.from(a), b, max);
}

/** editDistance() from a word's code points (`s`, split once for every word it is compared with). */
function distanceFrom(s: readonly string[], b: string, max: number): number {
  // `b` has from half its UTF-16 units to all of them as code points: most words are told apart unsplit.
  if (b.length < s.length - max || b.length > 2 * (s.length + max)) return max + 1;
  const t = Array.from(b);
  return Math.abs(s.length - t.length) > max ? max + 1 : alignment(s, t, max);
}

/** editDistance() of two words' code points, row by row, given up once a row is past `max`. */
function alignment(s: readonly string[], t: readonly string[], max: number): number {
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, (before[j - 2] ?? 0) + 1);
      current.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  return Math.min(previous[t.length] ?? max + 1, max + 1);
}

/** A word of the vocabulary that the index found for a query, with how many records and place names hold it. */
export interface Candidate {
  word: string;
  records: number;
  places: number;
}

/** One way of reading the query: a word for each query word, and the edits that took. */
export interface Reading {
  words: string[];
  edits: number;
}

/** What a query word may be read as, and the edits that takes. */
export interface Alternative {
  word: string;
  edits: number;
}

/**
 * At most this many corrections per query word (short words have many neighbours, and the right
 * one may be a rare word); whole readings of a query of several words (combinations: each costs
 * its search time, so few), and ways of spreading edits over its words (see spreads()).
 */
const ALTERNATIVES = 24;
const READINGS_OF_MORE_WORDS = 8;
const SPREADS = 12;

/** A query word that may be corrected: its lookup keys and the lengths its corrections can have. */
export interface Lookup {
  keys: string[];
  minLength: number;
  maxLength: number;
}

/** The lookups of a query's words (none for words that may not differ). */
export function lookups(queryWords: readonly string[]): Lookup[] {
  return [...new Set(queryWords)].flatMap((word) => {
    const length = Array.from(word).length;
    const edits = allowedEdits(length);
    // Each edit changes the length by at most one.
    return edits === 0 ? [] : [{ keys: queryDeletes(word), minLength: length - edits, maxLength: length + edits }];
  });
}

/**
 * What each query word may be read as, fewest edits first (then the more common corrections):
 * a candidate within its allowed edits, or itself when `present` says some record has a word
 * starting with it (a word that matches nothing alone cannot be part of a reading that matches).
 */
export function alternatives(
  queryWords: readonly string[],
  candidates: readonly Candidate[],
  present: readonly boolean[] = [],
): Alternative[][] {
  return queryWords.map((q, i) => {
    const letters = Array.from(q);
    const max = allowedEdits(letters.length);
    const corrections = candidates
      .filter((c) => c.word !== q && c.records > 0) // a word of place names alone corrects a place, not a name
      .map((c) => ({
        word: c.word,
        edits: max === 0 ? max + 1 : distanceFrom(letters, c.word, max),
        records: c.records,
      }))
      .filter((c) => c.edits <= max)
      .sort((a, b) => a.edits - b.edits || b.records - a.records || (a.word < b.word ? -1 : 1))
      .slice(0, ALTERNATIVES)
      .map(({ word, edits }) => ({ word, edits }));
    return present[i] === false ? corrections : [{ word: q, edits: 0 }, ...corrections];
  });
}

/**
 * The readings of a query with at least one word corrected, fewest edits first (then the more
 * common corrections): a one-word query's are its word's corrections, a longer query's the first
 * few combinations.
 */
export function readings(options: readonly (readonly Alternative[])[]): Reading[] {
  const most = options.length > 1 ? READINGS_OF_MORE_WORDS : ALTERNATIVES;
  let partial: { words: string[]; edits: number; weight: number }[] = [{ words: [], edits: 0, weight: 0 }];
  for (const list of options) {
    partial = partial
      .flatMap((r) =>
        list.map((o, rank) => ({ words: [...r.words, o.word], edits: r.edits + o.edits, weight: r.weight + rank })),
      )
      .sort((a, b) => a.edits - b.edits || a.weight - b.weight)
      .slice(0, most + 1);
  }
  return partial
    .filter((r) => r.edits > 0)
    .slice(0, most)
    .map(({ words, edits }) => ({ words, edits }));
}

/** A way of spreading edits over a query's words: per word, its alternatives with that many edits. */
export interface Spread {
  edits: number;
  words: string[][];
}

/**
 * Every reading at once, grouped by how its edits are spread over the words: for each spread (one
 * edit count per word, at least one edit in all), per word the alternatives with that many
 * edits. A spread matches a record when each word's group does, so a query of several words finds
 * every combination of its words' alternatives, not only the few whole readings; fewest edits
 * first, at most SPREADS of them.
 */
export function spreads(options: readonly (readonly Alternative[])[]): Spread[] {
  let partial: { counts: number[]; edits: number }[] = [{ counts: [], edits: 0 }];
  for (const list of options) {
    const counts = [...new Set(list.map((o) => o.edits))];
    // The fewest edits of the whole come from the fewest of each part: a long query stays cheap.
    partial = partial
      .flatMap((p) => counts.map((e) => ({ counts: [...p.counts, e], edits: p.edits + e })))
      .sort((a, b) => a.edits - b.edits)
      .slice(0, SPREADS + 1);
  }
  return partial
    .filter((p) => p.edits > 0)
    .slice(0, SPREADS)
    .map(({ counts, edits }) => ({
      edits,
      words: counts.map((e, i) => (options[i] ?? []).filter((o) => o.edits === e).map((o) => o.word)),
    }));
}

/**
 * Per query word, all its alternatives, when spreads() lists every way of spreading edits (a query
 * of few words); else null. Then the records some spread matches are those in which each query
 * word matches one of its alternatives, less those the query as typed matches; the fallback runs
 * only when the query as typed matches nothing, so one AND of the words' alternatives counts them
 * (one pass over each doclist, where the spreads read each several times).
 */
export function everyAlternative(options: readonly (readonly Alternative[])[]): string[][] | null {
  const ways = options.reduce((n, list) => n * new Set(list.map((o) => o.edits)).size, 1);
  const asTyped = options.every((list) => list.some((o) => o.edits === 0)) ? 1 : 0;
  if (ways === 0 || ways - asTyped > SPREADS) return null;
  return options.map((list) => list.map((o) => o.word));
}

/**
 * The reading of the query that a record's names best fit (fewest edits, then whole words): for
 * each name, each query word's best alternative that starts one of its words, or null when no
 * name takes every query word. For "did you mean".
 */
export function bestReading(
  options: readonly (readonly Alternative[])[],
  names: readonly (readonly string[])[],
): Reading | null {
  let best: { reading: Reading; partial: number } | null = null;
  for (const name of names) {
    let edits = 0;
    let partial = 0;
    const chosen: string[] = [];
    for (const list of options) {
      const pick = bestAlternative(list, name);
      if (pick === null) break;
      chosen.push(pick.word);
      edits += pick.edits;
      partial += pick.partial;
    }
    if (chosen.length !== options.length) continue;
    if (best === null || edits < best.reading.edits || (edits === best.reading.edits && partial < best.partial)) {
      best = { reading: { words: chosen, edits }, partial };
    }
  }
  return best?.reading ?? null;
}

/** Of one query word's alternatives, the one a name's words take with the fewest edits, whole words first. */
function bestAlternative(list: readonly Alternative[], name: readonly string[]) {
  let pick: { word: string; edits: number; partial: number } | null = null;
  for (const o of list) {
    const whole = name.includes(o.word);
    if (!whole && !name.some((n) => n.startsWith(o.word))) continue;
    const score = { word: o.word, edits: o.edits, partial: whole ? 0 : 1 };
    if (pick === null || score.edits < pick.edits || (score.edits === pick.edits && score.partial < pick.partial)) {
      pick = score;
    }
  }
  return pick;
}
