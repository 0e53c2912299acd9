/** npm run sql's report: each round trip's statements, their bound values and plans, and the answer. */
import { canonicalSuggestQuery } from "../../src/suggest/params.ts";
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
    `  -- statement ${n}${s.name === undefined ? "" : ` (${s.name})`}: ${s.rows} row${s.rows === 1 ? "" : "s"} in ${s.ms.toFixed(2)} ms`,
    indent(s.statement.text, "  "),
    `  -- bound values (${binds.length}): ${binds.length === 0 ? "none" : binds.join(", ")}`,
    "  -- EXPLAIN QUERY PLAN",
    ...planTree(s.plan).map((line) => `  --   ${line}`),
  ].join("\n");
}

/**
 * Why the worker sends the round trips after the first, or none: a place read in the name
 * (docs/api.md#a-place-in-the-text), the typo fallback, or nothing to add.
 */
function laterTripsLine(e: Explained): string | null {
  if (e.trips.length === 0)
    return "The name has no letter or digit: nothing can match, and the worker runs no statement.";
  if (e.trips.length > 1) {
    const why = e.trips.slice(1).map((t) => t.what);
    return `No record's name is the text as typed, or nothing matches it: then ${why.join(", then ")}.`;
  }
  if (e.request.params.name === undefined) return null;
  if (!e.forgiving) {
    return e.request.params.typos
      ? "No typo fallback: no word of the name is long enough to forgive a typo (4 letters)."
      : "No typo fallback: typos=0.";
  }
  return e.page.total > 0
    ? "The name matches as typed: no other round trip (no reading ranks better)."
    : "The name matches nothing as typed, and no reading (a place, a correction) is in the data: no other round trip.";
}

/** The answer's line: its records, how the name matched, what was read and corrected. */
function answerLine(page: Explained["page"]): string {
  if (page.items.length === 0) return `Answer: 404 not found (total ${n(page.total)} on page ${page.page}).`;
  const readAs =
    page.readAs === undefined
      ? null
      : canonicalQuery(page.readAs)
          .replace(/(^|&)p=\d+/, "")
          .replace(/^&/, "");
  return (
    `Answer: ${page.items.length} records of ${n(page.total)} on page ${page.page}, X-Match: ${page.match}` +
    (readAs === null ? "" : `, X-Read-As: ${readAs}`) +
    (page.suggestion === undefined ? "." : `, X-Corrected-Name: ${encodeURIComponent(page.suggestion)}.`)
  );
}

/** The whole report. */
export function explainedText(e: Explained, database: string): string {
  const out = [
    `${e.request.path}`,
    e.request.suggest === undefined
      ? `  ${e.request.resource} search, canonical query ${canonicalQuery(e.request.params)}, language ${e.language}`
      : `  ${e.request.resource} suggestions, canonical query ${canonicalSuggestQuery(e.request.suggest)}, language ${e.language}`,
    `  on ${database}`,
  ];
  e.trips.forEach((trip, i) => {
    if (i === 1) out.push("", laterTripsLine(e) ?? "");
    out.push("", `Round trip ${i + 1}: ${trip.what} (${trip.statements.length} statements, one D1 batch)`);
    trip.statements.forEach((s, n) => out.push("", statementText(s, n + 1)));
  });
  const after = e.trips.length > 1 ? null : laterTripsLine(e);
  if (after !== null) out.push("", after);
  out.push("", answerLine(e.page));
  return out.join("\n");
}
