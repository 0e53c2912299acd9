/** Bad input rows, reported as `file:line: reason`. */
export interface Problem {
  file: string;
  line: number;
  reason: string;
}

export function formatProblem(p: Problem): string {
  return `${p.file}:${p.line}: ${p.reason}`;
}

/** Thrown when the import must stop; the message is meant for the user as is. */
export class ImportError extends Error {
  override name = "ImportError";
}

const SHOWN = 20;

/**
 * Collects bad rows. Without --skip-invalid the import stops after the source in which they
 * were found (before anything is written); with it they are counted and skipped.
 */
export class Problems {
  readonly list: Problem[] = [];
  constructor(readonly skipInvalid: boolean) {}

  add(file: string, line: number, reason: string): void {
    this.list.push({ file, line, reason });
  }

  get count(): number {
    return this.list.length;
  }

  /** Stops the import if rows were bad and --skip-invalid was not given. */
  check(): void {
    if (this.skipInvalid || this.list.length === 0) return;
    const shown = this.list.slice(0, SHOWN).map(formatProblem);
    const more = this.list.length - shown.length;
    if (more > 0) shown.push(`... and ${more} more`);
    throw new ImportError(
      `${this.list.length} invalid row(s); nothing was imported ` +
        `(--skip-invalid imports the rest):\n${shown.join("\n")}`,
    );
  }

  /** A few of the skipped rows, for the summary. */
  sample(): string[] {
    return this.list.slice(0, 5).map(formatProblem);
  }
}
