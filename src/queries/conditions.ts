import type { SearchParams } from "../params";

/** A piece of a WHERE clause with its bound values (never user text inside `sql`). */
export interface Condition {
  sql: string;
  params: (string | number)[];
}

export function and(conditions: readonly Condition[]): Condition {
  return {
    sql: conditions.length === 0 ? "1" : conditions.map((c) => c.sql).join(" AND "),
    params: conditions.flatMap((c) => c.params),
  };
}

/**
 * `state`, `stateCode` and `country` as conditions on a table alias that has country_code and
 * admin1_code columns (cities, and venues which carry copies of their city's).
 */
export function regionConditions(alias: "c" | "v", p: SearchParams): Condition[] {
  const out: Condition[] = [];
  if (p.state !== undefined) {
    out.push({
      sql: `(${alias}.country_code, ${alias}.admin1_code) IN (SELECT country_code, code FROM admin1 WHERE name_norm = ?)`,
      params: [p.state],
    });
  }
  if (p.stateCode !== undefined) out.push({ sql: `${alias}.admin1_code = ?`, params: [p.stateCode] });
  if (p.country !== undefined) {
    out.push(
      "code" in p.country
        ? { sql: `${alias}.country_code = ?`, params: [p.country.code] }
        : {
            sql: `${alias}.country_code = (SELECT code FROM countries WHERE name_norm = ?)`,
            params: [p.country.nameNorm],
          },
    );
  }
  return out;
}
