export interface Env {
  DB: D1Database;
}
