/**
 * D1 access for one request: one D1 session per request (so reads may come from a nearby read
 * replica), every round trip a batch that also reads the data version (so an answer names the
 * import its rows came from), transient failures retried briefly, and errors told apart:
 *
 * - transient (the binding unavailable, overloaded, reset, timed out; locally, the file locked
 *   by an import): retried briefly, then 503 with Retry-After;
 * - anything else (an SQL or FTS5 error, a constraint): a bug, 500, logged with the kind of
 *   statement (never its text in the body).
 */
import { ApiError } from "../http/errors.ts";
import { LongWordBook } from "../match/long-word-book.ts";
import type { Sql } from "../sql/sql.ts";

/**
 * Messages of failures that another attempt may not meet: Cloudflare's D1 error list, and what a
 * local D1 answers while another connection (an import) holds the file's write lock, which the
 * local D1 takes for every query, even a read ("database is locked", or, across the local D1
 * object's boundary, "internal error; reference = …").
 */
const TRANSIENT = [
  "Network connection lost",
  "storage caused object to be reset",
  "reset because its code was updated",
  "transient issue on remote node",
  "client disconnected",
  "exceeded timeout",
  "D1 DB is overloaded",
  "exceeded its memory limit",
  "exceeded its CPU time limit",
  "internal error; reference",
  "SQLITE_BUSY",
  "database is locked",
];

/**
 * Retries: pauses from 10 ms growing by 30 % to at most 250 ms (jittered ±50 %), for up to 3 s in
 * all: about 20 attempts. The short early pauses matter locally: an import holds the lock for tens
 * of ms at a time with pauses in between (scripts/import/publish/local.ts), and attempts spread at random
 * over a second each met a hold with the same odds (a few in 100,000 requests failed six times
 * over); attempts close together find the next gap.
 */
const RETRY_FIRST_MS = 10;
const RETRY_GROWTH = 1.3;
const RETRY_LONGEST_MS = 250;
const RETRY_BUDGET_MS = 3000;

/** The pause before retry number `attempt` (from 0), or null when the budget is spent. */
function retryDelay(attempt: number, waitedMs: number): number | null {
  const delay = Math.min(RETRY_FIRST_MS * RETRY_GROWTH ** attempt, RETRY_LONGEST_MS) * (0.5 + Math.random());
  return waitedMs + delay > RETRY_BUDGET_MS ? null : delay;
}

export const RETRY_AFTER_SECONDS = 1;

function isTransient(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return TRANSIENT.some((part) => message.includes(part));
}

const unavailable = () =>
  new ApiError(503, "the database is unavailable; please try again shortly", {
    "Retry-After": String(RETRY_AFTER_SECONDS),
  });

/** The data version changed between two round trips of one answer (an import swapped in). */
export class VersionChanged extends Error {
  override name = "VersionChanged";
}

/** A venue database holds another import than the main database names for it (src/d1/route.ts). */
export class NotCurrent extends Error {
  override name = "NotCurrent";
}

const VERSION = "SELECT value FROM meta WHERE key = 'data_version'";

/** Each database's long words, kept by the isolate (src/match/long-word-book.ts). */
const books = new Map<string, LongWordBook>();

export interface Rows<T> {
  rows: T[];
  rowsRead: number;
}

/** One request's view of the database. */
export class Session {
  private readonly session: D1DatabaseSession;
  /** The data version the rows of this session come from (after the first round trip). */
  version: string | null = null;
  /** D1's rows_read over every round trip. */
  rowsRead = 0;
  /** Round trips to D1 so far. */
  trips = 0;
  /** The databases that answered: "main", and venue databases by number (src/d1/route.ts). */
  readonly answeredBy = new Set<string>();

  /**
   * `label` names the database in answeredBy; `expected`, the data version it must hold (else
   * NotCurrent, before any of its rows are used).
   */
  constructor(
    db: D1Database | undefined,
    private readonly label = "main",
    private readonly expected?: string,
  ) {
    if (db === undefined || typeof db.withSession !== "function") {
      console.error(`D1: the ${label} database's binding is missing`);
      throw unavailable();
    }
    try {
      this.session = db.withSession("first-unconstrained");
    } catch (error) {
      console.error(`D1: the ${label} database's binding cannot start a session`, error);
      throw unavailable();
    }
  }

  /**
   * Runs statements in one round trip (a D1 batch: one transaction, one snapshot), with the
   * data version read first, long words asked as whole words (src/match/long-word-book.ts). `what`
   * names the statements in logs.
   */
  async run(what: string, statements: readonly Sql[]): Promise<Rows<Record<string, unknown>>[]> {
    this.trips++;
    const written = this.book.write(statements);
    const results = await this.batch(what, [{ text: VERSION, binds: [] }, ...written.statements]);
    const version = results[0]?.results[0]?.value;
    // A change after the first round trip is a change (the answer starts again: src/pipeline.ts),
    // whatever the database holds now.
    if (this.version !== null && this.version !== version) throw new VersionChanged();
    if (this.expected !== undefined && version !== this.expected) throw new NotCurrent();
    if (typeof version !== "string") {
      throw new ApiError(503, "the database holds no data yet; run the import", {
        "Retry-After": String(RETRY_AFTER_SECONDS),
      });
    }
    if (!this.book.learn(written, version, written.reads ? results.at(-1)?.results : undefined)) {
      throw new VersionChanged();
    }
    this.version = version;
    const out = results
      .slice(1, statements.length + 1)
      .map((r) => ({ rows: r.results, rowsRead: r.meta.rows_read ?? 0 }));
    this.rowsRead += results.slice(1).reduce((n, r) => n + (r.meta.rows_read ?? 0), 0);
    this.answeredBy.add(this.label);
    return out;
  }

  private get book(): LongWordBook {
    let book = books.get(this.label);
    if (book === undefined) books.set(this.label, (book = new LongWordBook()));
    return book;
  }

  /** The data version alone (for a cache key before any rows are needed). */
  async dataVersion(): Promise<string> {
    await this.run("reading the data version", []);
    return this.version ?? "";
  }

  private async batch(what: string, statements: readonly Sql[]): Promise<D1Result<Record<string, unknown>>[]> {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.session.batch<Record<string, unknown>>(
          statements.map((s) => this.session.prepare(s.text).bind(...s.binds)),
        );
      } catch (error) {
        if (!isTransient(error)) {
          console.error(`D1: ${what} failed (not transient: an SQL error is a bug)`, error);
          throw new ApiError(500, "internal error");
        }
        const delay = retryDelay(attempt, Date.now() - started);
        if (delay === null) {
          console.error(`D1: ${what} failed ${attempt + 1} times in ${Date.now() - started} ms (transient)`, error);
          throw unavailable();
        }
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}
