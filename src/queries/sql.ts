/** SQL text with its bound values; the text never contains user input. */
export interface Sql {
  sql: string;
  params: (string | number)[];
}

export function sql(text: string, ...params: (string | number)[]): Sql {
  return { sql: text, params };
}

/**
 * One statement for a search: the page's rows in order (`columns` reads the page's positions as
 * `page h`), each with the search's total (a scalar subquery, evaluated once). A page past the
 * end has no rows, and is a 404 whatever the total.
 */
export function withTotal(positions: Sql, count: Sql, columns: Sql): Sql {
  return {
    sql: `WITH page AS (${positions.sql}) SELECT (${count.sql}) AS total, ${columns.sql}`,
    params: [...positions.params, ...count.params, ...columns.params],
  };
}

/** Positions (tier, pos) of one page of the rows of an FTS table matching an FTS expression. */
export function ftsPositions(
  table: "venues_fts" | "cities_fts",
  tier: number,
  match: Sql,
  limit: number,
  offset: number,
): Sql {
  return sql(
    `SELECT ${tier} AS tier, f.rowid AS pos FROM ${table} f WHERE ${table} MATCH ${match.sql}
     ORDER BY f.rowid LIMIT ? OFFSET ?`,
    ...match.params,
    limit,
    offset,
  );
}
