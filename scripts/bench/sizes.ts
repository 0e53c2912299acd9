/**
 * Where a database's bytes are: each served table with its indexes and, for an FTS5 index, its
 * shadow tables (SQLite's dbstat).
 */
import Database from "better-sqlite3";

export interface TableSize {
  table: string;
  mib: number;
}

export function tableSizes(path: string): { total: number; tables: TableSize[] } {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare(
        `SELECT coalesce(m.tbl_name, s.name) AS owner, sum(s.pgsize) AS bytes
         FROM dbstat s LEFT JOIN sqlite_master m ON m.name = s.name GROUP BY owner`,
      )
      .all() as { owner: string; bytes: number }[];
    const byTable = new Map<string, number>();
    for (const r of rows) {
      // FTS5 shadow tables (x_data, x_idx, x_config) count for their index x.
      const owner = r.owner.replace(/_(data|idx|config|docsize|content)$/, "");
      byTable.set(owner, (byTable.get(owner) ?? 0) + r.bytes);
    }
    const tables = [...byTable]
      .map(([table, bytes]) => ({ table, mib: bytes / 2 ** 20 }))
      .sort((a, b) => b.mib - a.mib);
    // Pages in use: a re-import leaves the old data's pages free in the file until they are reused.
    const pageCount = db.pragma("page_count", { simple: true }) as number;
    const freePages = db.pragma("freelist_count", { simple: true }) as number;
    const pageSize = db.pragma("page_size", { simple: true }) as number;
    return { total: ((pageCount - freePages) * pageSize) / 2 ** 20, tables };
  } finally {
    db.close();
  }
}
