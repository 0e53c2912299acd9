/**
 * The records a text as it is being typed may mean (docs/api.md#suggestions), as the candidates of
 * the likelihood order (likelihood.ts): each way of reading the text (ways.ts) is read apart, the
 * first `limit` records by `pos` (the default order: the biggest cities, the venues of the
 * biggest) from the search index.
 *
 * Every way is split further where the score would not fall with pos inside it: by the bonus of a
 * venue's kind, and, with a focus, by bands of distance from it (likelihood.ts). So within each
 * part the score falls with pos, and the first `limit` of each part hold the first `limit` of the
 * whole order: the same list, in the same order, at every limit. Every part holds the request's
 * filters, and a box is applied before the first `limit` are taken, so filters never empty a list.
 *
 * The parts are rows of the statement (a bound JSON list), each read by one correlated search of
 * the index, so that the statement's size does not grow with their number (SQLite allocates a
 * cursor per table of each copy of a subquery, up to a limit). The likeliest parts are read first
 * (a name starting with the text, in the nearest band): the `limit`-th best score among them is a
 * floor of the answer's, so a part whose highest possible score is below it (its class, kind and
 * band at the largest city's population) cannot reach the answer, and is not searched. The other
 * parts of the nearest band are read next, as far as that floor lets them, and the floor of all
 * those read so far prunes the farther bands: where no name starts with the text near the focus,
 * the words found there keep the far bands of words from being searched.
 */
import type { Language } from "../data-contract/languages.ts";
import { kindToken } from "../data-contract/tokens.ts";
import { insideTokens } from "../geo/decompose.ts";
import { coverText, inAreaSql, narrowingCover } from "../geo/area.ts";
import { ftsFilters } from "../match/filters.ts";
import { anyOf, NOTHING, phrase } from "../match/fts.ts";
import { oneNameNeeded, oneNameOf, oneNameText } from "../match/one-name.ts";
import { CANDIDATE_POS, keptOfFirst, matchesOf } from "../match/capped.ts";
import { placedReading } from "../geo/box-page.ts";
import type { ResourceQueries } from "../query/resource.ts";
import { int, num, raw, sql, type Sql } from "../sql/sql.ts";
import {
  bandPenalty,
  classPenalty,
  FOCUS_BANDS_KM,
  focusDistance,
  KIND_LEVELS,
  LARGEST_POPULATION,
  scoredSql,
  STARTS,
} from "./likelihood.ts";
import type { SuggestParams } from "./params.ts";
import { waysOf, type PlaceRead, type PlacesRead, type Way } from "./ways.ts";

/**
 * A way with at most this many matches within the filters and the box is read whole, once: its
 * records are all candidates, where its parts would each search the index again for them (a text
 * of many words in every kind's level and band of distance).
 */
const WHOLE_WAY = 100;

type Queries = Pick<ResourceQueries<unknown>, "resource" | "fts" | "places">;

/**
 * Cells wholly inside the band before a band, at most (FTS5 leaves their records out, so that a
 * band's search does not read the nearer ones first).
 */
const NEARER_CELLS = 64;

/** A band of distance from the focus: the cells of its cover and of the nearer band, its limits (km). */
interface Band {
  cover: string | null;
  nearer: string | null;
  lo: number | null;
  hi: number | null;
  penalty: number;
}

/** FTS5 text of the cells wholly inside a circle, or a token no document has. */
function nearerText(focus: { lat: number; lng: number }, radiusKm: number): string {
  const tokens = insideTokens({ lat: focus.lat, lng: focus.lng, radiusKm }, NEARER_CELLS);
  return tokens.length === 0 ? NOTHING : anyOf(tokens.map(phrase));
}

/** The bands of distance from the focus; one, everywhere, without a focus. */
function bands(s: SuggestParams): Band[] {
  const focus = s.focus;
  if (focus === undefined) return [{ cover: null, nearer: null, lo: null, hi: null, penalty: 0 }];
  return [0, ...FOCUS_BANDS_KM].map((lo, i) => {
    const hi = FOCUS_BANDS_KM[i] ?? null;
    return {
      cover: hi === null ? null : coverText({ lat: focus.lat, lng: focus.lng, radiusKm: hi }),
      nearer: i === 0 ? null : nearerText(focus, lo),
      lo: i === 0 ? null : lo,
      hi,
      penalty: bandPenalty(i),
    };
  });
}

/** A venue's kind levels as FTS5 text, with their bonus; one part, every kind, for cities or a kind asked for. */
function kindParts(q: Queries, s: SuggestParams): { text: string | null; bonus: number }[] {
  if (q.resource !== "venues") return [{ text: null, bonus: 0 }];
  const asked = s.search.kind;
  if (asked !== undefined) {
    return [{ text: null, bonus: KIND_LEVELS.find((l) => l.kinds.some((k) => k === asked))?.bonus ?? 0 }];
  }
  return KIND_LEVELS.map((l) => ({ text: anyOf(l.kinds.map((k) => phrase(kindToken(k)))), bonus: l.bonus }));
}

