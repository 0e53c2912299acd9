/**
 * Asking a record's names apart, or not (src/match/one-name.ts): a record's document says whether
 * it has names apart (NAMES_APART, written at import), so the matches without it need no lookup,
 * and, without filters (the names' index has no filter tokens), the others can be read from the
 * names' index itself — its rowids are pos × NAME_SLOTS + n, and a name's match is its record's
 * document's, so its records are all matches. Most cities have names apart (every large one),
 * few venues; a stream costs more than asking a few (docs/benchmarks.md#a-total-of-several-words-over-cities).
 */
import { NAME_SLOTS } from "../data-contract/name-sets.ts";
import { NAMES_APART } from "../data-contract/tokens.ts";
import { int, raw, sql, type Sql } from "../sql/sql.ts";
import { CANDIDATE_POS, CANDIDATES, cappedCount, keptOfFirst, matchesOf, type Reading } from "./capped.ts";
import { aNameOf, NAMES_INDEX, oneNameOf, type Fts } from "./one-name.ts";
import { matchesMarked } from "./own-names.ts";

/** Matches of a city's total asked one by one, past which it reads the streams. */
const FEW_CANDIDATES = 64;

/** Records a city's tier reads past which it reads the streams (a page of 50 asks a few dozen). */
const FEW_READ = 100;

/** The matches of `match` (FTS5 text, an SQL expression) up to pos `last` (an SQL expression) without names apart. */
const withoutNamesApart = (fts: Fts, match: Sql, last: Sql): Sql =>
  sql`SELECT rowid AS pos FROM ${raw(fts)} WHERE ${raw(fts)} MATCH '(' || ${match} || ${`) NOT "${NAMES_APART}"`} AND rowid <= ${last}`;

/** The records up to pos `last` one of whose names matches `held` (FTS5 text), each once. */
function namesMatching(fts: Fts, held: Sql, last: Sql): Sql {
  const names = raw(NAMES_INDEX[fts]);
  return sql`SELECT DISTINCT rowid / ${int(NAME_SLOTS)} AS pos FROM ${names} WHERE ${names} MATCH ${held}
    AND rowid < (${last} + 1) * ${int(NAME_SLOTS)}`;
}

/**
 * One row (n, more), as cappedCount() counts it: of the first matches of `match` (FTS5 text, an SQL
 * expression) in pos order, those one of whose names matches `held` (FTS5 text of a name:
 * oneNameText()). A venue's come as two streams merged, without names apart and with, each of the
 * second asked once (matchesMarked). A city's are asked each (oneNameOf), unless there is no
 * filter (`unfiltered`) and more than FEW_CANDIDATES match: then it counts the two streams, those
 * without names apart and the records of the names' index, up to the last of its first matches.
 */
export function heldCount(fts: Fts, match: Sql, held: Sql, unfiltered: boolean): Sql {
  if (fts !== "cities_fts") {
    return cappedCount(matchesMarked(fts, match), sql`cand.plain = 1 OR ${aNameOf(fts, CANDIDATE_POS, held)}`);
  }
  if (!unfiltered) return cappedCount(matchesOf(fts, match), oneNameOf(fts, CANDIDATE_POS, held));
  const asked = sql`(SELECT count(*) FROM cand WHERE ${oneNameOf(fts, CANDIDATE_POS, held)})`;
  const last = raw("last.p");
  const streamed = sql`(SELECT count(*) FROM (${withoutNamesApart(fts, match, last)}))
    + (SELECT count(*) FROM (${namesMatching(fts, held, last)}))`;
  // A subquery: its statement may open with filters' common table expressions (src/query/names.ts).
  return sql`SELECT n, more FROM (WITH cand AS MATERIALIZED (SELECT * FROM (${matchesOf(fts, match)}) LIMIT ${int(CANDIDATES + 1)})
    SELECT CASE WHEN last.k <= ${int(FEW_CANDIDATES)} THEN ${asked} ELSE ${streamed} END AS n, last.more AS more
    FROM (SELECT max(pos) AS p, count(*) AS k, count(*) > ${int(CANDIDATES)} AS more FROM cand) last)`;
}

