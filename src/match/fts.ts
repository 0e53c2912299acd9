/**
 * FTS5 query text (docs/architecture.md#search-indexes): every MATCH of the worker is written with
 * these helpers, as plain text when the code knows the terms, or as an SQL expression that builds
 * the text when the terms come from the database (the tokens of a state found by its name). User
 * text reaches FTS5 only inside quoted phrases, and SQL only as bound values.
 */
import { nameToken } from "../data-contract/tokens.ts";
import { words } from "../data-contract/normalize.ts";
import { join, raw, sql, type Sql } from "../sql/sql.ts";

/** A token (or a word) as an FTS5 phrase: quoted, so nothing in it is FTS5 syntax. */
export function phrase(token: string): string {
  return `"${token.replaceAll('"', '""')}"`;
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

/** What `text` matches and `unless` does not. */
export const butNot = (text: string, unless: string): string => `(${text}) NOT (${unless})`;

/** A token no document has: a filter that matches nothing. */
export const NOTHING = phrase("__none");

/** The three name tiers of a normalized query (src/data-contract/ranking.ts), as FTS5 text. */
export interface NameTierText {
  /** Some name equals the query: its name token. */
  exact: string;
  /** Some name starts with the query: the name token as a prefix. */
  starts: string;
  /** Every query word starts a word of a name. */
  words: string;
}

export function nameTierText(normalized: string): NameTierText | null {
  const list = words(normalized);
  if (list.length === 0) return null;
  const token = nameToken(normalized);
  return { exact: phrase(token), starts: prefixOf(token), words: list.map(prefixOf).join(" ") };
}

/** An SQL expression: the phrases of a token that `from` builds from its rows (an OR list), or NOTHING without rows. */
export function tokensFrom(tokenSql: string, from: Sql): Sql {
  return sql`coalesce((SELECT '(' || group_concat('"' || ${raw(tokenSql)} || '"', ' OR ') || ')' ${from}), ${NOTHING})`;
}

/** SQL expressions of FTS5 text joined with AND. */
export const allOfSql = (parts: readonly Sql[]): Sql => join(parts, " || ' AND ' || ");

/** FTS5 text and filters (an SQL expression of FTS5 text, or null), as one SQL expression. */
export function withFilters(text: string, filters: Sql | null): Sql {
  return filters === null ? sql`${text}` : sql`${`(${text}) AND (`} || ${filters} || ')'`;
}
