/**
 * Rows as SQL text, for the places where rows travel as statements rather than through a
 * driver: `wrangler d1 execute --remote --file` and the seed of the worker tests.
 */
import type { SqlValue, TableData } from "./tables.ts";

/** D1 refuses statements over 100 KB; stay well below. */
export const MAX_STATEMENT_BYTES = 90_000;

export function literal(value: SqlValue): string {
  if (value === null) return "NULL";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
    return String(value);
  }
  return `'${value.replaceAll("'", "''")}'`;
}

/** Multi-row INSERT statements for a table's rows, each under MAX_STATEMENT_BYTES. */
export function* insertStatements(table: TableData, into = table.name): Generator<string> {
  const head = `INSERT INTO ${into} (${table.columns.join(", ")}) VALUES `;
  let values: string[] = [];
  let bytes = head.length;
  for (const row of table.rows()) {
    const tuple = `(${row.map(literal).join(", ")})`;
    const size = Buffer.byteLength(tuple) + 2;
    if (values.length > 0 && bytes + size > MAX_STATEMENT_BYTES) {
      yield `${head}${values.join(", ")};`;
      values = [];
      bytes = head.length;
    }
    values.push(tuple);
    bytes += size;
  }
  if (values.length > 0) yield `${head}${values.join(", ")};`;
}
