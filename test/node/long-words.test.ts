/**
 * Long words asked as the words that start them (src/match/long-words.ts): the same records as the
 * prefix FTS5 merges whole. Against FTS5 itself: in a small index, a long prefix and its rewriting
 * count the same documents, with few words and past MOST_WORDS; on the imported fixtures, the
 * vocabulary holds every word token the search indexes hold, and every search and suggestion of
 * long prefixes answers the same with the rewriting as without it, and as the isolate's book of
 * long words (src/match/long-word-book.ts) answers it the first time, asked in SQL, and after, bound.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localRunner } from "../../scripts/sql/explain.ts";
import { readOwnToken, ownWords } from "../../src/data-contract/tokens.ts";
import { LongWordBook } from "../../src/match/long-word-book.ts";
import { rewriteLongWords, withLongWords } from "../../src/match/long-words.ts";
import { parseSearchParams } from "../../src/params/search.ts";
import { CITIES } from "../../src/query/cities.ts";
import type { ResourceQueries, Runner } from "../../src/query/resource.ts";
import { runSearch } from "../../src/query/search.ts";
import { VENUES } from "../../src/query/venues.ts";
import { anonymous, numbered, sql, type Sql } from "../../src/sql/sql.ts";
import { parseSuggestParams } from "../../src/suggest/params.ts";
import { runSuggest } from "../../src/suggest/suggest.ts";
import { dir, fixtureImport } from "../support/import-fixtures.ts";

const all = (db: Database.Database, s: Sql) => {
  const { text, binds } = anonymous(s);
  return db.prepare(text).all(...binds);
};

const own = ownWords("en").word("");

/** A small index: 3 words start with `theatre`, 70 with `abcdefgh`; each in 2 documents, one of them marked own. */
function smallIndex(): Database.Database {
  const db = new Database(":memory:");
  db.exec(`CREATE VIRTUAL TABLE t USING fts5 (d, detail = 'none', prefix = '1 2 3 4 5 6', tokenize = "ascii tokenchars '_'");
    CREATE TABLE words (id INTEGER PRIMARY KEY, word TEXT NOT NULL);
    CREATE INDEX words_by_word ON words (word);`);
  const insertDoc = db.prepare("INSERT INTO t (d) VALUES (?)");
  const insertWord = db.prepare("INSERT INTO words (word) VALUES (?)");
  const words = ["theatre", "theatres", "theatrex", "theatr", ...Array.from({ length: 70 }, (_, i) => `abcdefgh${i}`)];
  for (const w of words) {
    insertWord.run(w);
    insertDoc.run(`${w} other`);
    insertDoc.run(`${own}${w} _${w}_hall`);
  }
  return db;
}

const count = (text: string) => numbered(sql`SELECT count(*) AS n FROM t WHERE t MATCH ${text}`);

describe("a long prefix asked as its words, in FTS5", () => {
  const db = smallIndex();
  afterAll(() => db.close());

  // Each word is in two documents, one as a word and one as an own word: a prefix of n words counts n.
  it.each([
    ['"theatre"*', 3],
    [`"${own}theatre"*`, 3],
    [`"${own}theatr"*`, 4],
    ['"abcdefgh"*', 70],
    ['"abcdefgh1"*', 11],
    ['"theatre"* AND "other"', 3],
    ['("theatre"*) NOT ("theatres")', 2],
    [`"theatre"* OR "${own}theatre"* OR "abcdefgh1"*`, 17],
    ['"zzzzzzzz"*', 0],
  ])("%s: the same documents, read as words", (text, n) => {
    const rewritten = withLongWords(count(text));
    expect(rewritten.text).toContain("FROM words");
    expect(all(db, count(text))).toEqual([{ n }]);
    expect(all(db, rewritten)).toEqual([{ n }]);
  });

  it("asks a text inside a JSON value (the suggestions' texts) as words too", () => {
    const text = JSON.stringify({ text: `"theatre"* OR "${own}theatre"*` });
    const statement = numbered(sql`SELECT count(*) AS n FROM t WHERE t MATCH json_extract(${text}, '$.text')`);
    expect(withLongWords(statement).text).toContain("FROM words");
    expect(all(db, withLongWords(statement))).toEqual([{ n: 6 }]);
  });

  it("leaves short prefixes, name tokens, shared starts and phrases without a star as they are", () => {
    for (const text of ['"theatr"*', '"_theatre_hall"*', '"__r2_theatre"*', '"theatres"', `"${own}theatr"`]) {
      expect(withLongWords(count(text))).toEqual(count(text));
    }
  });
});

/** A drawn text of phrases: long words and short, marked as an own name's or not, prefixes or not, plain or inside JSON. */
function drawnTexts() {
  const word = fc.constantFrom("theatre", "theatres", "abcdefgh", "seventeen", "théâtre", "club", "sala");
  const token = fc.tuple(fc.constantFrom("", own), word).map(([mark, w]) => `${mark}${w}`);
  const phrases = fc.tuple(token, fc.boolean(), fc.boolean()).map(([t, star, json]) => {
    const quote = json ? '\\"' : '"';
    return `${quote}${t}${quote}${star ? "*" : ""}`;
  });
  return fc.array(phrases, { minLength: 1, maxLength: 12 }).map((list) => list.join(" AND "));
}