/** A part: a way in one kind's level and one band, as a row of the statement (parts). */
interface Part {
  /** Its way's index in the ways (waysSql), whose text, class and readings it reads. */
  way: number;
  /** FTS5 text ANDed with the way's: the kind's, the band's cover. */
  and: string | null;
  nearer: string | null;
  lo: number | null;
  hi: number | null;
  /** The highest score of its records, less the log of the largest population. */
  rest: number;
  /** When it is read (STAGES). */
  stage: number;
}

/**
 * The stages the parts are read in: the likeliest (a name starting with the text, in the nearest
 * band), whose floor prunes the others; the rest of the nearest band (every other part without a
 * focus); with a focus, the farther bands, pruned by the floor of all those read before.
 */
const STAGES = { likeliest: 0, nearest: 1, farther: 2 } as const;

/** The parts of `ways`, each in each of `kinds` (kindParts()) and `bandList` (bands()). */
function partsOf(ways: readonly Way[], kinds: ReturnType<typeof kindParts>, bandList: readonly Band[]): Part[] {
  return ways.flatMap((w, way) =>
    kinds.flatMap((kind) =>
      bandList.map((band, b): Part => {
        const and = [kind.text, band.cover].filter((t) => t !== null);
        return {
          way,
          and: and.length === 0 ? null : and.join(" AND "),
          nearer: band.nearer,
          lo: band.lo,
          hi: band.hi,
          rest: kind.bonus - classPenalty(w.cls) - band.penalty,
          stage: b > 0 ? STAGES.farther : w.cls <= STARTS ? STAGES.likeliest : STAGES.nearest,
        };
      }),
    ),
  );
}

/** The texts the parts read, computed once: the place read (tp), the filters (f), the largest population (top). */
function textsSql(q: Queries, s: SuggestParams, place: PlaceRead | null): Sql {
  const filters = ftsFilters(s.search, q.fts) ?? raw("NULL");
  const texts = sql`texts AS MATERIALIZED (SELECT ${place?.text ?? raw("NULL")} AS tp, ${filters} AS f, ${LARGEST_POPULATION} AS top)`;
  return place === null ? texts : sql`${place.tables}, ${texts}`;
}

/**
 * The parts of the ways not read whole as rows: class, FTS5 text (the way's and the part's), band
 * limits, readings, highest score, first.
 */
function partsSql(parts: readonly Part[], whole: number | null): Sql {
  const all = raw("'(' || w.text || ')' || coalesce(' AND ' || (value ->> 'and'), '')");
  return sql`parts AS MATERIALIZED (
    SELECT w.cls AS cls, value ->> 'lo' AS lo, value ->> 'hi' AS hi, w.held AS held,
           value ->> 'stage' AS stage, log(texts.top + 10) + (value ->> 'rest') AS highest,
           CASE WHEN value ->> 'nearer' IS NULL THEN ${all} ELSE '(' || ${all} || ') NOT ' || (value ->> 'nearer') END AS text
    FROM json_each(${JSON.stringify(parts)}) CROSS JOIN texts JOIN ways w ON w.way = value ->> 'way'
    ${whole === null ? raw("") : sql`WHERE json_array_length(w.found) > ${int(whole)}`})`;
}

/**
 * The records of `candidates` (a SELECT of pos in pos order, over the columns of `p`, a part or a
 * way) that the filters keep, as a JSON list: within the box, one of their names holding the way's
 * readings, and with `inBand`, within the part's band of distance from the focus; the first
 * `limit` of them when given.
 */
function keptSql(q: Queries, s: SuggestParams, candidates: Sql, inBand: boolean, limit: Sql | null): Sql {
  const held = sql`(p.held IS NULL OR ${oneNameOf(q.fts, CANDIDATE_POS, raw("p.held"))})`;
  const first = (kept: Sql) =>
    sql`(SELECT json_group_array(pos) FROM (SELECT pos FROM (${kept})${limit === null ? raw("") : sql` LIMIT ${limit}`}))`;
  if (s.focus === undefined && s.search.box === undefined) return first(keptOfFirst(candidates, held));
  const { lat, lng } = q.places;
  const inBox = s.search.box === undefined ? raw("1") : inAreaSql(s.search.box, lat, lng);
  const d = focusDistance(s.focus, lat, lng);
  const band = inBand
    ? sql`(p.lo IS NULL OR ${d} > p.lo OR (${d} IS NULL AND p.hi IS NULL)) AND (p.hi IS NULL OR ${d} <= p.hi)`
    : raw("1");
  return first(keptOfFirst(candidates, sql`${inBox} AND ${band} AND ${held}`, placedReading(q.places)));
}

/** The first `limit` records of part `p` by pos, as a JSON list: a correlated search of the index. */
const partSql = (q: Queries, s: SuggestParams): Sql =>
  keptSql(q, s, matchesOf(q.fts, raw("p.text")), true, num(s.limit, "limit"));

