import type Database from "better-sqlite3";

export interface LocalPublishOptions {
  /** Target length of one write transaction, ms. */
  transactionMs?: number;
  /** Pause after each write transaction, ms: the time readers have the database to themselves. */
  pauseMs?: number;
  /** With readers, tables of at most this many pages are dropped in one write (local.ts; tests set 0). */
  dropAtOncePages?: number;
}

/** Publishing with no one reading: long transactions, no pauses. */
export const FAST: LocalPublishOptions = { pauseMs: 0, transactionMs: 500 };

/** Write transactions of about `transactionMs`, each followed by a pause. */
export class Steps {
  /**
   * Rows per step, adapted so a step takes about transactionMs: small at the start of a phase
   * (rows cost differently in each), at most doubled per step.
   */
  rows = 0;
  /** What the steps are doing now (for the report of the longest one). */
  doing = "";
  /** The longest write transaction: while it runs, the local D1 refuses queries. */
  longest = { ms: 0, doing: "" };
  private readonly transactionMs: number;
  private readonly pauseMs: number;
  /** No pauses: no one reads the target meanwhile, so a step may be as long as it takes. */
  readonly alone: boolean;
  readonly dropAtOncePages: number | undefined;

  constructor(
    private readonly db: Database.Database,
    options: LocalPublishOptions,
  ) {
    this.transactionMs = options.transactionMs ?? 25;
    this.pauseMs = options.pauseMs ?? 50;
    this.alone = this.pauseMs === 0;
    this.dropAtOncePages = options.dropAtOncePages;
  }

  /** A new phase: sizes start small again. */
  start(doing: string): void {
    this.doing = doing;
    this.reset();
  }

  /** Sizes start small again: rows of another table cost differently. */
  reset(): void {
    this.rows = 10;
  }

  async write<T>(work: () => T): Promise<T> {
    this.db.exec("BEGIN IMMEDIATE");
    // The hold starts once the lock is ours (BEGIN IMMEDIATE may wait for the worker's queries).
    const started = performance.now();
    let result: T;
    try {
      result = work();
      this.db.exec("COMMIT");
    } catch (e) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw e;
    }
    const elapsed = Math.max(performance.now() - started, 0.1);
    if (elapsed > this.longest.ms) this.longest = { ms: elapsed, doing: this.doing };
    const scale = Math.min(this.transactionMs / elapsed, 2);
    this.rows = Math.round(Math.min(100_000, Math.max(10, this.rows * scale)));
    if (this.pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, this.pauseMs));
    return result;
  }
}
