/**
 * Deep pages of a broad word alone (docs/api.md#order, #what-one-request-may-cost): a one-word name
 * without filters or an area. The import stores, for each prefix that matches many records, how
 * many it matches in each class and name tier (name_tiers: tier0 … tier5, classTier()) and the pos
 * of every few of them in each (name_anchors), per language where its own names make the classes
 * differ ('' for the rest). The order is then a list of segments, each a stretch of one of the
 * six disjoint sets in pos order: for each tier, the records found only by another name that are
 * far larger than the first found by an own name (src/match/own-names.ts; they all come before
 * it in pos), then those found by an own name; then the rest of the other names' sets. A page
 * reads each segment it overlaps from the anchor before it: about a page and an anchor interval.
 * Any other word matches few records: its tiers are read from the start as a name search's are.
 */
import type { Language } from "../data-contract/languages.ts";
import { classTier, EXACT, NAME_TIER_LIST, numberedPage, OTHER, OWN } from "../data-contract/ranking.ts";
import { anyOf, butNot } from "../match/fts.ts";
import { wordsOf } from "../match/one-name.ts";
import { ANY_NAMES, farLargerBound, ownNames, rankedCtes } from "../match/own-names.ts";
import { ITEMS_PER_PAGE } from "../params/paging.ts";
import { int, join, raw, sql, unionAll, type Sql } from "../sql/sql.ts";
import { bestTiers, tiersOf } from "./names.ts";
import type { ResourceQueries } from "./resource.ts";
import { areaOf, hasFilters, type SearchParams } from "../params/search-params.ts";

/** name_tiers.lang and name_anchors.lang of a language whose classes are those of English. */
const EVERY_LANGUAGE = "";

/**
 * The six disjoint sets of one word's matches, in classTier() order, as FTS5 text; a match by an own
 * name; and the other names' sets at or before the far larger records' bound, where no record is
 * found by an own name (they are all larger than the first that is): the tiers of any name apart.
 * FTS5 reads the whole of a set's first term when its NOT leaves nothing (the other names' words
 * of `club`, every club but none: 15 ms at 1M venues), whatever the rowids asked for.
 */
function disjointSets(word: string, fts: ResourceQueries<unknown>["fts"], language: Language) {
  const own = ownNames(fts, language);
  const [ownX, ownS, ownW] = [own.exact(word), own.starts(word), own.words(wordsOf([word]))];
  const [anyX, anyS, anyW] = [ANY_NAMES.exact(word), ANY_NAMES.starts(word), ANY_NAMES.words(wordsOf([word]))];
  const byOwn = anyOf([ownS, ownW]);
  const far = [anyX, butNot(anyS, anyX), butNot(anyW, anyS)];
  return {
    byOwn,
    sets: [
      ownX,
      butNot(ownS, ownX),
      butNot(ownW, ownS),
      butNot(anyX, byOwn),
      butNot(anyS, anyOf([anyX, byOwn])),
      butNot(anyW, anyOf([anyS, byOwn])),
    ],
    far: [...far, ...far],
  };
}

/**
 * The segments of the order, each a stretch of one set (its classTier()): per name tier, the other
 * names' far larger records (true), then the own names' set; then the rest of each other names' set.
 */
const SEGMENTS: readonly [tier: number, far: boolean][] = [
  ...NAME_TIER_LIST.flatMap((t): [number, boolean][] => [
    [classTier(OTHER, t), true],
    [classTier(OWN, t), false],
  ]),
  ...NAME_TIER_LIST.map((t): [number, boolean] => [classTier(OTHER, t), false]),
];

/** A segment's part of its set: all of it (an own names' set), its far larger records, or the rest. */
const [WHOLE, FAR, REST] = [0, 1, 2];

/**
 * The segments (seg, tier, before, size, base: the rank in its set of its first record), from the
 * sizes (CTE `params`) and the far larger records of each other names' set (CTE `promoted`), each
 * referred to once (promotedSql).
 */
function segmentsSql(): Sql {
  const shape = SEGMENTS.map(([tier, far], seg) => {
    const part = far ? FAR : tier < classTier(OTHER, EXACT) ? WHOLE : REST;
    return `(${seg}, ${tier}, ${part})`;
  });
  const size = raw(`CASE shape.column2 ${[0, 1, 2, 3, 4, 5].map((t) => `WHEN ${t} THEN s.tier${t}`).join(" ")} END`);
  return sql`SELECT *, sum(size) OVER (ORDER BY seg) - size AS before FROM (
      SELECT shape.column1 AS seg, shape.column2 AS tier,
             CASE shape.column3 WHEN ${int(WHOLE)} THEN ${size} WHEN ${int(FAR)} THEN f.n ELSE ${size} - f.n END AS size,
             CASE shape.column3 WHEN ${int(REST)} THEN f.n ELSE 0 END AS base
      FROM params s CROSS JOIN (VALUES ${raw(shape.join(", "))}) shape LEFT JOIN promoted f ON f.tier = shape.column2)`;
}

