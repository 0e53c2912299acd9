/** What a served SQLite file holds: its schema, its data version, its row counts. */
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { applyMigrations } from "./migrations.ts";
import { noCounts, type BuildCounts } from "./phases/counts.ts";
import type { RecordedOptions } from "./import-meta.ts";
import {
  MAIN_HOLDS_NO_VENUE,
  MAIN_VENUES_KEY,
  SHARD_PLAN_KEY,
  type ShardManifest,
} from "../../src/data-contract/shards.ts";

/** Applies migrations/ to a plain SQLite file that has no schema yet (benchmarks, tests). */
export function ensureSchema(path: string): void {
  const db = new Database(path);
  try {
    db.pragma("journal_mode = WAL");
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'meta'").get() !== undefined) return;
    applyMigrations(db);
  } finally {
    db.close();
  }
}

/** The data version a SQLite file holds, or null when it holds none (or no file). */
export function storedDataVersion(path: string): string | null {
  if (!existsSync(path)) return null;
  const db = new Database(path, { readonly: true });
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'data_version'").get() as { value: string } | undefined;
    return row?.value ?? null;
  } catch {
    return null; // no meta table yet: migrations not applied
  } finally {
    db.close();
  }
}

function storedCounts(path: string): { counts: BuildCounts; meta: Record<string, string | undefined> } {
  const db = new Database(path, { readonly: true });
  try {
    const meta: Record<string, string | undefined> = Object.fromEntries(
      (db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((r) => [
        r.key,
        r.value,
      ]),
    );
    return {
      counts: { ...noCounts(), cities: Number(meta.rows_cities ?? 0), venues: Number(meta.rows_venues ?? 0) },
      meta,
    };
  } finally {
    db.close();
  }
}

/** What the local database serves, from its meta rows; null when it holds no data. */
export interface StoredImport {
  dataVersion: string;
  /** The import's sources, as the import described them (meta `sources`). */
  sources: string;
  importedAt: string;
  cities: number;
  venues: number;
  /** What the import read (meta `import_options`); null for an import made before they were recorded. */
  options: RecordedOptions | null;
  /** How many venue databases its plan has (docs/deploy.md#past-one-database); 0 for one database. */
  shards: number;
  /** Whether it holds the venues' own rows (not in the main database of `--main-venues none`). */
  holdsVenues: boolean;
}

function planSize(json: string | undefined): number {
  if (json === undefined) return 0;
  try {
    const plan = JSON.parse(json) as unknown;
    return Array.isArray(plan) ? plan.length : 0;
  } catch {
    return 0;
  }
}

function recorded(json: string | undefined): RecordedOptions | null {
  if (json === undefined) return null;
  try {
    return JSON.parse(json) as RecordedOptions;
  } catch {
    return null;
  }
}

export function storedImport(path: string): StoredImport | null {
  if (!existsSync(path)) return null;
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[];
    const meta = new Map(rows.map((r) => [r.key, r.value]));
    const dataVersion = meta.get("data_version");
    if (dataVersion === undefined) return null;
    return {
      dataVersion,
      sources: meta.get("sources") ?? "",
      importedAt: meta.get("imported_at") ?? "",
      cities: Number(meta.get("rows_cities") ?? 0),
      venues: Number(meta.get("rows_venues") ?? 0),
      options: recorded(meta.get("import_options")),
      shards: planSize(meta.get(SHARD_PLAN_KEY)),
      holdsVenues: meta.get(MAIN_VENUES_KEY) !== MAIN_HOLDS_NO_VENUE,
    };
  } catch {
    return null; // no meta table: migrations not applied yet
  } finally {
    db.close();
  }
}

/** What a target serves: its data version, its counts and, in the main database of a plan, the manifest. */
export interface Stored {
  version: string;
  counts: BuildCounts;
  manifest: ShardManifest | null;
}

const manifestOf = (json: string | undefined): ShardManifest | null =>
  json === undefined ? null : (JSON.parse(json) as ShardManifest);

/** What a local or file target serves (null: no data). */
export function storedFile(path: string | null): Stored | null {
  const version = path === null ? null : storedDataVersion(path);
  if (path === null || version === null) return null;
  const { counts, meta } = storedCounts(path);
  return { version, counts, manifest: manifestOf(meta[SHARD_PLAN_KEY]) };
}

/** What the remote database serves, from its meta rows (null: no data). */
export function storedRemote(meta: ReadonlyMap<string, string> | undefined): Stored | null {
  const version = meta?.get("data_version");
  if (version === undefined) return null;
  const count = (key: string) => Number(meta?.get(key) ?? 0);
  return {
    version,
    counts: { ...noCounts(), cities: count("rows_cities"), venues: count("rows_venues") },
    manifest: manifestOf(meta?.get(SHARD_PLAN_KEY)),
  };
}
