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
  /**
   * Per bound value, the key under which numbered() binds it once for all its places (num()); absent
   * where no value has one (most fragments: so they carry one list, not two).
   */
  readonly shares?: readonly (string | null)[] | undefined;
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

function fragment(text: string, binds: readonly SqlValue[], shares?: readonly (string | null)[]): Fragment {
  return { [SQL]: true, text, binds, shares };
}

const sharesOf = (s: Sql) => s.shares ?? s.binds.map(() => null);

/** Appends a fragment's binds and, where any fragment so far has them, its shares. */
function append(binds: SqlValue[], shares: (string | null)[] | undefined, s: Sql): (string | null)[] | undefined {
  let all = shares;
  if (s.shares !== undefined) all ??= binds.map(() => null);
  if (all !== undefined) for (const share of sharesOf(s)) all.push(share);
  for (const value of s.binds) binds.push(value);
  return all;
}

function isSql(value: unknown): value is Sql {
  return typeof value === "object" && value !== null && SQL in value;
}

export function sql(strings: TemplateStringsArray, ...values: readonly (Sql | SqlValue)[]): Sql {
  let text = strings[0] ?? "";
  const binds: SqlValue[] = [];
  let shares: (string | null)[] | undefined;
  for (let i = 0; i < values.length; i++) {
    const value = values[i] ?? null;
    if (isSql(value)) {
      text += value.text;
      shares = append(binds, shares, value);
    } else {
      text += PLACEHOLDER;
      binds.push(value);
      shares?.push(null);
    }
    text += strings[i + 1] ?? "";
  }
  return fragment(text, binds, shares);
}

const NO_BINDS: readonly SqlValue[] = [];

/** SQL text written in code (an identifier, a keyword): never a value from a request. */
export function raw(text: string): Sql {
  return fragment(text, NO_BINDS);
}

/** Fragments joined with a separator written in code. */
export function join(parts: readonly Sql[], separator: string): Sql {
  let text = "";
  const binds: SqlValue[] = [];
  let shares: (string | null)[] | undefined;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Sql;
    text += i === 0 ? part.text : separator + part.text;
    shares = append(binds, shares, part);
  }
  return fragment(text, binds, shares);
}

/**
 * An integer from code written into the text (a level, a tier's key): D1 binds every JS number as a
 * REAL, which an integer division or a key compared as an integer must not get. Never a value from
 * a request: that would make a new statement text (compiled anew) of every request.
 */
export function int(n: number): Sql {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not an integer: ${n}`);
  return raw(String(n));
}

/**
 * A string from code written into the text as an SQL literal (a token, a phrase that matches
 * nothing): never a value from a request. Bound, a constant took a place of D1's 100 at each use:
 * a typo's tiers each held `"__none"`.
 */
export function literal(text: string): Sql {
  return raw(`'${text.replaceAll("'", "''")}'`);
}

/** What a num() is, so that only numbers of one kind share a bound place. */
type NumKind = "lat" | "lng" | "km" | "west" | "east" | "south" | "north" | "limit";

/**
 * A finite number from a validated parameter (a circle's centre or radius, a box's edge), bound,
 * and bound once for every place of the statement that binds the same `what` (`lat`, `west`, `km`)
 * of the same value: numbered(). Two numbers of different kinds never share a place, so the text
 * does not depend on whether they happen to be equal.
 */
export function num(n: number, what: NumKind): Sql {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  return fragment(PLACEHOLDER, [n], [`${what}=${n}`]);
}

/**
 * A statement as D1 runs it: its values numbered (`+?1`, `+?2`, …), a value of num() bound once
 * for all its places. A search in an area repeats its centre, radii and edges in many places, past
 * D1's 100 bound values; bound once each, they stay out of the text, so two searches that differ
 * only in their values share one statement text, which workerd keeps prepared (a new text is
 * compiled first: 1–4 ms for an area's). Numbering twice changes nothing.
 */
export function numbered(statement: Sql): Sql {
  const pieces = statement.text.split(PLACEHOLDER);
  if (pieces.length === 1) return statement;
  const numbers = new Map<string, number>();
  const binds: SqlValue[] = [];
  let next = 0;
  let text = pieces[0] ?? "";
  for (let j = 1; j < pieces.length; j++) {
    const piece = pieces[j] ?? "";
    // A place already numbered (`+?3`) stays as it is.
    if (isDigit(piece.charCodeAt(0))) {
      text += PLACEHOLDER + piece;
      continue;
    }
    const i = next++;
    const key = statement.shares?.[i] ?? null;
    let n = key === null ? undefined : numbers.get(key);
    if (n === undefined) {
      binds.push(statement.binds[i] ?? null);
      n = binds.length;
      if (key !== null) numbers.set(key, n);
    }
    text += PLACEHOLDER + String(n) + piece;
  }
  if (next === 0) return statement;
  if (next !== statement.binds.length) throw new Error(`${statement.binds.length} values for ${next} placeholders`);
  return { text, binds };
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * A numbered statement with each value bound at each of its places (`+?` again), for SQLite
 * drivers that bind only anonymous parameters by position (better-sqlite3, in the benchmark and
 * the tests).
 */
export function anonymous(statement: Sql): Sql {
  const binds: SqlValue[] = [];
  const text = statement.text.replaceAll(/\+\?(\d+)/g, (_, n: string) => {
    binds.push(statement.binds[Number(n) - 1] ?? null);
    return PLACEHOLDER;
  });
  return binds.length === 0 ? statement : { text, binds };
}

/**
 * What SQLite allows in one statement as D1 and workerd set it (docs/api.md#what-one-request-may-cost):
 * a compound SELECT of at most 5 parts, expressions at most 100 deep. Statements whose parts grow
 * with a request (its words, cells, readings) are built with unionAll(), and no condition is a chain
 * that grows with one (a list of words is bound as one value: src/match/one-name.ts).
 */
const COMPOUND_PARTS = 5;

/** SELECTs joined with UNION ALL, nested so that no compound SELECT has more than COMPOUND_PARTS. */
export function unionAll(parts: readonly Sql[]): Sql {
  if (parts.length <= COMPOUND_PARTS) return join(parts, " UNION ALL ");
  const groups: Sql[] = [];
  for (let i = 0; i < parts.length; i += COMPOUND_PARTS) {
    groups.push(sql`SELECT * FROM (${join(parts.slice(i, i + COMPOUND_PARTS), " UNION ALL ")})`);
  }
  return unionAll(groups);
}
