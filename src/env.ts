export interface Env {
  DB: D1Database;
  /** "off" answers every request from D1 (benchmarks of the miss path, debugging). */
  EDGE_CACHE?: string;
}
