/** npm run sql's report: each round trip's statements, their bound values and plans, and the answer. */
import { canonicalQuery } from "../../src/params/search.ts";
import type { SqlValue } from "../../src/sql/sql.ts";
import type { Explained, RanStatement } from "./explain.ts";

const indent = (text: string, by: string) =>
  text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => `${by}${line}`)
    .join("\n");

const n = (x: number) => x.toLocaleString("en-US");
const value = (v: SqlValue | undefined) => (typeof v === "string" ? JSON.stringify(v) : String(v));

/** The plan as a tree, as the sqlite3 shell draws it: each line under its parent. */
function planTree(plan: RanStatement["plan"]): string[] {
  const depth = new Map<number, number>();
  return plan.map((row) => {
    const d = row.parent === 0 ? 0 : (depth.get(row.parent) ?? 0) + 1;
    depth.set(row.id, d);
    return `${"  ".repeat(d)}${row.detail}`;
  });
}

function statementText(s: RanStatement, n: number): string {
  const binds = s.statement.binds.map((v, i) => `?${i + 1} = ${value(v)}`);
  return [
    `  -- statement ${n}: ${s.rows} row${s.rows === 1 ? "" : "s"} in ${s.ms.toFixed(2)} ms`,
    indent(s.statement.text, "  "),
    `  -- bound values (${binds.length}): ${binds.length === 0 ? "none" : binds.join(", ")}`,
    "  -- EXPLAIN QUERY PLAN",
    ...planTree(s.plan).map((line) => `  --   ${line}`),
  ].join("\n");
}

/** Why the worker does or does not send the typo fallback's second round trip. */
function fallbackLine(e: Explained): string | null {
  const first = e.trips[0];
  if (first === undefined)
    return "The name has no letter or digit: nothing can match, and the worker runs no statement.";
  if (!e.forgiving) {
    if (e.request.params.name === undefined) return null;
    return e.request.params.typos
      ? "No typo fallback: no word of the name is long enough to forgive a typo (4 letters)."
      : "No typo fallback: typos=0.";
  }
  if (e.trips.length > 1) return "The name matches nothing as typed: the typo fallback's second round trip follows.";
  return e.page.total > 0
    ? "The name matches as typed: no second round trip (the typo fallback's reading was not needed)."
    : "The name matches nothing as typed, and no reading within the allowed edits is in the data: no second round trip.";
}

/** The whole report. */
export function explainedText(e: Explained, database: string): string {
  const out = [
    `${e.request.path}`,
    `  ${e.request.resource} search, canonical query ${canonicalQuery(e.request.params)}, language ${e.language}`,
    `  on ${database}`,
  ];
  e.trips.forEach((trip, i) => {
    if (i === 1) out.push("", fallbackLine(e) ?? "");
    out.push("", `Round trip ${i + 1}: ${trip.what} (${trip.statements.length} statements, one D1 batch)`);
    trip.statements.forEach((s, n) => out.push("", statementText(s, n + 1)));
  });
  const after = e.trips.length > 1 ? null : fallbackLine(e);
  if (after !== null) out.push("", after);
  const { page } = e;
  out.push(
    "",
    page.items.length === 0
      ? `Answer: 404 not found (total ${n(page.total)} on page ${page.page}).`
      : `Answer: ${page.items.length} records of ${n(page.total)} on page ${page.page}, X-Match: ${page.match}` +
          (page.suggestion === undefined ? "." : `, X-Corrected-Name: ${encodeURIComponent(page.suggestion)}.`),
  );
  return out.join("\n");
}
