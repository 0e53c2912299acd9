/**
 * Suggestions (docs/api.md#suggestions): the candidates of the text as typed so far
 * (candidates.ts), ordered by their likelihood (likelihood.ts), the first `limit` as records — one
 * statement, one round trip — each with why it is there (matched.ts): the statement reads beside
 * each record its class, its own name, its other names as written (src/data-contract/name-sets.ts)
 * and, for a record read in a place at the end of the text, which place that is. When nothing
 * matches, typos are forgiven as the search forgives them (§10.1: in the words before the last, and
 * in the last once it has 4 letters): the search's own fallback answers, in its order, and one more
 * statement reads the names of the records it gives.
 */
import type { Language } from "../data-contract/languages.ts";
import { readNameTexts } from "../data-contract/name-sets.ts";
import type { Resource } from "../params/paging.ts";
import type { SearchParams } from "../params/search-params.ts";
import { pageSelect, type Page } from "../query/records.ts";
import type { ResourceQueries, Runner } from "../query/resource.ts";
import { runSearch } from "../query/search.ts";
import { united } from "../query/merged-rows.ts";
import type { Merges } from "../query/trips.ts";
import { int, num, numbered, raw, sql, type Sql } from "../sql/sql.ts";
import { candidatesSql } from "./candidates.ts";
import { READ_IN_PLACE, scoredSql } from "./likelihood.ts";
import { matchedName, type Matched } from "./matched.ts";
import { mergedRows } from "./merge.ts";
import { placesReadOf, placesReadSql, type PlacesRead } from "./ways.ts";
import type { SuggestParams } from "./params.ts";

/** A suggestion: its record, and why it is there. */
export type Suggested<R> = R & { matched: Matched };

/** The place a record was read in: its city (a venue's), its state, or its country. */
type PlaceKind = "city" | "state" | "country";

/** Per resource: the table of its names as written, its own name, and the columns of the page that name its places. */
const NAMES = {
  cities: { texts: "city_name_texts", own: "c.name", place: { city: "", state: "state", country: "country_name" } },
  venues: {
    texts: "venue_name_texts",
    own: "v.name",
    place: { city: "city_name", state: "city_state", country: "city_country_name" },
  },
} as const satisfies Record<Resource, { texts: string; own: string; place: Record<PlaceKind, string> }>;

/**
 * The records of the page table `page` (pos, rank, dist, cls), with what says why each is there:
 * columns cls, own_name, name_texts and place_kind (`kind`: an SQL expression of the place a record
 * of class READ_IN_PLACE was read in).
 */
function pageWithNames(resource: Resource, language: Language, kind: Sql | null, order: Sql = raw("")): Sql {
  const placeKind = kind === null ? raw("NULL") : sql`CASE WHEN h.cls = ${int(READ_IN_PLACE)} THEN ${kind} END`;
  const extra = sql`${order}h.cls AS cls, ${raw(NAMES[resource].own)} AS own_name, nt.names AS name_texts, ${placeKind} AS place_kind, `;
  return pageSelect(resource, language, extra, raw(` LEFT JOIN ${NAMES[resource].texts} nt ON nt.pos = h.pos`));
}

/** The one statement of the suggestions: the records of the first `limit` candidates by likelihood; null for no words. */
export function suggestStatement<R>(
  q: ResourceQueries<R>,
  s: SuggestParams,
  language: Language,
  wholeWay?: number,
  read?: PlacesRead,
): Sql | null {
  const candidates = candidatesSql(q, s, language, wholeWay, read);
  if (candidates === null) return null;
  const positions = sql`SELECT pos, -score AS rank, dist, cls FROM (${scoredSql(q.resource, s.focus, candidates.select)})
                        ORDER BY rank, pos LIMIT ${num(s.limit, "limit")}`;
  // Each row says its place in the order (merge.ts merges the lists of several venue databases by it).
  const page = pageWithNames(
    q.resource,
    language,
    candidates.place?.kind ?? null,
    raw("h.rank AS by_rank, h.pos AS by_pos, "),
  );
  return numbered(sql`WITH ${candidates.tables}, page AS (${positions}) ${page}`);
}

/** The records of these ids, in their order, with their names (pageWithNames), none read in a place. */
function namesStatement(resource: Resource, ids: readonly string[], language: Language): Sql {
  const table = raw(resource);
  const positions = sql`SELECT x.pos AS pos, j.key AS rank, NULL AS dist, NULL AS cls
                        FROM json_each(${JSON.stringify(ids)}) j JOIN ${table} x ON x.id = j.value`;
  return numbered(sql`WITH page AS (${positions}) ${pageWithNames(resource, language, null)}`);
}

