/**
 * D1's documented limits on one statement (developers.cloudflare.com/d1/platform/limits/): 100 KB
 * of SQL, 100 bound parameters, 32 arguments per SQL function, 50 bytes of LIKE or GLOB pattern;
 * and SQLite's expression depth (100) and compound-SELECT terms (5) as workerd sets them, which the
 * local D1 enforces itself (a statement past them fails there: the property tests run them). This
 * module checks the first four on a statement's text and bound values, for the tests and the
 * benchmark (docs/api.md#what-one-request-may-cost). Pure.
 */

const D1_LIMITS = { sqlBytes: 100_000, boundParameters: 100, functionArguments: 32, likePatternBytes: 50 };

/** Words followed by `(` that are not functions. */
const NOT_FUNCTIONS = new Set([
  "IN",
  "VALUES",
  "AS",
  "EXISTS",
  "FROM",
  "JOIN",
  "ON",
  "OVER",
  "USING",
  "WHERE",
  "AND",
  "OR",
  "NOT",
  "SELECT",
  "MATCH",
  "FILTER",
  "BY",
  "THEN",
  "ELSE",
  "WHEN",
  "CASE",
  "MATERIALIZED",
  "RECURSIVE",
  "LIMIT",
  "OFFSET",
  "BETWEEN",
  "IS",
]);

/** The text with its string literals blanked (their contents are data, not syntax). */
const withoutStrings = (text: string): string =>
  text.replace(/'(?:[^']|'')*'/g, (s) => "'" + " ".repeat(s.length - 2) + "'");

/** The largest number of arguments of a function call in the text. */
export function mostFunctionArguments(text: string): number {
  const plain = withoutStrings(text);
  let most = 0;
  for (const call of plain.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*\(/g)) {
    if (NOT_FUNCTIONS.has((call[1] ?? "").toUpperCase())) continue;
    let depth = 0;
    let args = 1;
    let empty = true;
    for (let i = (call.index ?? 0) + call[0].length; i < plain.length; i++) {
      const ch = plain[i];
      if (ch === "(") depth++;
      else if (ch === ")") {
        if (depth === 0) break;
        depth--;
      } else if (ch === "," && depth === 0) args++;
      else if (ch !== " " && ch !== "\n") empty = false;
    }
    most = Math.max(most, empty ? 0 : args);
  }
  return most;
}

/** The problems of one statement against D1's limits (none when it is within them). */
export function d1LimitProblems(text: string, binds: readonly unknown[]): string[] {
  const problems: string[] = [];
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > D1_LIMITS.sqlBytes) problems.push(`${bytes} bytes of SQL (D1: ${D1_LIMITS.sqlBytes})`);
  if (binds.length > D1_LIMITS.boundParameters) {
    problems.push(`${binds.length} bound parameters (D1: ${D1_LIMITS.boundParameters})`);
  }
  const args = mostFunctionArguments(text);
  if (args > D1_LIMITS.functionArguments)
    problems.push(`a function of ${args} arguments (D1: ${D1_LIMITS.functionArguments})`);
  if (/\b(LIKE|GLOB)\b/i.test(withoutStrings(text))) {
    // The searches use neither; a pattern is checked when one appears.
    for (const value of binds) {
      if (typeof value === "string" && new TextEncoder().encode(value).length > D1_LIMITS.likePatternBytes) {
        problems.push(`a LIKE or GLOB with a bound value of more than ${D1_LIMITS.likePatternBytes} bytes`);
        break;
      }
    }
  }
  return problems;
}
