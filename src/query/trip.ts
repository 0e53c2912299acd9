/**
 * A round trip planned before it runs: its statements in the order D1 runs them (one batch), each
 * under a name its rows are read by. A search's plan is such a value (trips.ts): a test reads
 * which statements a request sends, and the code reads their rows by what they are, not by where.
 */
import { numbered, type Sql } from "../sql/sql.ts";
import type { Runner } from "./resource.ts";

type Rows = Record<string, unknown>[];

/** The rows of a trip that ran, by the names of its statements. */
export class TripRows {
  constructor(
    private readonly names: readonly string[],
    private readonly results: readonly { rows: Rows }[],
    private readonly prefix = "",
  ) {}

  private indexOf(name: string): number {
    return this.names.indexOf(this.prefix + name);
  }

  /** Whether the trip held a statement of this name. */
  has(name: string): boolean {
    return this.indexOf(name) >= 0;
  }

  /** The rows of the statement of this name; none when the trip held no such statement. */
  rows(name: string): Rows {
    const i = this.indexOf(name);
    return i < 0 ? [] : (this.results[i]?.rows ?? []);
  }

  /** The rows of a trip added under `prefix` (Trip.include). */
  of(prefix: string): TripRows {
    return new TripRows(this.names, this.results, `${this.prefix}${prefix}.`);
  }
}

export class Trip {
  private readonly named: { name: string; statement: Sql }[] = [];

  /** Adds a statement (numbered: src/sql/sql.ts) under a name, unless it is null. */
  add(name: string, statement: Sql | null): this {
    if (statement === null) return this;
    if (this.named.some((s) => s.name === name)) throw new Error(`a trip holds one statement named ${name}`);
    this.named.push({ name, statement: numbered(statement) });
    return this;
  }

  /** Adds every statement of another trip, each named `prefix.name` (TripRows.of reads them). */
  include(prefix: string, trip: Trip | null): this {
    for (const { name, statement } of trip?.named ?? []) this.add(`${prefix}.${name}`, statement);
    return this;
  }

  get names(): string[] {
    return this.named.map((s) => s.name);
  }

  get statements(): Sql[] {
    return this.named.map((s) => s.statement);
  }

  /** Its statements but those whose names `left` holds for, with their names, in its order. */
  but(left: (name: string) => boolean): { names: string[]; statements: Sql[] } {
    const kept = this.named.filter((s) => !left(s.name));
    return { names: kept.map((s) => s.name), statements: kept.map((s) => s.statement) };
  }

  get empty(): boolean {
    return this.named.length === 0;
  }

  /** Runs the trip in one round trip; its rows by name. */
  async run(session: Runner, what: string): Promise<TripRows> {
    const names = this.names;
    return new TripRows(names, await session.run(what, this.statements, names));
  }
}