/** Why a record of the page is there: the name of it that holds `words`, and the place it was read in. */
function matchedOf(resource: Resource, row: Record<string, unknown>, words: readonly string[], kind: unknown): Matched {
  const shown = [String(row.name ?? ""), String(row.own_name ?? "")];
  const matched = matchedName(words, shown, () => readNameTexts(row.name_texts));
  const column = kind === "city" || kind === "state" || kind === "country" ? NAMES[resource].place[kind] : "";
  const place = column === "" ? null : row[column];
  return typeof place === "string" && place !== "" ? { ...matched, place } : matched;
}

/** The place a search's reading read at the end of the text (its filters beyond the asked ones), or null. */
function placeKindOf(asked: SearchParams, read: SearchParams | undefined): PlaceKind | null {
  if (read === undefined) return null;
  if (read.cityId !== asked.cityId) return "city";
  if (read.stateCode !== asked.stateCode) return "state";
  return read.country === asked.country ? null : "country";
}

/**
 * What runSuggest may be told besides its runner: `each`, the venue databases a merge asks
 * (src/d1/route.ts; the one runner alone when not given); `merges`, how the typo fallback's search
 * is merged from them (src/query/merged-names.ts; else it runs in the one runner); `placesFrom`,
 * the main database when the venue databases answer a text that may end with a place; `wholeWay`,
 * candidates.ts's.
 */
interface SuggestOptions {
  each?: readonly Runner[];
  merges?: Merges | undefined;
  /** Where the places the text's end may be are read first, apart (ways.ts: placesReadSql); else in the statement. */
  placesFrom?: Runner | undefined;
  wholeWay?: number;
}

/** The places of the text's end, read apart in `from` (one round trip), where it reads any. */
async function placesReadIn<R>(q: ResourceQueries<R>, s: SuggestParams, language: Language, from: Runner | undefined) {
  const statement = from === undefined ? null : placesReadSql(q.resource, s, language);
  if (from === undefined || statement === null) return undefined;
  const [found] = await from.run(`${q.resource} suggestions: the places read`, [numbered(statement)]);
  return placesReadOf(found?.rows ?? []);
}

export async function runSuggest<R>(
  q: ResourceQueries<R>,
  session: Runner,
  s: SuggestParams,
  language: Language,
  { each = [session], merges, placesFrom, wholeWay }: SuggestOptions = {},
): Promise<Page<Suggested<R>>> {
  const read = await placesReadIn(q, s, language, placesFrom);
  const statement = suggestStatement(q, s, language, wholeWay, read);
  if (statement === null) return { page: 1, total: 0, items: [], match: "exact" };
  const rows = await mergedRows(each, `${q.resource} suggestions`, statement, s.limit);
  const words = s.search.nameWords;
  const items = rows.map((row): Suggested<R> => {
    const placed = Number(row.cls) === READ_IN_PLACE;
    return {
      ...q.record(row),
      matched: matchedOf(q.resource, row, placed ? words.slice(0, -1) : words, row.place_kind),
    };
  });
  if (items.length > 0 || !s.search.typos) return { page: 1, total: items.length, items, match: "exact" };
  return forgiven(q, session, s, language, merges === undefined ? undefined : { merges, each });
}

/** The typo fallback's suggestions: the search's first `limit`, each with the names that say why. */
async function forgiven<R>(
  q: ResourceQueries<R>,
  session: Runner,
  s: SuggestParams,
  language: Language,
  merged?: { merges: Merges; each: readonly Runner[] },
): Promise<Page<Suggested<R>>> {
  const found = await runSearch(q, session, { ...s.search, page: 1 }, language, merged?.merges);
  const names = merged === undefined ? session : united(merged.each);
  const items = await withMatched(q, names, { ...found, items: found.items.slice(0, s.limit) }, s.search, language);
  return { ...found, total: items.length, items };
}

/**
 * The records of a search's page, each with why it is there (docs/api.md#which-name-matched): their
 * names read in one more statement, the words of the search that answered (a place read at the end
 * of the text left out).
 */
export async function withMatched<R>(
  q: ResourceQueries<R>,
  session: Runner,
  found: Page<R>,
  asked: SearchParams,
  language: Language,
): Promise<Suggested<R>[]> {
  if (found.items.length === 0) return [];
  const ids = found.items.map((r) => q.id(r));
  const [result] = await session.run(`${q.resource} names that matched`, [namesStatement(q.resource, ids, language)]);
  const rows = new Map((result?.rows ?? []).map((row) => [String(row.id), row]));
  const words = found.readAs?.nameWords ?? asked.nameWords;
  const kind = placeKindOf(asked, found.readAs);
  return found.items.map((r, i) => ({
    ...r,
    matched: matchedOf(q.resource, rows.get(ids[i] ?? "") ?? {}, words, kind),
  }));
}
