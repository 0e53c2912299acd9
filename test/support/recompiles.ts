/**
 * How often SQLite compiles a statement again when it runs again: sqlite3_stmt_status's
 * REPREPARE count, which better-sqlite3 does not expose, read on SQLite's own WebAssembly build
 * (3.53.4: the stock build of 3.54, which workerd now embeds, refuses the typo fallback's largest
 * statements, which workerd's own build runs; docs/benchmarks.md#statements-nested-deep). workerd
 * keeps a D1 statement prepared between requests; SQLite compiles it again on the next run when its
 * plan depends on a value bound to it.
 */
import { readFileSync } from "node:fs";
import sqlite3InitModule from "@sqlite.org/sqlite-wasm";
import type { Sql } from "../../src/sql/sql.ts";

type Sqlite3 = Awaited<ReturnType<typeof sqlite3InitModule>>;
type WasmDb = InstanceType<Sqlite3["oo1"]["DB"]>;

export interface Recompiles {
  /** The REPREPARE count of a statement prepared once and run twice with its binds. */
  count(statement: Sql): number;
  close(): void;
}

/** A copy of a SQLite file in memory (read in legacy journal mode: a memory database has no WAL). */
export async function openCopy(path: string): Promise<Recompiles> {
  const sqlite3 = await sqlite3InitModule();
  const bytes = new Uint8Array(readFileSync(path));
  bytes[18] = 1;
  bytes[19] = 1;
  const db: WasmDb = new sqlite3.oo1.DB();
  const { capi } = sqlite3;
  const flags = capi.SQLITE_DESERIALIZE_FREEONCLOSE | capi.SQLITE_DESERIALIZE_RESIZEABLE;
  const rc = capi.sqlite3_deserialize(
    db,
    "main",
    sqlite3.wasm.allocFromTypedArray(bytes),
    bytes.length,
    bytes.length,
    flags,
  );
  if (rc !== 0) throw new Error(`sqlite3_deserialize: ${rc}`);
  return {
    count(statement) {
      const st = db.prepare(statement.text);
      try {
        for (let run = 0; run < 2; run++) {
          st.reset(true);
          // As D1 binds them: every number a REAL.
          statement.binds.forEach((value, i) => {
            if (typeof value === "number") capi.sqlite3_bind_double(st, i + 1, value);
            else st.bind(i + 1, value);
          });
          while (st.step()) {
            // every row, as a query does
          }
        }
        return capi.sqlite3_stmt_status(st, capi.SQLITE_STMTSTATUS_REPREPARE, 0);
      } finally {
        st.finalize();
      }
    },
    close: () => db.close(),
  };
}
