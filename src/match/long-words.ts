/**
 * A word typed longer than FTS5's prefix index (docs/api.md#long-words). The index holds every
 * token's first 1–6 characters (migrations/0004), and FTS5 reads a prefix of another length by
 * merging the document lists of every token that starts with it, whole, before the first row
 * (docs/benchmarks.md#long-words). A longer prefix of a word is therefore asked as the words that
 * start with it, each as a whole token, whose lists FTS5 reads lazily: `("theatre" OR
 * "theatres")`, the words read from the vocabulary (words, by its index words_by_word), in the
 * statement itself, so that no round trip is added. The vocabulary holds every word of every name
 * that the search indexes hold (test/node/long-words.test.ts), so the two texts match the same
 * records. A prefix that more than MOST_WORDS words start is left as it is.
 *
 * Applied to a statement as it runs, through the isolate's book of the words it has read
 * (src/d1/session.ts, src/match/long-word-book.ts; the benchmark's raw SQL alike:
 * scripts/bench/raw-sql.ts), or without one (npm run sql: scripts/sql/explain.ts): every FTS5 text
 * is written by src/match/fts.ts, whose prefixOf() is the only writer of `"…"*`.
 */
import { readOwnToken } from "../data-contract/tokens.ts";
import type { Sql, SqlValue } from "../sql/sql.ts";

/** The longest prefix FTS5's prefix index holds, in characters (migrations/0004: prefix = '1 2 3 4 5 6'). */
const PREFIX_INDEX_LONGEST = 6;

/** The most words a long prefix is asked as: each is a list FTS5 merges as it reads. */
const MOST_WORDS = 64;

/** A word's token in a document: its mark (an own name's word, src/data-contract/tokens.ts) and the word. */
interface WordToken {
  /** The quote as written and the mark: what each word of the phrase is written after. */
  open: string;
  word: string;
  /** The quote as written. */
  close: string;
}

