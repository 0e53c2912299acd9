/**
 * Suggestions (docs/api.md#suggestions): the candidates of the text as typed so far
 * (candidates.ts), ordered by their likelihood (likelihood.ts), the first `limit` as records — one
 * statement, one round trip. When nothing matches, typos are forgiven as the search forgives them
 * (§10.1: in the words before the last, and in the last once it has 4 letters): the search's own
 * fallback answers, in its order.
 */
import type { Language } from "../data-contract/languages.ts";
import type { Page } from "../query/records.ts";
import type { ResourceQueries, Runner } from "../query/resource.ts";
import { runSearch } from "../query/search.ts";
import { num, numbered, sql, type Sql } from "../sql/sql.ts";
import { candidatesSql } from "./candidates.ts";
import { scoredSql } from "./likelihood.ts";
import type { SuggestParams } from "./params.ts";

/** The positions (pos, rank, dist) of the suggestions: the candidates by likelihood, the first `limit`. */
function positionsSql(resource: "venues" | "cities", s: SuggestParams, candidates: Sql): Sql {
  return sql`SELECT pos, -score AS rank, dist FROM (${scoredSql(resource, s.focus, candidates)})
             ORDER BY rank, pos LIMIT ${num(s.limit, "limit")}`;
}

/** The one statement of the suggestions: the records of the first `limit` candidates by likelihood; null for no words. */
export function suggestStatement<R>(q: ResourceQueries<R>, s: SuggestParams, language: Language): Sql | null {
  const candidates = candidatesSql(q, s);
  return candidates === null ? null : numbered(q.page(positionsSql(q.resource, s, candidates), language, false));
}

export async function runSuggest<R>(
  q: ResourceQueries<R>,
  session: Runner,
  s: SuggestParams,
  language: Language,
): Promise<Page<R>> {
  const page = suggestStatement(q, s, language);
  if (page === null) return { page: 1, total: 0, items: [], match: "exact" };
  const [result] = await session.run(`${q.resource} suggestions`, [page]);
  const items = (result?.rows ?? []).map((row) => q.record(row));
  if (items.length > 0 || !s.search.typos) return { page: 1, total: items.length, items, match: "exact" };
  const forgiven = await runSearch(q, session, { ...s.search, page: 1 }, language);
  const first = forgiven.items.slice(0, s.limit);
  return { ...forgiven, total: first.length, items: first };
}
