/**
 * Bad input rows, reported as `file:line: reason`, and the checks every reader shares.
 */
export interface Problem {
  file: string;
  /** A line number, or a JSON path in a one-document file. */
  line: number | string;
  reason: string;
}

function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}: ${p.reason}`;
}

/**
 * Thrown when the import must stop; the message is meant for the user as is. The command adds that
 * the data served before is unchanged, but where the message says what is served itself (a remote
 * file that failed after the swap).
 */
export class ImportError extends Error {
  override name = "ImportError";
  readonly saysWhatIsServed: boolean;
  constructor(message: string, options: { saysWhatIsServed?: boolean } = {}) {
    super(message);
    this.saysWhatIsServed = options.saysWhatIsServed === true;
  }
}

/** A row is bad: thrown by the field checks, caught by the reader, which records the row. */
export class RowError extends Error {
  override name = "RowError";
}

/** C0 and C1 control characters (a tab never reaches a field: it separates them). */
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A text field: trimmed, no control characters, at most `max` characters (empty is allowed). */
export function textField(value: string | undefined, what: string, max = 200): string {
  const v = (value ?? "").trim();
  if (CONTROL.test(v)) throw new RowError(`${what} contains a control character`);
  if (v.length > max) throw new RowError(`${what} is longer than ${max} characters`);
  return v;
}

/** Bad rows as collected: how many, and the first ones. */
export interface CollectedProblems {
  total: number;
  kept: Problem[];
}

/** The most problems kept for the report; beyond it they are only counted. */
const KEPT = 1000;
const SHOWN = 20;

/**
 * Collects bad rows. Without --skip-invalid the import stops after the source in which they
 * were found (before anything is published); with it they are counted and skipped.
 */
export class Problems {
  private readonly list: Problem[] = [];
  private total = 0;
  constructor(readonly skipInvalid: boolean) {}

  add(file: string, line: number | string, reason: string): void {
    this.total++;
    if (this.list.length < KEPT) this.list.push({ file, line, reason });
  }

  /**
   * What `read` gives for one row, or undefined when it throws a RowError: the row is then
   * recorded as `file:line: reason` (every reader's rows are checked this way).
   */
  row<T>(file: string, line: number | string, read: () => T): T | undefined {
    try {
      return read();
    } catch (e) {
      if (!(e instanceof RowError)) throw e;
      this.add(file, line, e.message);
      return undefined;
    }
  }

  get count(): number {
    return this.total;
  }

  /** What was collected, to be taken over by another import of the same rows (shards/read-once.ts). */
  collected(): CollectedProblems {
    return { total: this.total, kept: [...this.list] };
  }

  /** Takes over what another import collected from the same rows. */
  takeOver(collected: CollectedProblems): void {
    this.list.push(...collected.kept.slice(0, KEPT - this.list.length));
    this.total += collected.total;
  }

  /** Stops the import if rows were bad and --skip-invalid was not given. */
  check(): void {
    if (this.skipInvalid || this.total === 0) return;
    const shown = this.list.slice(0, SHOWN).map(formatProblem);
    const more = this.total - shown.length;
    if (more > 0) shown.push(`... and ${more} more`);
    throw new ImportError(
      `${this.total} invalid row(s); nothing was imported (--skip-invalid imports the rest):\n${shown.join("\n")}`,
    );
  }

  /** The problems kept (the first thousand), as `file:line: reason`. */
  reported(): string[] {
    return this.list.map(formatProblem);
  }

  /** A few of the skipped rows, for the summary. */
  sample(): string[] {
    return this.reported().slice(0, 5);
  }
}