/**
 * The far larger records of each other names' set (tier, n): how many of it lie at or before the
 * bound, from the last anchor before it and at most an interval after that anchor. One reference to
 * `params`: SQLite expands a common table expression again at each reference, and refuses a
 * statement of a thousand cursors.
 */
function promotedSql(fts: Sql, kind: string, word: string, sets: readonly string[]): Sql {
  const tiers = NAME_TIER_LIST.map((t) => classTier(OTHER, t));
  const text = sql`CASE shape.column1 ${join(
    tiers.map((t) => sql`WHEN ${int(t)} THEN ${sets[t] ?? ""}`),
    " ",
  )} END`;
  const last = (column: string) =>
    sql`(SELECT ${raw(column)} FROM name_anchors WHERE kind = ${kind} AND prefix = ${word} AND lang = p.lang
         AND tier = shape.column1 AND pos <= p.b ORDER BY pos DESC LIMIT 1)`;
  const after = sql`(SELECT count(*) FROM ${fts} WHERE ${fts} MATCH ${text} AND rowid > coalesce(${last("pos")}, -1) AND rowid <= p.b)`;
  return sql`SELECT shape.column1 AS tier, CASE WHEN p.b IS NULL THEN 0 ELSE coalesce(${last("k")}, 0) * p.every + ${after} END AS n
    FROM params p CROSS JOIN (VALUES ${raw(tiers.map((t) => `(${t})`).join(", "))}) shape`;
}

/**
 * A segment's records from the anchor before the page (CTE anchor: one row per segment the page
 * overlaps), the far larger stretch's up to the bound; its first `skip` are before the page, fewer
 * than an anchor interval. `fromStart`: the page is the first, and the segment is not the rest of
 * an other names' set, so it is read from its first record (no skip). LIMIT cannot read the skip
 * of the joined anchor, and one more reference to it would expand it again (anchoredPositions).
 */
function segmentRead(
  fts: Sql,
  seg: number,
  text: string,
  perPage: number,
  upToBound: boolean,
  fromStart: boolean,
): Sql {
  const bound = upToBound ? raw(" AND f.rowid <= coalesce(anchor.b, -1)") : raw("");
  const interval = fromStart
    ? raw("")
    : raw(" + (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'name_anchor_every')");
  return sql`SELECT * FROM (SELECT ${int(seg)} AS o, f.rowid AS pos, anchor.skip AS skip FROM anchor CROSS JOIN ${fts} f
    WHERE anchor.seg = ${int(seg)} AND ${fts} MATCH ${text} AND f.rowid > anchor.after${bound}
    ORDER BY f.rowid LIMIT ${perPage}${interval})`;
}

/** The statement's plan: the broad word's sizes, the anchor interval and the far larger records' bound (one row, or none). */
function paramsSql(q: ResourceQueries<unknown>, word: string, language: Language, byOwn: string): Sql {
  const fts = raw(q.fts);
  const lang = language === "en" ? EVERY_LANGUAGE : language;
  const first = sql`(SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${byOwn} ORDER BY rowid LIMIT 1)`;
  return sql`SELECT s.*, CAST(m.value AS INTEGER) AS every, ${farLargerBound(q.fts, raw("first_own.own"))} AS b
    FROM (SELECT * FROM name_tiers WHERE kind = ${q.prefixKind} AND prefix = ${word} AND lang IN (${EVERY_LANGUAGE}, ${lang})
          ORDER BY lang DESC LIMIT 1) s
    CROSS JOIN meta m ON m.key = 'name_anchor_every' CROSS JOIN (SELECT ${first} AS own) first_own`;
}

/**
 * The common table expressions of a broad word's page: its sizes and far larger records' bound
 * (params), the far larger records of each other names' set (promoted), the segments, and the
 * anchor before the page in each segment it overlaps (anchor: seg, tier, b, every, skip, after).
 */