/** What a long word known as its words is asked as, here: itself and one word more. */
const asked = (w: string) => [w, `${w}s`];

/** Each known phrase, marked or not, plain or inside JSON, replaced everywhere, one after the other. */
function replacedInTurn(value: string, knownList: readonly string[]): string {
  let expected = value;
  for (const w of knownList)
    for (const mark of ["", own])
      for (const quote of ['"', '\\"'])
        expected = expected.replaceAll(
          `${quote}${mark}${w}${quote}*`,
          `(${asked(w)
            .map((x) => `${quote}${mark}${x}${quote}`)
            .join(" OR ")})`,
        );
  return expected;
}

describe("a known long word bound as its words", () => {
  it("is bound wherever a text names it, as every phrase replaced in turn would be", () => {
    const knownWords = fc.subarray(["theatre", "theatres", "seventeen", "théâtre"]);
    fc.assert(
      fc.property(drawnTexts(), knownWords, (value, knownList) => {
        const known = (w: string) => (knownList.includes(w) ? asked(w) : w === "abcdefgh" ? null : undefined);
        const bound = rewriteLongWords({ text: "SELECT +?1", binds: [value] }, known).statement.binds[0];
        expect(bound).toBe(replacedInTurn(value, knownList));
      }),
      { numRuns: 1000, seed: 63 },
    );
  });
});

describe("the isolate's book of long words (src/match/long-word-book.ts)", () => {
  const db = smallIndex();
  afterAll(() => db.close());

  it("binds the long words a book has read as their words, in the statement's own text, for that data version", () => {
    const book = new LongWordBook();
    const roundTrip = (statements: Sql[], version: string) => {
      const written = book.write(statements);
      const rows = written.statements.map((s) => all(db, s) as Record<string, unknown>[]);
      return { written, rows, learnt: book.learn(written, version, written.reads ? rows.at(-1) : undefined) };
    };
    const texts = ['"theatre"* AND "other"', '"abcdefgh"*', `"${own}theatr"*`];
    const first = roundTrip(texts.map(count), "v1");
    expect(first.written.reads).toBe(true);
    expect(first.written.statements[0]?.text).toContain("FROM words");
    expect(first.rows.slice(0, 3)).toEqual([[{ n: 3 }], [{ n: 70 }], [{ n: 4 }]]);
    expect(first.learnt).toBe(true);

    const again = roundTrip(texts.map(count), "v1");
    expect(again.written.reads).toBe(false);
    expect(again.written.boundAt).toBe("v1");
    expect(again.written.statements.map((s) => s.text)).toEqual(texts.map((t) => count(t).text));
    expect(again.written.statements.map((s) => s.binds[0])).toEqual([
      '("theatre" OR "theatres" OR "theatrex") AND "other"',
      '"abcdefgh"*', // more than 64 words start it: the prefix as typed
      `("${own}theatr" OR "${own}theatre" OR "${own}theatres" OR "${own}theatrex")`,
    ]);
    expect(again.rows).toEqual([[{ n: 3 }], [{ n: 70 }], [{ n: 4 }]]);

    // Another import swapped in: the words bound were of v1, so the answer starts again, and the book with it.
    expect(roundTrip(texts.map(count), "v2").learnt).toBe(false);
    expect(book.write(texts.map(count)).reads).toBe(true);
  });

  it("binds every long word of a text it knows, past the 8 that a text asks in SQL", () => {
    const book = new LongWordBook();
    // 9 long words: abcdefgh0 (1 word), abcdefgh1–6 (11 each), theatre and theatres (3 and 1): 70 documents.
    const longWords = [...Array.from({ length: 7 }, (_, i) => `abcdefgh${i}`), "theatre", "theatres"];
    const text = longWords.map((w) => `"${w}"*`).join(" OR ");
    const first = book.write([count(text)]);
    const firstRows = first.statements.map((s) => all(db, s) as Record<string, unknown>[]);
    expect(first.statements[0]?.text.match(/FROM words/g)).toHaveLength(8);
    expect(firstRows[0]).toEqual([{ n: 70 }]);
    expect(firstRows.at(-1)).toHaveLength(9);
    expect(book.learn(first, "v1", firstRows.at(-1))).toBe(true);

    const again = book.write([count(text)]);
    expect(again.reads).toBe(false);
    expect(again.statements[0]?.text).toBe(count(text).text);
    expect(again.statements[0]?.binds[0]).not.toContain('"*');
    expect(all(db, again.statements[0] as Sql)).toEqual([{ n: 70 }]);
  });
});

let fixtures: Database.Database;
let prefixes: string[] = [];

