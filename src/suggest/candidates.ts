/**
 * The records a text as it is being typed may mean (docs/api.md#suggestions), as the candidates of
 * the likelihood order (likelihood.ts): for each way of reading the text, the first few records by
 * `pos` (the default order: the biggest cities, the venues of the biggest) from the search index,
 * each with its class:
 *
 * - NAME_STARTS: a name starts with the text (its name token as a prefix);
 * - WORDS_START: every word starts a word of a name, the last one as typed so far;
 * - READ_IN_PLACE: the end of the text read as a place (docs/api.md#a-place-in-the-text) while it is
 *   typed — a country or a region written in full (`portland or`), or, for venues, the start of a
 *   city's name once it has 3 letters (`club ber`: the clubs of Berlin; before that, `wolf t` put
 *   the wolf clubs of Tokyo before Wolf Trap, measured by `npm run bench -- --suggest`);
 *
 * each also around the focus, when there is one (the cells covering 150 km and 750 km of it).
 * Every MATCH holds the filters of the request, so filters never empty a list of candidates.
 */
import { nameToken, cityTokenSql, countryTokenSql, stateTokenSql } from "../data-contract/tokens.ts";
import { coverText } from "../geo/area.ts";
import { ftsFilters } from "../match/filters.ts";
import { prefixOf, tokensFrom } from "../match/fts.ts";
import type { Resource } from "../params/paging.ts";
import { join, raw, sql, type Sql } from "../sql/sql.ts";
import { NAME_STARTS, READ_IN_PLACE, WORDS_START } from "./likelihood.ts";
import type { SuggestParams } from "./params.ts";

/** The letters of a city's name typed before the end of the text is read as that city. */
const CITY_TYPED_LETTERS = 3;
/** Radii around a focus whose records are candidates besides the biggest anywhere, km. */
const FOCUS_KM = [150, 750];

interface Way {
  /** FTS5 text (an SQL expression of it). */
  text: Sql;
  cls: number;
}

const ftsOf = (resource: Resource) => (resource === "venues" ? "venues_fts" : "cities_fts");

/** The text's words as prefixes: all but the last as typed too (a word is a prefix of itself). */
const wordsText = (words: readonly string[]): string => words.map(prefixOf).join(" ");

/** The ways of reading the end of the text as a place, for the words before it. */
function placeWays(resource: Resource, words: readonly string[]): Way[] {
  if (words.length < 2) return [];
  const rest = wordsText(words.slice(0, -1));
  const last = words.at(-1) ?? "";
  const regions = tokensFrom(
    `CASE admin1_code WHEN '' THEN ${countryTokenSql("country_code")} ELSE ${stateTokenSql("country_code", "admin1_code")} END`,
    sql`FROM (SELECT country_code, admin1_code FROM place_names WHERE form = ${last} ORDER BY rank LIMIT 2)`,
  );
  const ways: Way[] = [{ text: sql`${`${rest} AND `} || ${regions}`, cls: READ_IN_PLACE }];
  if (resource === "venues" && [...last].length >= CITY_TYPED_LETTERS) {
    const cities = sql`FROM (SELECT rowid FROM cities_fts WHERE cities_fts MATCH ${prefixOf(nameToken(last))} ORDER BY rowid LIMIT 2)`;
    ways.push({ text: sql`${`${rest} AND `} || ${tokensFrom(cityTokenSql("rowid"), cities)}`, cls: READ_IN_PLACE });
  }
  return ways;
}

/** FTS5 texts (SQL expressions of them) that must all match. */
function allOf(parts: readonly (Sql | null)[]): Sql {
  const present = parts.filter((p): p is Sql => p !== null);
  return present.length === 1
    ? (present[0] ?? raw("''"))
    : join(
        present.map((p) => sql`'(' || ${p} || ')'`),
        " || ' AND ' || ",
      );
}

/** Every way of reading the text, each as FTS5 text with its class, also around the focus. */
function ways(resource: Resource, s: SuggestParams): Way[] {
  const words = s.search.nameWords;
  if (words.length === 0) return [];
  const base: Way[] = [
    { text: sql`${prefixOf(nameToken(s.search.name))}`, cls: NAME_STARTS },
    { text: sql`${wordsText(words)}`, cls: WORDS_START },
    ...(s.search.places ? placeWays(resource, words) : []),
  ];
  const focus = s.focus;
  if (focus === undefined) return base;
  const around = FOCUS_KM.map((radiusKm) => sql`${coverText({ lat: focus.lat, lng: focus.lng, radiusKm })}`);
  return [...base, ...around.flatMap((area) => base.map((w) => ({ ...w, text: allOf([w.text, area]) })))];
}

/**
 * The candidates as rows (pos, cls): each way's first `n` records by pos within the filters, a
 * record once with its best class; null for a text without words.
 */
export function candidatesSql(resource: Resource, s: SuggestParams, n: number): Sql | null {
  const fts = raw(ftsOf(resource));
  const filters = ftsFilters(s.search, ftsOf(resource));
  const box = s.search.box === undefined ? null : sql`${coverText(s.search.box)}`;
  const all = ways(resource, s).map(
    (w) =>
      sql`SELECT rowid AS pos, ${raw(String(w.cls))} AS cls FROM (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ${allOf([w.text, filters, box])} ORDER BY rowid LIMIT ${n})`,
  );
  if (all.length === 0) return null;
  return sql`SELECT pos, min(cls) AS cls FROM (${unionAll(all)}) GROUP BY pos`;
}

/** D1 allows 5 terms in a compound SELECT: more are nested, 5 in each. */
const COMPOUND_TERMS = 5;

function unionAll(parts: readonly Sql[]): Sql {
  if (parts.length <= COMPOUND_TERMS) return join(parts, " UNION ALL ");
  const groups: Sql[] = [];
  for (let i = 0; i < parts.length; i += COMPOUND_TERMS) {
    groups.push(sql`SELECT * FROM (${join(parts.slice(i, i + COMPOUND_TERMS), " UNION ALL ")})`);
  }
  return unionAll(groups);
}