function anchorCtes<R>(q: ResourceQueries<R>, word: string, offset: number, language: Language): Sql {
  const perPage = ITEMS_PER_PAGE[q.resource];
  const { byOwn, far } = disjointSets(word, q.fts, language);
  const start = sql`s.base + CAST(max(0, ${offset} - s.before) AS INTEGER)`;
  return sql`params AS MATERIALIZED (${paramsSql(q, word, language, byOwn)}),
    promoted AS MATERIALIZED (${promotedSql(raw(q.fts), q.prefixKind, word, far)}),
    segments AS MATERIALIZED (${segmentsSql()}),
    anchor AS MATERIALIZED (SELECT s.seg, s.tier, p.b, p.every, ${start} % p.every AS skip,
        coalesce((SELECT pos FROM name_anchors WHERE kind = ${q.prefixKind} AND prefix = ${word} AND lang = p.lang
                  AND tier = s.tier AND k = ${start} / p.every), 0) AS after
      FROM segments s CROSS JOIN params p WHERE s.before < ${offset + perPage} AND s.before + s.size > ${offset})`;
}

/**
 * A broad word's page over several venue databases (src/query/merged-names.ts), from the main
 * database: the anchor before the page in each segment it overlaps (seg, tier, b, every, skip,
 * after), in the order of the segments; no row when the word is not broad.
 */
export const pageAnchorsSql = <R>(q: ResourceQueries<R>, word: string, offset: number, language: Language): Sql =>
  sql`WITH ${anchorCtes(q, word, offset, language)} SELECT * FROM anchor ORDER BY seg`;

/** A row of pageAnchorsSql(). */
export interface PageAnchor {
  seg: number;
  skip: number;
  after: number;
  b: number | null;
  every: number;
}

/**
 * A venue database's part of a broad word's page: each segment's first records after its anchor
 * (columns o: the segment, pos), as many as the page and the anchor's skip may take; merged in pos
 * order, the first `skip` of each segment dropped, the segments in order, they are the page.
 */
export function segmentReadsSql<R>(
  q: ResourceQueries<R>,
  word: string,
  language: Language,
  anchors: readonly PageAnchor[],
): Sql {
  const fts = raw(q.fts);
  const { sets, far } = disjointSets(word, q.fts, language);
  const reads = anchors.map((a) => {
    const [tier, upToBound] = SEGMENTS[a.seg] ?? [0, false];
    const bound = upToBound ? sql` AND rowid <= ${a.b ?? -1}` : raw("");
    const text = (upToBound ? far : sets)[tier] ?? "";
    return sql`SELECT * FROM (SELECT ${int(a.seg)} AS o, rowid AS pos FROM ${fts} WHERE ${fts} MATCH ${text}
      AND rowid > ${a.after}${bound} ORDER BY rowid LIMIT ${int(ITEMS_PER_PAGE[q.resource] + a.every)})`;
  });
  return unionAll(reads);
}

/** The one word of a name search without filters, a kind or an area, whose pages anchoredPositions() reads; else undefined. */
export function aloneWord(p: SearchParams): string | undefined {
  const word = p.nameWords.length === 1 ? p.nameWords[0] : undefined;
  return areaOf(p) === undefined && !hasFilters(p) && p.kind === undefined ? word : undefined;
}

/**
 * The positions of a one-word name search without filters or an area: a broad word's from its
 * anchors, any other's as tiered() reads them (each tier from its start); one statement for both.
 */
export function anchoredPositions<R>(
  q: ResourceQueries<R>,
  word: string,
  offset: number,
  language: Language,
): Sql | null {
  const tiers = tiersOf(word, 0, ownNames(q.fts, language));
  if (tiers.length === 0) return null;
  const perPage = ITEMS_PER_PAGE[q.resource];
  const fts = raw(q.fts);
  const { sets, far: farSets } = disjointSets(word, q.fts, language);
  const broad = raw("EXISTS (SELECT 1 FROM params)");
  const rest = (seg: number) => seg >= SEGMENTS.length - NAME_TIER_LIST.length;
  const reads = SEGMENTS.map(([tier, far], seg) =>
    segmentRead(fts, seg, (far ? farSets : sets)[tier] ?? "", perPage, far, offset === 0 && !rest(seg)),
  );
  const plain = bestTiers(q, tiers, null, sql` LIMIT CASE WHEN ${broad} THEN 0 ELSE ${offset + perPage} END`);
  return sql`WITH ${anchorCtes(q, word, offset, language)},
    ${rankedCtes(q.fts, plain)}
    ${numberedPage(
      sql`SELECT o, pos FROM (SELECT *, row_number() OVER (PARTITION BY o ORDER BY pos) AS r FROM (${unionAll(reads)})) WHERE r > skip
      UNION ALL SELECT k AS o, pos FROM ranked`,
      raw("o, pos"),
      { first: sql`CASE WHEN ${broad} THEN 0 ELSE ${offset} END`, size: perPage },
    )}`;
}
