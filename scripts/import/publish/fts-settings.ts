/**
 * FTS5's merge settings, as publishing and the prebuild of the indexes (phases/fts-worker.ts) set
 * them, and how many segments an index is in, from its structure record.
 */
import type Database from "better-sqlite3";

/** FTS5's own defaults of the merge settings (restored after indexing). */
export const FTS5_DEFAULTS = { automerge: 4, crisismerge: 16 };

export function configureFts(db: Database.Database, table: string, settings: Record<string, number>): void {
  // FTS5 takes these as integer values only (a bound JS number arrives as a real).
  for (const [name, value] of Object.entries(settings)) {
    db.exec(`INSERT INTO main.${table} (${table}, rank) VALUES ('${name}', ${Math.trunc(value)})`);
  }
}

/** The structure record of an FTS5 index: the row of its %_data table with this id (fts5_index.c). */
export const FTS5_STRUCTURE_ID = 10;

/** The record's 4-byte marker, after its cookie, when it is of FTS5's second format. */
const STRUCTURE_V2 = "ff000001";

/**
 * The segments an index is in, from its structure record as hex (`hex(block)`): a 4-byte cookie,
 * FTS5's second format's marker where it is, then SQLite varints: the levels, the segments. Null
 * for a record it cannot read.
 */
export function segmentsOf(structureHex: string): number | null {
  const bytes = Buffer.from(structureHex, "hex");
  let at = structureHex.slice(8, 16).toLowerCase() === STRUCTURE_V2 ? 8 : 4;
  const varint = (): number | null => {
    let value = 0;
    for (let i = 0; i < 9 && at < bytes.length; i++) {
      const byte = bytes[at++] ?? 0;
      if (i === 8) return value * 256 + byte;
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return value;
    }
    return null;
  };
  return varint() === null ? null : varint();
}