/**
 * The ways as rows (way, cls, held, text, found): `text` their FTS5 text within the filters and the
 * box, `found` its first `whole` + 1 matches, by one search of the index each (NULL when no way is
 * read whole).
 */
function waysSql(q: Queries, s: SuggestParams, ways: readonly Way[], whole: number | null): Sql {
  const rows = ways.map((w) => ({
    cls: w.cls,
    text: w.text,
    held: oneNameNeeded(w.readings) ? oneNameText(w.readings) : null,
  }));
  const cover = s.search.box === undefined ? null : narrowingCover(s.search.box, q.places.everyPlaced);
  const box = cover === null ? raw("''") : sql`' AND ' || ${cover}`;
  const text = sql`'(' || coalesce(value ->> 'text', texts.tp) || ')' || coalesce(' AND (' || texts.f || ')', '') || ${box}`;
  const first = sql`SELECT pos FROM (${matchesOf(q.fts, raw("w.text"))}) LIMIT ${int((whole ?? 0) + 1)}`;
  const found = whole === null ? raw("NULL") : sql`(SELECT json_group_array(pos) FROM (${first}))`;
  return sql`ways AS MATERIALIZED (SELECT w.*, ${found} AS found FROM (
    SELECT key AS way, value ->> 'cls' AS cls, value ->> 'held' AS held, ${text} AS text
    FROM json_each(${JSON.stringify(rows)}) CROSS JOIN texts) w)`;
}

/** The records of the ways read whole (rows pos, cls): every match they found that the filters keep. */
function wholeSql(q: Queries, s: SuggestParams, whole: number): Sql {
  const found = keptSql(q, s, raw("SELECT value AS pos FROM json_each(p.found)"), false, null);
  return sql`SELECT j.value AS pos, p.cls AS cls
             FROM ways p, json_each(CASE WHEN json_array_length(p.found) <= ${int(whole)} THEN ${found} ELSE '[]' END) j`;
}

/**
 * The candidates: the tables of a WITH (`tables`) and a SELECT of them whose rows are (pos, cls),
 * each part's first `limit` records by pos within the filters, a record once with its best class;
 * and the place read at the end of the text, whose tables are among them. Null for a text without
 * words. Where a way has several parts, a way of at most `wholeWay` matches is read whole (0: every
 * way by its parts, as the tests compare). `read`: the places of the text's end, read apart (ways.ts).
 */
export function candidatesSql(
  q: Queries,
  s: SuggestParams,
  language: Language,
  wholeWay = WHOLE_WAY,
  read?: PlacesRead,
): { tables: Sql; select: Sql; place: PlaceRead | null } | null {
  const { ways, place } = waysOf(q.resource, s, language, read);
  if (ways.length === 0) return null;
  // Each band's cells are worked out once (a circle's cover): every way's parts read them.
  const [kinds, bandList] = [kindParts(q, s), bands(s)];
  const whole = kinds.length * bandList.length > 1 ? wholeWay : null;
  const stage = (n: number, floor: string) =>
    sql`SELECT j.value AS pos, p.cls AS cls FROM parts p,
          json_each(CASE WHEN coalesce((SELECT s FROM ${raw(floor)}), -1e9) <= p.highest THEN ${partSql(q, s)} ELSE '[]' END) j
        WHERE p.stage = ${int(n)}`;
  const floorOf = (candidates: string) => {
    const scored = scoredSql(q.resource, s.focus, raw(`SELECT pos, min(cls) AS cls FROM (${candidates}) GROUP BY pos`));
    return sql`SELECT score AS s FROM (${scored}) ORDER BY score DESC LIMIT 1 OFFSET ${num(s.limit, "limit")} - 1`;
  };
  // Without a focus, one band: its other parts are read once, beside the likeliest.
  const farther = bandList.length > 1;
  const nearest = stage(STAGES.nearest, "floor");
  const tables = sql`${textsSql(q, s, place)}, ${waysSql(q, s, ways, whole)}, ${partsSql(partsOf(ways, kinds, bandList), whole)},
    likeliest AS MATERIALIZED (
      SELECT j.value AS pos, p.cls AS cls FROM parts p, json_each(${partSql(q, s)}) j WHERE p.stage = ${int(STAGES.likeliest)}
      ${whole === null ? raw("") : sql`UNION ALL ${wholeSql(q, s, whole)}`}),
    floor AS MATERIALIZED (${floorOf("SELECT * FROM likeliest")})${
      farther
        ? sql`, nearest AS MATERIALIZED (${nearest}),
          nearest_floor AS MATERIALIZED (${floorOf("SELECT * FROM likeliest UNION ALL SELECT * FROM nearest")})`
        : raw("")
    }`;
  const rest = farther
    ? sql`SELECT pos, cls FROM nearest UNION ALL ${stage(STAGES.farther, "nearest_floor")}`
    : nearest;
  const select = sql`SELECT pos, min(cls) AS cls FROM (SELECT pos, cls FROM likeliest UNION ALL ${rest}) GROUP BY pos`;
  return { tables, select, place };
}
