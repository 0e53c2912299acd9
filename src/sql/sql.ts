/**
 * SQL text with its bound values, written together: ``sql`SELECT … WHERE id = ${id}` `` puts a
 * placeholder where the value goes and the value into the bind list in the same place, so moving a
 * fragment can never misbind. A fragment interpolated into another carries its binds along.
 * Values are always bound; only raw() — for text written in code — is spliced in.
 */
export type SqlValue = string | number | null;

export interface Sql {
  readonly text: string;
  readonly binds: readonly SqlValue[];
}

const SQL = Symbol("sql");

/**
 * A bound value's place in the text: `+?`, not `?`. SQLite's planner looks at the values bound to
 * some bare parameters (a `LIMIT ?`, whose value it writes into the program; an `x = ?` it compares
 * with another expression) and marks the statement to be compiled again whenever they are bound
 * anew, that is on every run: a search's statement was compiled on each request although workerd
 * keeps it prepared (up to 2 ms, more than running it). The unary plus is a no-op on any value, and
 * SQLite does not look through it (sqlite3ExprIsInteger, exprCompareVariable).
 */
const PLACEHOLDER = "+?";

interface Fragment extends Sql {
  readonly [SQL]: true;
}

function fragment(text: string, binds: readonly SqlValue[]): Fragment {
  return { [SQL]: true, text, binds };
}

function isSql(value: unknown): value is Sql {
  return typeof value === "object" && value !== null && SQL in value;
}

export function sql(strings: TemplateStringsArray, ...values: readonly (Sql | SqlValue)[]): Sql {
  let text = strings[0] ?? "";
  const binds: SqlValue[] = [];
  values.forEach((value, i) => {
    if (isSql(value)) {
      text += value.text;
      binds.push(...value.binds);
    } else {
      text += PLACEHOLDER;
      binds.push(value);
    }
    text += strings[i + 1] ?? "";
  });
  return fragment(text, binds);
}

/** SQL text written in code (an identifier, a keyword): never a value from a request. */
export function raw(text: string): Sql {
  return fragment(text, []);
}

/** Fragments joined with a separator written in code. */
export function join(parts: readonly Sql[], separator: string): Sql {
  return fragment(
    parts.map((p) => p.text).join(separator),
    parts.flatMap((p) => p.binds),
  );
}

/**
 * An integer from code written into the text: D1 binds every JS number as a REAL, which an LIMIT,
 * an integer division or a key compared as an integer must not get.
 */
export function int(n: number): Sql {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not an integer: ${n}`);
  return raw(String(n));
}

/**
 * A finite number from code or a validated parameter, written into the text: D1 binds at most 100
 * values a statement, and a search in an area repeats its centre, radii and edges in many parts.
 */
export function num(n: number): Sql {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  return raw(String(n));
}
