/**
 * The statements a cache miss runs, straight on the SQLite file (better-sqlite3): the time of the
 * queries themselves, without the worker, the D1 binding and HTTP. A search with a typo runs both
 * of its round trips, as the worker does; its long words bound as the worker binds them after its
 * first miss.
 */
import type Database from "better-sqlite3";
import { parseSearchParams } from "../../src/params/search.ts";
import { CITIES } from "../../src/query/cities.ts";
import type { ResourceQueries, Runner } from "../../src/query/resource.ts";
import { runSearch } from "../../src/query/search.ts";
import { anonymous, type Sql } from "../../src/sql/sql.ts";
import { VENUES } from "../../src/query/venues.ts";
import { LongWordBook } from "../../src/match/long-word-book.ts";
import { withLongWords } from "../../src/match/long-words.ts";
import { fullScans } from "./plans.ts";
import { parseSuggestParams } from "../../src/suggest/params.ts";
import { suggestStatement } from "../../src/suggest/suggest.ts";
import type { QueryClass } from "./query-classes.ts";

/** The rows of statements run on a SQLite file, as the worker's Runner gives them (long words asked in SQL; better-sqlite3 binds by position). */
export function rowsOf(db: Database.Database, list: readonly Sql[]): { rows: Record<string, unknown>[] }[] {
  return list
    .map((s) => anonymous(withLongWords(s)))
    .map((s) => ({ rows: db.prepare(s.text).all(...s.binds) as Record<string, unknown>[] }));
}

/** Statements run on a SQLite file, as the worker's session sends them through `book` (src/d1/session.ts): the rows, and the statements sent. */
function sentThrough(db: Database.Database, book: LongWordBook, list: readonly Sql[]) {
  const written = book.write(list);
  const rows = written.statements.map((s) => {
    const { text, binds } = anonymous(s);
    return db.prepare(text).all(...binds) as Record<string, unknown>[];
  });
  book.learn(written, "the file's", written.reads ? rows.at(-1) : undefined);
  return { sent: written.statements, results: rows.slice(0, list.length).map((r) => ({ rows: r })) };
}

/** Every statement of one miss of this class as the worker sends it with `book`, in order (the second round trip included). */
async function sentOnce(db: Database.Database, c: QueryClass, book: LongWordBook): Promise<Sql[]> {
  const q = (c.resource === "venues" ? VENUES : CITIES) as ResourceQueries<unknown>;
  if (c.suggest === true) {
    const statement = suggestStatement(q, parseSuggestParams(c.resource, c.query), "en");
    return statement === null ? [] : sentThrough(db, book, [statement]).sent;
  }
  const statements: Sql[] = [];
  // The worker's own search, on the SQLite file instead of a D1 session.
  const runner: Runner = {
    run: (_what, list) => {
      const { sent, results } = sentThrough(db, book, list);
      statements.push(...sent);
      return Promise.resolve(results);
    },
  };
  await runSearch(q, runner, parseSearchParams(c.resource, c.query), "en");
  return statements;
}

/**
 * Every statement of a miss of this class as D1 runs it, in order: as the worker sends it once
 * its isolate has met the class's long words (the first miss reads them: src/match/long-word-book.ts).
 */
export async function missStatements(db: Database.Database, c: QueryClass): Promise<Sql[]> {
  const book = new LongWordBook();
  await sentOnce(db, c, book);
  return sentOnce(db, c, book);
}

/**
 * The page cache D1's SQLite has, in KiB: workerd builds SQLite without a default cache size
 * (build/BUILD.sqlite3), so it keeps SQLite's 2,000 KiB, and D1 refuses `PRAGMA cache_size`
 * (SQLITE_AUTH). With better-sqlite3's default of 16,000 KiB, the name-and-area classes ran 14–30 %
 * faster at 10M venues than with D1's cache (measured 2026-11-25).
 */
const D1_PAGE_CACHE_KIB = 2000;

/** Median milliseconds to run a class's statements, over 60 runs, with D1's page cache. */
export async function rawSqlMs(db: Database.Database, c: QueryClass): Promise<number> {
  db.pragma(`cache_size = -${D1_PAGE_CACHE_KIB}`);
  const statements = (await missStatements(db, c))
    .map(anonymous)
    .map((s) => ({ prepared: db.prepare(s.text), binds: s.binds }));
  const times: number[] = [];
  for (let i = 0; i < 60; i++) {
    const t = performance.now();
    for (const s of statements) s.prepared.all(...s.binds);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

/** The plan lines of a class's statements that scan a whole table or index (plans.ts). */
export async function classScans(db: Database.Database, c: QueryClass): Promise<string[]> {
  return (await missStatements(db, c))
    .map(anonymous)
    .flatMap((s) =>
      fullScans(
        (db.prepare(`EXPLAIN QUERY PLAN ${s.text}`).all(...s.binds) as { detail: string }[]).map((r) => r.detail),
      ),
    );
}
