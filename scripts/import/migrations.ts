/**
 * The schema of the served database: migrations/, in order. The local D1 database and the build
 * file and plain SQLite targets (benchmarks, tests) get them here; the remote database through
 * wrangler (remote-database.ts). wrangler's table of applied migrations, d1_migrations, records
 * them in the local D1 as wrangler would, so that `wrangler d1 migrations list --local` and a later
 * `wrangler d1 migrations apply --local` agree.
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

/** A migration file's SQL. */
export const migrationSql = (file: string): string => readFileSync(join(DIR, file), "utf8");

/** The migrations of migrations/ not among `applied` (the names in wrangler's d1_migrations table). */
export function missingMigrations(applied: Iterable<string>): string[] {
  const done = new Set(applied);
  return migrationFiles().filter((f) => !done.has(f));
}

/** wrangler's table of applied migrations, as its `d1 migrations apply` creates it. */
export const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "d1_migrations"(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`;

/**
 * Applies the migrations that d1_migrations does not list, each recorded there, in one transaction:
 * all of them or, on a failure, none. Returns their names.
 */
export function applyMissingMigrations(db: Database.Database): string[] {
  return db.transaction(() => {
    db.exec(MIGRATIONS_TABLE);
    const missing = missingMigrations(db.prepare("SELECT name FROM d1_migrations").pluck().all() as string[]);
    const record = db.prepare("INSERT INTO d1_migrations (name) VALUES (?)");
    for (const file of missing) {
      db.exec(migrationSql(file));
      record.run(file);
    }
    return missing;
  })();
}

/** Applies every migration to a database without a schema. */
export function applyMigrations(db: Database.Database): void {
  for (const file of migrationFiles()) db.exec(migrationSql(file));
}
