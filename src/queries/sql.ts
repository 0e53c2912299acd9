/** SQL text with its bound values; the text never contains user input. */
export interface Sql {
  sql: string;
  params: (string | number)[];
}

export function sql(text: string, ...params: (string | number)[]): Sql {
  return { sql: text, params };
}