/** A word as the tokenizer keeps it (src/data-contract/tokens.ts): ASCII letters and digits, any other character. */
const WORD = /^[^\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+$/u;

/** The mark and word of a prefix phrase's token, when it is longer than the prefix index; null for any other. */
function longWord(token: string): { mark: string; word: string } | null {
  if ([...token].length <= PREFIX_INDEX_LONGEST || token.startsWith("_")) return null;
  const own = readOwnToken(token);
  if (own !== null)
    return own.kind === "word" && WORD.test(own.text) ? { mark: token.charAt(0), word: own.text } : null;
  // Another mark: a start that words share (`◌2_s`); a word is letters and digits, never marked or joined.
  return WORD.test(token) && !/^\p{M}/u.test(token) ? { mark: "", word: token } : null;
}

/** A long prefix phrase where a bound value holds it: from its opening quote to after its `*`. */
interface Occurrence {
  from: number;
  to: number;
  phrase: string;
  token: WordToken;
}

/**
 * The long prefix phrases of a bound value, each where it is: `"token"*`, or `\\"token\\"*` in a
 * text inside a JSON value (the suggestions bind their texts as one: src/suggest/ways.ts). Read from
 * each `"*` back to its quote, a short token passed over at once: every search binds such texts,
 * most of them without a long word, and this runs on every request.
 */
function occurrences(value: SqlValue): Occurrence[] {
  if (typeof value !== "string") return [];
  const found: Occurrence[] = [];
  for (let star = value.indexOf('"*'); star !== -1; star = value.indexOf('"*', star + 2)) {
    const quote = value.charAt(star - 1) === "\\" ? '\\"' : '"';
    const end = star + 1 - quote.length;
    const start = value.lastIndexOf('"', end - 1) + 1;
    // UTF-16 units are at least the characters: a token of at most 6 units is short.
    if (start === 0 || end - start <= PREFIX_INDEX_LONGEST || value.slice(start - quote.length, start) !== quote)
      continue;
    const long = longWord(value.slice(start, end));
    if (long === null) continue;
    const [from, to] = [start - quote.length, star + 2];
    found.push({
      from,
      to,
      phrase: value.slice(from, to),
      token: { open: quote + long.mark, word: long.word, close: quote },
    });
  }
  return found;
}

/** The long prefix phrases of a bound value, once each. */
const longPrefixes = (found: readonly Occurrence[]): [phrase: string, token: WordToken][] => [
  ...new Map(found.map((o) => [o.phrase, o.token])),
];

/** A bound value with each long prefix whose words `known` knows written as those words, in one pass. */
function withKnownWords(value: string, found: readonly Occurrence[], known: KnownWords): string {
  const parts: string[] = [];
  let last = 0;
  for (const o of found) {
    const words = known(o.token.word);
    if (words === undefined || words === null) continue;
    parts.push(value.slice(last, o.from), asWordsText(o.token, words));
    last = o.to;
  }
  return parts.length === 0 ? value : parts.join("") + value.slice(last);
}

/**
 * Whether FTS5 text names a prefix longer than the prefix index (any token, marked or not): FTS5
 * merges its lists whole each time the text names it.
 */
export const holdsLongPrefix = (text: string): boolean =>
  [...text.matchAll(/"([^"]*)"\*/g)].some(([, token]) => [...(token ?? "")].length > PREFIX_INDEX_LONGEST);

/**
 * At most this many long prefixes of one text are asked as words in SQL: each is a replace()
 * deeper (D1: expressions 100 deep). A known word is bound in the value, at no depth: every one is.
 */
const MOST_PER_TEXT = 8;

/** D1's limit of SQL a statement (100,000 bytes), with room: a statement past it keeps its prefixes. */
const MOST_SQL_BYTES = 90_000;

/**
 * At most this many lookups of long words in one statement (a text's prefixes, times the places
 * that bind it); the prefixes past them are left as typed. Each lookup is a subquery, and SQLite
 * copies a common table expression's subqueries at each use of it: SQLite 3.54 refuses a statement
 * whose copies reach 1,000 cursors ("VIEWs and/or subqueries nested too deep",
 * docs/benchmarks.md#statements-nested-deep), which the typo fallback's tiers in an area passed
 * with 53 lookups.
 */
const MOST_A_STATEMENT = 24;

/** Each text's prefixes, the first of them while the statement's lookups stay within MOST_A_STATEMENT. */
function withinStatement<T>(prefixesOf: readonly T[][], text: string): T[][] {
  let left = MOST_A_STATEMENT;
  return prefixesOf.map((prefixes, i) => {
    if (prefixes.length === 0) return prefixes;
    const places = text.match(new RegExp(`\\+\\?${i + 1}(?!\\d)`, "g"))?.length ?? 0;
    const kept = places === 0 ? prefixes : prefixes.slice(0, Math.floor(left / places));
    left -= kept.length * places;
    return kept;
  });
}

/** What a long word is asked as: the words that start with it (1 to MOST_WORDS), or null: the prefix as typed. */
export type AskedAs = readonly string[] | null;

/** The long words whose words are known (LongWordBook), or none: every long word asked in SQL. */
export type KnownWords = (word: string) => AskedAs | undefined;

const NONE_KNOWN: KnownWords = () => undefined;

/** A long word's phrase as its words, as the SQL below writes it: `("theatre" OR "theatres")`. */
const asWordsText = (token: WordToken, words: readonly string[]) =>
  `(${words.map((w) => token.open + w + token.close).join(" OR ")})`;

/**
 * A numbered statement (src/sql/sql.ts numbered()) whose bound FTS5 texts ask their long prefixes
 * as the words that start with them; the statement itself when none has one. A long word that
 * `known` knows is bound as its words, in the text's value, and the statement's text stays as it
 * is. The others are read where they are asked: bound as one JSON value (D1 binds at most 100
 * values a statement), `[[phrase, open, word, close], …]`: the phrase as written, what each of its
 * words is written after (the quote and the mark), the word, and what after it (the quote). Each
 * text reads the words where it is (a first CTE that the texts read from is what SQLite refuses in
 * an FTS5 constraint of a correlated subquery: "subqueries nested too deep").
 */
export const withLongWords = (statement: Sql, known: KnownWords = NONE_KNOWN): Sql =>
  rewriteLongWords(statement, known).statement;

/** withLongWords, and the long words of the statement that `known` does not know, each once: those past a text's first MOST_PER_TEXT too. */
export function rewriteLongWords(statement: Sql, known: KnownWords): { statement: Sql; unknown: string[] } {
  let bound = false;
  const unknownWords = new Set<string>();
  const binds = [...statement.binds];
  const prefixesOf = statement.binds.map((value, i) => {
    const found = occurrences(value);
    const prefixes = longPrefixes(found);
    const unknown = prefixes.filter(([, token]) => known(token.word) === undefined);
    for (const [, token] of unknown) unknownWords.add(token.word);
    if (unknown.length < prefixes.length && typeof value === "string") {
      binds[i] = withKnownWords(value, found, known);
      bound = true;
    }
    return unknown.slice(0, MOST_PER_TEXT);
  });
  const asked = withinStatement(prefixesOf, statement.text);
  const all = [...new Map(asked.flat()).entries()];
  const unknown = [...unknownWords];
  if (all.length === 0) return { statement: bound ? { text: statement.text, binds } : statement, unknown };
  const list = `+?${statement.binds.length + 1}`;
  const at = (k: number, field: number) => `json_extract(${list},'$[${k}][${field}]')`;
  const asWords = (k: number) =>
    `(SELECT CASE WHEN count(*) BETWEEN 1 AND ${MOST_WORDS} THEN '('||group_concat(${at(k, 1)}||word||${at(k, 3)},' OR ')||')' ` +
    `ELSE ${at(k, 0)} END FROM (SELECT word FROM words WHERE word>=${at(k, 2)} AND word<${at(k, 2)}||char(1114111) ` +
    `ORDER BY word LIMIT ${MOST_WORDS + 1}))`;
  const index = new Map(all.map(([phrase], k) => [phrase, k]));
  let text = statement.text;
  asked.forEach((prefixes, i) => {
    if (prefixes.length === 0) return;
    const replaced = prefixes.reduce(
      (inner, [phrase]) => {
        const k = index.get(phrase) ?? 0;
        return `replace(${inner},${at(k, 0)},${asWords(k)})`;
      },
      `+?${i + 1}`,
    );
    text = text.replaceAll(new RegExp(`\\+\\?${i + 1}(?!\\d)`, "g"), replaced);
  });
  if (new TextEncoder().encode(text).length > MOST_SQL_BYTES)
    return { statement: { text: statement.text, binds }, unknown };
  const json = JSON.stringify(all.map(([phrase, { open, word, close }]) => [phrase, open, word, close]));
  return { statement: { text, binds: [...binds, json] }, unknown };
}

/** Reads, for each word of a JSON list, the words that start with it, as the statements above do: `{ word, words }` rows. */
export function readLongWords(words: readonly string[]): Sql {
  return {
    text:
      `SELECT j.value AS word, (SELECT json_group_array(word) FROM (SELECT word FROM words ` +
      `WHERE word>=j.value AND word<j.value||char(1114111) ORDER BY word LIMIT ${MOST_WORDS + 1})) AS words ` +
      `FROM json_each(+?1) AS j`,
    binds: [JSON.stringify(words)],
  };
}

/** What a row of readLongWords() says a word is asked as. */
export function askedAs(row: Record<string, unknown>): [word: string, asked: AskedAs] | null {
  if (typeof row.word !== "string" || typeof row.words !== "string") return null;
  const words = JSON.parse(row.words) as string[];
  return [row.word, words.length >= 1 && words.length <= MOST_WORDS ? words : null];
}
