/**
 * This machine's speed now: the seconds a fixed piece of work takes, the best of three. The
 * import's phases are JavaScript and SQLite; measured on one machine on 2026-11-26, every phase of
 * an unchanged import took 3.3-3.6 × longer in the evening than in the morning, so the guard scales
 * the stored figures by this before comparing (phase-guard.ts).
 */
import Database from "better-sqlite3";

const ROWS = 300_000;

function work(): void {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (word TEXT NOT NULL, n INTEGER NOT NULL)");
  const insert = db.prepare("INSERT INTO t VALUES (?, ?)");
  let x = 1;
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      x = (x * 48_271) % 2_147_483_647; // a fixed pseudo-random sequence (Lehmer)
      insert.run(`Zü${x.toString(36)}`.normalize("NFKD").toLowerCase(), x % 1000);
    }
  })();
  db.exec("CREATE INDEX t_word ON t (word)");
  db.prepare("SELECT n, count(*), max(word) FROM t GROUP BY n ORDER BY 2 DESC, 1").all();
  db.close();
}

export function calibrate(): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    work();
    best = Math.min(best, (performance.now() - started) / 1000);
  }
  return Number(best.toFixed(3));
}