/** A runner that runs statements as they were built: every long prefix merged by FTS5. */
const asBuilt = (): Runner => ({
  run: (_what, list) => Promise.resolve(list.map((s) => ({ rows: all(fixtures, s) as Record<string, unknown>[] }))),
});

/** A runner as the worker's, counting the statements whose texts it rewrote. */
function counted(rewritten: { n: number }): Runner {
  const runner = localRunner(fixtures);
  return {
    run: (what, list) => {
      rewritten.n += list.filter((s) => withLongWords(s) !== s).length;
      return runner.run(what, list);
    },
  };
}

/** A runner as the worker's session (src/d1/session.ts): the long words that `book` has read bound as their words. */
function booked(book: LongWordBook, bound: { n: number }): Runner {
  return {
    run: (_what, list) => {
      const written = book.write(list);
      const rows = written.statements.map((s) => all(fixtures, s) as Record<string, unknown>[]);
      expect(book.learn(written, "fixtures", written.reads ? rows.at(-1) : undefined)).toBe(true);
      if (written.boundAt !== null) bound.n++;
      return Promise.resolve(rows.slice(0, list.length).map((r) => ({ rows: r })));
    },
  };
}

const searches = (word: string) => [
  `name=${word}`,
  `name=the ${word}`,
  `name=${word}&country=US`,
  `name=${word}&lat=40.7&long=-74&radius=500`,
];

/**
 * A long word's searches and suggestions, as built (FTS5 merging the prefix whole), asked in SQL,
 * and through a book: the first time and again.
 */
async function answersAlike(
  resource: "venues" | "cities",
  queries: ResourceQueries<unknown>,
  word: string,
  runners: { rewritten: () => Runner; booked: () => Runner },
): Promise<void> {
  for (const query of searches(encodeURIComponent(word).replaceAll("%20", "+"))) {
    const p = parseSearchParams(resource, query);
    const expected = await runSearch(queries, asBuilt(), p, "en");
    expect(await runSearch(queries, runners.rewritten(), p, "en"), `${resource}?${query}`).toEqual(expected);
    for (const time of ["first", "again"])
      expect(await runSearch(queries, runners.booked(), p, "en"), `${resource}?${query} ${time}`).toEqual(expected);
  }
  for (const language of ["en", "de"] as const) {
    const s = parseSuggestParams(resource, `name=${encodeURIComponent(word)}`);
    const expected = await runSuggest(queries, asBuilt(), s, language);
    expect(await runSuggest(queries, runners.rewritten(), s, language), `suggest ${resource} ${word}`).toEqual(
      expected,
    );
    expect(await runSuggest(queries, runners.booked(), s, language), `suggest ${resource} ${word}`).toEqual(expected);
  }
}

describe("long words on the imported fixtures", () => {
  beforeAll(async () => {
    const path = join(dir, "long-words.sqlite");
    await fixtureImport(path);
    fixtures = new Database(path, { readonly: true });
    const words = fixtures
      .prepare("SELECT word FROM words WHERE length(word) >= 8 ORDER BY venues + cities DESC, word")
      .pluck()
      .all() as string[];
    // The most common long words' 7- and 8-letter starts, and whole words.
    prefixes = [...new Set(words.slice(0, 24).flatMap((w) => [w.slice(0, 7), w.slice(0, 8), w]))];
  }, 120_000);
  afterAll(() => fixtures.close());

  it("the vocabulary holds every word token longer than the prefix index of every search index", () => {
    const words = new Set(fixtures.prepare("SELECT word FROM words").pluck().all() as string[]);
    for (const index of ["venues_fts", "cities_fts", "venue_name_words_fts", "city_name_words_fts"]) {
      fixtures.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${index}_terms USING fts5vocab(main, ${index}, 'row')`);
      const terms = fixtures.prepare(`SELECT term FROM temp.${index}_terms`).pluck().all() as string[];
      const long = terms
        .map((t) => (readOwnToken(t)?.kind === "word" ? (readOwnToken(t)?.text ?? "") : t))
        .filter((w) => [...w].length >= 6 && !w.includes("_") && !/^\p{M}/u.test(w));
      expect(long.length, index).toBeGreaterThan(0);
      expect(
        long.filter((w) => !words.has(w)),
        index,
      ).toEqual([]);
    }
  });

  it("every search and suggestion of a long word answers the same as its prefix merged whole, asked in SQL or bound", async () => {
    const rewritten = { n: 0 };
    const bound = { n: 0 };
    const book = new LongWordBook();
    const runners = { rewritten: () => counted(rewritten), booked: () => booked(book, bound) };
    for (const [resource, q] of [
      ["venues", VENUES],
      ["cities", CITIES],
    ] as const) {
      const queries = q as ResourceQueries<unknown>;
      for (const word of prefixes) {
        await answersAlike(resource, queries, word, runners);
      }
    }
    expect(prefixes.length).toBeGreaterThan(50);
    expect(rewritten.n).toBeGreaterThan(prefixes.length);
    expect(bound.n).toBeGreaterThan(prefixes.length);
  }, 300_000);
});
