/**
 * FTS5 query text (docs/architecture.md#search-indexes): every MATCH of the worker is written with
 * these helpers, as plain text when the code knows the terms, or as an SQL expression that builds
 * the text when the terms come from the database (the tokens of a state found by its name). User
 * text reaches FTS5 only inside quoted phrases, and SQL only as bound values.
 */
import { startsOf } from "../data-contract/name-index.ts";
import { ANY_NAME, nameToken, type WordTokens } from "../data-contract/tokens.ts";
import { words } from "../data-contract/normalize.ts";
import { join, literal, raw, sql, type Sql } from "../sql/sql.ts";

/** A token (or a word) as an FTS5 phrase: quoted, so nothing in it is FTS5 syntax. */
export function phrase(token: string): string {
  // Most tokens hold no quote: the typo fallback writes thousands of phrases a request.
  return token.includes('"') ? `"${token.replaceAll('"', '""')}"` : `"${token}"`;
}

/** Every token that starts with `word`. */
export const prefixOf = (word: string): string => `${phrase(word)}*`;

/** Any of the parts. Parenthesized: FTS5 needs an explicit AND next to a group, and AND binds before OR. */
export const anyOf = (parts: readonly string[]): string => `(${parts.map((p) => `(${p})`).join(" OR ")})`;

/**
 * Any of the words as prefixes. A word that starts with another of them is left out: every token
 * it matches the other matches too, and FTS5 reads each prefix's doclist whole.
 */
export function anyPrefixOf(words: readonly string[]): string {
  const distinct = [...new Set(words)];
  return anyOf(distinct.filter((w) => !distinct.some((o) => o !== w && w.startsWith(o))).map(prefixOf));
}

/** The longest start that every word of a list has, by code point ("" when their first letters differ). */
function commonStart(list: readonly string[]): string {
  let common = list[0] ?? "";
  for (const word of list) {
    let i = 0;
    while (i < common.length && common.charCodeAt(i) === word.charCodeAt(i)) i++;
    // Not between the two halves of a character outside the BMP.
    const high = common.charCodeAt(i - 1);
    if (i < common.length && high >= 0xd800 && high <= 0xdbff) i--;
    common = common.slice(0, i);
  }
  return common;
}

/**
 * Where several words of a text may take the same words of a name, what the name must have: per
 * start `a` of the words, the words all of whose alternatives start with `a`, as [count, a] where
 * at least two do — as many of the name's words must start with `a`, since each of those words takes
 * one of its own. A start that a longer one asked as often implies is left out. In the order the
 * text's words name them (each word's starts shortest first). The starts all of a word's
 * alternatives have are those of their common start, so each word is read once: the suggestions'
 * typo fallback asks this of hundreds of readings a request.
 */
function sharedNeeded(groups: readonly (readonly string[])[]): [count: number, start: string][] {
  if (groups.length < 2) return [];
  const commons = groups.map(commonStart).filter((c) => c !== "");
  // Most readings' words start with letters of their own: nothing shared.
  const firsts = new Set(commons.map((c) => c.codePointAt(0)));
  if (firsts.size === commons.length) return [];
  const counts = new Map<string, number>();
  for (const common of commons) for (const a of startsOf(common)) counts.set(a, (counts.get(a) ?? 0) + 1);
  const flat = groups.flat();
  const needed = [...counts]
    .filter(([, n]) => n >= 2)
    .map(([a, n]) => ({ n, a, at: flat.findIndex((w) => w.startsWith(a)) }))
    .sort((x, y) => x.at - y.at || x.a.length - y.a.length)
    .map(({ n, a }): [number, string] => [n, a]);
  return needed.filter(([n, a]) => !needed.some(([m, b]) => b !== a && b.startsWith(a) && m >= n));
}

/** Whether several words of a text may take the same words of a name (everyWordText asks the name for more). */
export const wordsShared = (groups: readonly (readonly string[])[]): boolean => sharedNeeded(groups).length > 0;

/**
 * FTS5 text: each word of a text starts a word of its own of a name (docs/api.md#matching), per
 * word one of its alternatives (a typo's corrections) as a prefix; and where several words may take
 * the same words of the name, a start the name's words share that many times
 * (src/data-contract/name-index.ts sharedStarts): `al basrah al` is not "Al Başrah", `koeln kol` not
 * "Köln" (one word written two ways). For words of one alternative each, in a name whose words are
 * written one way, enough of the name's words starting with each typed word is enough (Hall's
 * theorem: the sets of words that prefixes fit nest as the prefixes do); the starts the typed words
 * share besides also keep two ways of writing one word from standing for two words. `scope`: the
 * words of every name, or a city's own name's.
 */
export function everyWordText(groups: readonly (readonly string[])[], scope: WordTokens = ANY_NAME): string {
  const words = groups.map((g) =>
    g.length === 1 ? prefixOf(scope.word(g[0] ?? "")) : anyPrefixOf(g.map((w) => scope.word(w))),
  );
  const shared = sharedNeeded(groups).map(([n, start]) => prefixOf(scope.shared(n, start)));
  return [...words, ...shared].join(" AND ");
}

/** What `text` matches and `unless` does not. */
export const butNot = (text: string, unless: string): string => `(${text}) NOT (${unless})`;

/** A token no document has: a filter that matches nothing. */
export const NOTHING = phrase("__none");

/** NOTHING in a statement, written in its text (literal()): a statement may use it many times. */
export const NOTHING_SQL = literal(NOTHING);

/** The three name tiers of a normalized query (src/data-contract/ranking.ts), as FTS5 text. */
export interface NameTierText {
  /** Some name equals the query: its name token. */
  exact: string;
  /** Some name starts with the query: the name token as a prefix. */
  starts: string;
  /** Every query word starts a word of a name, each its own. */
  words: string;
}

export function nameTierText(normalized: string): NameTierText | null {
  const list = words(normalized);
  if (list.length === 0) return null;
  const token = nameToken(normalized);
  return { exact: phrase(token), starts: prefixOf(token), words: everyWordText(list.map((w) => [w])) };
}

/** An SQL expression: the phrases of a token that `from` builds from its rows (an OR list), or NOTHING without rows. */
export function tokensFrom(tokenSql: string, from: Sql): Sql {
  return sql`coalesce((SELECT '(' || group_concat('"' || ${raw(tokenSql)} || '"', ' OR ') || ')' ${from}), ${NOTHING_SQL})`;
}

/** SQL expressions of FTS5 text joined with AND. */
export const allOfSql = (parts: readonly Sql[]): Sql => join(parts, " || ' AND ' || ");

/** FTS5 text and filters (an SQL expression of FTS5 text, or null), as one SQL expression. */
export function withFilters(text: string, filters: Sql | null): Sql {
  return filters === null ? sql`${text}` : sql`${`(${text}) AND (`} || ${filters} || ')'`;
}
