/**
 * The suggestions of several venue databases as one list (docs/deploy.md#past-one-database): each
 * database gives its own first `limit` in the likelihood order, which hold its part of the first
 * `limit` of the whole (candidates.ts: a record's score is its own, and `pos` is global), so the
 * lists merged by (rank, pos) and cut to `limit` are the one database's list. A database that
 * answered in the main one's stead (src/d1/route.ts: another import) gives rows of every venue:
 * a record is kept once.
 */
import { mergedOnce, type Row } from "../query/merged-rows.ts";
import { eachAtOnce, type Runner } from "../query/resource.ts";
import type { Sql } from "../sql/sql.ts";

const byOrder = (a: Row, b: Row) => Number(a.by_rank) - Number(b.by_rank) || Number(a.by_pos) - Number(b.by_pos);

/** The statement's rows in every runner, merged in their order (columns by_rank, by_pos) and cut to `limit`. */
export async function mergedRows(runners: readonly Runner[], what: string, statement: Sql, limit: number) {
  const lists = await eachAtOnce(runners, async (r) => (await r.run(what, [statement]))[0]?.rows ?? []);
  if (lists.length === 1) return lists[0] ?? [];
  return mergedOnce(lists, byOrder, "by_pos").slice(0, limit);
}
