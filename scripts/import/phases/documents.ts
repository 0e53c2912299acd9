/**
 * Phase 2, write the search documents (docs/architecture.md#search-indexes): one per city and one
 * per venue, in pos order (their rowid), holding the words of its names, its name tokens and the
 * filter and geo tokens of its place (src/format/tokens.ts). Publishing indexes them.
 */
import type Database from "better-sqlite3";
import { cityTokenSql } from "../../../src/format/tokens.ts";
import type { Progress } from "../progress.ts";

export function searchDocuments(db: Database.Database, progress: Progress): void {
  progress.phase("search documents of cities and venues");
  db.exec(`
    INSERT INTO city_docs (pos, doc)
    SELECT c.pos, r.words || ' ' || r.names || ' ' || r.tokens FROM cities c JOIN raw_cities r ON r.gid = CAST(c.id AS INTEGER)
    ORDER BY c.pos;
    INSERT INTO venue_docs (pos, doc)
    SELECT v.pos, trim(v.name_norm || ' ' || v.name_token || CASE WHEN v.city_pos IS NULL THEN ''
                  ELSE ' ' || r.tokens || ' ' || ${cityTokenSql("v.city_pos")} END)
    FROM temp.ordered_venues v LEFT JOIN cities c ON c.pos = v.city_pos
    LEFT JOIN raw_cities r ON r.gid = CAST(c.id AS INTEGER)
    ORDER BY v.pos;`);
}
