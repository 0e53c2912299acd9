/**
 * The schema of the served database: migrations/, in order. A local D1 database gets them through
 * wrangler (which records them in d1_migrations, see wrangler.ts); the build file and plain SQLite
 * targets (benchmarks, tests) get them here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { ROOT } from "../tools/project.ts";

const DIR = join(ROOT, "migrations");

/** The migration files' names, in the order they apply. */
export function migrationFiles(): string[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith(".sql"))
    .sort();
}

/** The migrations of migrations/ not among `applied` (the names in wrangler's d1_migrations table). */
export function missingMigrations(applied: Iterable<string>): string[] {
  const done = new Set(applied);
  return migrationFiles().filter((f) => !done.has(f));
}

/** Applies every migration to a database without a schema. */
export function applyMigrations(db: Database.Database): void {
  for (const file of migrationFiles()) db.exec(readFileSync(join(DIR, file), "utf8"));
}