/**
 * The pos of the first matches of `match` (FTS5 text, an SQL expression) one of whose names matches
 * `held` (FTS5 text of a name; null: every match), in pos order, as keptOfFirst() keeps them: each
 * asked (oneNameOf), or, for a city's tier without filters that reads more than FEW_READ records
 * for a text of two words (`words`: the most of a reading), the two streams merged up to the last
 * of its first matches. Two short words match thousands of cities, three a few: asking those few
 * costs less than the streams.
 */
export function keptByAName(fts: Fts, match: Sql, held: Sql | null, read: TierRead): Sql {
  const asked = keptOfFirst(matchesOf(fts, match), held === null ? null : oneNameOf(fts, CANDIDATE_POS, held));
  if (held === null || fts !== "cities_fts" || !read.unfiltered || read.reads <= FEW_READ || read.words > 2)
    return asked;
  const firsts = sql`SELECT rowid AS pos FROM ${raw(fts)} WHERE ${raw(fts)} MATCH ${match} ORDER BY rowid LIMIT ${int(CANDIDATES)}`;
  const last = raw("(SELECT p FROM last)");
  return sql`SELECT pos FROM (WITH last(p) AS MATERIALIZED (SELECT max(pos) FROM (${firsts}))
    SELECT pos FROM (${withoutNamesApart(fts, match, last)}) UNION ALL SELECT pos FROM (${namesMatching(fts, held, last)}) ORDER BY pos)`;
}

/** How a tier reads (keptByAName): without filters, how many records, of a text of how many words. */
export interface TierRead {
  unfiltered: boolean;
  reads: number;
  words: number;
}

/** How an area's total reads its candidates: at most `reading.limit`, each kept by `kept` (with the condition on its names). */
export interface PlacedCount {
  reading: Reading;
  kept: (byName: Sql | null) => Sql;
}

/**
 * An area's total, as cappedCount() counts it over the matches of `match` (FTS5 text, an SQL
 * expression), each kept where `placed` keeps it and one of its names matches `held` (FTS5 text;
 * null: every match). A city's, where neither filters nor the area's cover narrow the matches
 * (`unnarrowed`: they are the index's own, as the names' index's are), of more than
 * FEW_CANDIDATES matches, asks no lookup of each: those without names apart and those the names'
 * index gives, up to the last of its candidates, are two sets read once (each candidate is still
 * placed). Where the cover narrows them, the names' stream would read the whole world's.
 */
export function placedHeldCount(fts: Fts, match: Sql, held: Sql | null, unnarrowed: boolean, placed: PlacedCount): Sql {
  const candidates = matchesOf(fts, match);
  const asked = held === null ? null : oneNameOf(fts, CANDIDATE_POS, held);
  if (held === null || asked === null || fts !== "cities_fts" || !unnarrowed) {
    return cappedCount(candidates, placed.kept(asked), placed.reading);
  }
  const last = raw("(SELECT p FROM last)");
  const streamed = raw("cand.pos IN (SELECT pos FROM plain) OR cand.pos IN (SELECT pos FROM named)");
  const byName = sql`(CASE WHEN (SELECT k FROM last) <= ${int(FEW_CANDIDATES)} THEN ${asked} ELSE ${streamed} END)`;
  return sql`SELECT n, more FROM (WITH last(p, k) AS MATERIALIZED (SELECT max(pos), count(*)
      FROM (SELECT * FROM (${candidates}) LIMIT ${int(placed.reading.limit + 1)})),
      plain AS MATERIALIZED (${withoutNamesApart(fts, match, last)}),
      named AS MATERIALIZED (${namesMatching(fts, held, last)})
    ${cappedCount(candidates, placed.kept(byName), placed.reading)})`;
}
